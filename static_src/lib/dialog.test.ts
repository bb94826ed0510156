import { afterEach, describe, expect, it, vi } from "vitest";
import { closeDialog, openDialog, wireDialogs } from "./dialog";

afterEach(() => {
  document.body.innerHTML = "";
});

function page(html: string): void {
  document.body.innerHTML = html;
}

describe("dialog opener", () => {
  it("opens a dialog from its link instead of following it, and focuses its first field on request", () => {
    page(`<a href="/x?modal=add" data-open-dialog="add" id="open">Add</a>
      <dialog class="modal" id="add"><input type="hidden" name="t"><input id="name"><a href="/x" data-close-dialog id="cancel">Cancel</a></dialog>`);
    wireDialogs(document, { focusField: true });
    const link = document.getElementById("open")!;
    const click = new MouseEvent("click", { bubbles: true, cancelable: true });
    link.dispatchEvent(click);
    const dialog = document.getElementById("add") as HTMLDialogElement;
    expect(click.defaultPrevented).toBe(true);
    expect(dialog.hasAttribute("open")).toBe(true);
    expect(document.activeElement?.id).toBe("name");
  });

  it("closes from a close link and reports which element closed it", () => {
    page(
      `<dialog class="modal" id="edit" open><a href="/x?tab=a" data-close-dialog id="cancel">Cancel</a></dialog>`,
    );
    const onClose = vi.fn();
    wireDialogs(document, { onClose });
    const dialog = document.getElementById("edit") as HTMLDialogElement;
    const cancel = document.getElementById("cancel")!;
    const click = new MouseEvent("click", { bubbles: true, cancelable: true });
    cancel.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(dialog.hasAttribute("open")).toBe(false);
    expect(onClose).toHaveBeenCalledWith(dialog, cancel);
  });

  it("lets a link load its page when its dialog is not on this page", () => {
    page(`<a href="/x?modal=gone" data-open-dialog="gone" id="open">Add</a>`);
    wireDialogs();
    const click = new MouseEvent("click", { bubbles: true, cancelable: true });
    document.getElementById("open")!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(false);
  });

  it("open and close are safe to repeat", () => {
    page(`<dialog class="modal" id="d"></dialog>`);
    const dialog = document.getElementById("d") as HTMLDialogElement;
    openDialog(dialog);
    openDialog(dialog);
    expect(dialog.hasAttribute("open")).toBe(true);
    closeDialog(dialog);
    closeDialog(dialog);
    expect(dialog.hasAttribute("open")).toBe(false);
  });
});

describe("focus trap and return", () => {
  it("Tab from the last element goes to the first, Shift+Tab from the first to the last, and focus returns on close", () => {
    document.body.innerHTML = `<button id="opener">Open</button>
      <dialog class="modal" id="d"><button id="one">One</button><input id="two"><button id="three">Three</button></dialog>`;
    const opener = document.getElementById("opener") as HTMLButtonElement;
    const dialog = document.getElementById("d") as HTMLDialogElement;
    opener.focus();
    openDialog(dialog);
    const three = document.getElementById("three") as HTMLButtonElement;
    three.focus();
    three.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab", bubbles: true, cancelable: true }));
    expect(document.activeElement?.id).toBe("one");
    document.activeElement!.dispatchEvent(
      new KeyboardEvent("keydown", { key: "Tab", shiftKey: true, bubbles: true, cancelable: true }),
    );
    expect(document.activeElement?.id).toBe("three");
    closeDialog(dialog);
    expect(document.activeElement).toBe(opener);
  });
});
