import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fireEvent, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ask, askText, flash, wireConfirmations } from "./confirm";

function page(): HTMLFormElement {
  document.body.innerHTML = `<main><form method="post" action="/x"><button type="submit" data-confirm="Cancel request #7?">Cancel Request</button></form></main>`;
  return document.querySelector("form")!;
}

function dialog(): HTMLDialogElement {
  return document.getElementById("confirm-dialog") as HTMLDialogElement;
}

describe("the styled confirmation", () => {
  afterEach(() => vi.restoreAllMocks());
  wireConfirmations(document);

  it("asks in the dialog; a yes marks the form confirmed and submits it again", async () => {
    const form = page();
    const again = vi.spyOn(form, "requestSubmit").mockImplementation(() => {});
    const event = new SubmitEvent("submit", {
      bubbles: true,
      cancelable: true,
      submitter: form.querySelector("button"),
    });
    form.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(dialog().getAttribute("role")).toBe("alertdialog");
    expect(document.getElementById("confirm-dialog-message")!.textContent).toBe("Cancel request #7?");
    expect(document.getElementById("confirm-dialog-yes")!.textContent).toBe("Cancel Request");
    fireEvent.click(document.getElementById("confirm-dialog-yes")!);
    await waitFor(() => expect(again).toHaveBeenCalled());
    expect(form.querySelector<HTMLInputElement>("input[name=confirmed]")!.value).toBe("1");
    expect(dialog()).toBeNull();
  });

  it("a no stops the submit and adds nothing", async () => {
    const form = page();
    const again = vi.spyOn(form, "requestSubmit");
    form.dispatchEvent(
      new SubmitEvent("submit", { bubbles: true, cancelable: true, submitter: form.querySelector("button") }),
    );
    fireEvent.click(document.getElementById("confirm-dialog-cancel")!);
    await waitFor(() => expect(dialog()).toBeNull());
    expect(again).not.toHaveBeenCalled();
    expect(form.querySelector("input[name=confirmed]")).toBeNull();
  });

  it("Escape is a no; askText gives the typed text", async () => {
    document.body.innerHTML = "<main></main>";
    const answer = ask("Sure?");
    dialog().dispatchEvent(new Event("cancel", { cancelable: true }));
    expect(await answer).toBe(false);
    const typed = askText("Why?", { field: { label: "Reason" } });
    expect(document.querySelector("label")!.textContent).toBe("Reason");
    fireEvent.change(dialog().querySelector("input")!, { target: { value: " moved away " } });
    fireEvent.click(document.getElementById("confirm-dialog-yes")!);
    expect(await typed).toBe("moved away");
  });
});

describe("flash", () => {
  it("shows a message like the server's flash, in the page's flash area", () => {
    document.body.innerHTML = `<main><div class="flashes"></div><h1>Page</h1></main>`;
    const done = flash("Machine updated successfully!");
    expect(done.className).toBe("banner banner--success");
    expect(done.getAttribute("role")).toBe("status");
    expect(done.parentElement!.className).toBe("flashes");
    const failed = flash("Failed", "error");
    expect(failed.getAttribute("role")).toBe("alert");
  });

  it("makes the flash area when the page has none", () => {
    document.body.innerHTML = `<main><h1>Page</h1></main>`;
    flash("Saved", "info", document, { href: "/login", label: "Sign in" });
    const area = document.querySelector("main")!.firstElementChild!;
    expect(area.className).toBe("flashes");
    expect(area.querySelector("a")!.getAttribute("href")).toBe("/login");
  });
});

/** Every island source (tests aside) under static_src. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("no browser popups", () => {
  it("no island calls window.confirm, window.alert, window.prompt or alert()", () => {
    const root = join(__dirname, "..");
    const offenders = sources(root).filter((path) =>
      /\b(window\.)?(confirm|alert|prompt)\s*\(/.test(
        readFileSync(path, "utf8")
          .replace(/\/\*[\s\S]*?\*\//g, "")
          .replace(/\/\/.*$/gm, ""),
      ),
    );
    expect(offenders).toEqual([]);
  });
});
