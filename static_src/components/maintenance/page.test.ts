import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { enhancePage, imageProblem, openDetail, requestFormErrors, withoutDialogParams } from "./page";

const MB = 1024 * 1024;

describe("imageProblem", () => {
  it("accepts PNG, JPEG, GIF and WebP up to 10 MB", () => {
    for (const type of ["image/png", "image/jpeg", "image/gif", "image/webp"]) {
      expect(imageProblem({ name: "a", type, size: 10 * MB }, 10 * MB)).toBeNull();
    }
  });

  it("refuses other types, big files and empty files with the server's words", () => {
    expect(imageProblem({ name: "notes.pdf", type: "application/pdf", size: 10 }, 10 * MB)).toBe(
      "notes.pdf is not an image (PNG, JPEG, GIF or WebP).",
    );
    expect(imageProblem({ name: "v.svg", type: "image/svg+xml", size: 10 }, 10 * MB)).toMatch(/not an image/);
    expect(imageProblem({ name: "big.jpg", type: "image/jpeg", size: 10 * MB + 1 }, 10 * MB)).toBe(
      "The image must be 10 MB or smaller.",
    );
    expect(imageProblem({ name: "e.png", type: "image/png", size: 0 }, 10 * MB)).toBe("e.png is empty.");
  });
});

describe("withoutDialogParams", () => {
  it("drops only the parameters that open a dialog", () => {
    expect(withoutDialogParams("http://x/maintenance?tab=pending&request=4&q=pump&new=1&filters=1")).toBe(
      "/maintenance?tab=pending&q=pump",
    );
    expect(withoutDialogParams("http://x/maintenance?request=4")).toBe("/maintenance");
  });
});

const PAGE = `
  <a href="/maintenance?tab=request&new=1" data-open-dialog="mnt-request-dialog" id="open">Request Maintenance</a>
  <table><tbody><tr data-href="/maintenance?request=7" id="row"><td>Pump</td><td><a href="/img" id="img">View</a></td></tr></tbody></table>
  <dialog class="modal" id="mnt-request-dialog">
    <form id="mnt-request-form">
      <div class="field">
        <input type="file" name="file" id="file">
        <div id="mnt-preview" hidden><img id="mnt-preview-img"><span id="mnt-preview-name"></span>
          <button type="button" id="mnt-file-remove">Remove</button></div>
        <p data-error-for="file" hidden></p>
      </div>
    </form>
  </dialog>`;

function choose(input: HTMLInputElement, file: File) {
  Object.defineProperty(input, "files", { value: [file], configurable: true });
  input.dispatchEvent(new Event("change"));
}

describe("enhancePage", () => {
  beforeEach(() => {
    document.body.innerHTML = PAGE;
    HTMLDialogElement.prototype.showModal = vi.fn(function (this: HTMLDialogElement) {
      this.setAttribute("open", "");
    });
    HTMLDialogElement.prototype.close = vi.fn(function (this: HTMLDialogElement) {
      this.removeAttribute("open");
    });
    URL.createObjectURL = vi.fn(() => "blob:preview");
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    document.body.innerHTML = "";
  });

  it("opens the dialog in place instead of following the link", () => {
    enhancePage(document, { maxBytes: 10 * MB });
    const link = document.getElementById("open")!;
    const event = new MouseEvent("click", { bubbles: true, cancelable: true });
    link.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(document.getElementById("mnt-request-dialog")!.hasAttribute("open")).toBe(true);
  });

  it("shows a preview of a chosen image and removes it", () => {
    enhancePage(document, { maxBytes: 10 * MB });
    const input = document.getElementById("file") as HTMLInputElement;
    choose(input, new File(["x"], "pump.png", { type: "image/png" }));
    expect(document.getElementById("mnt-preview")!.hidden).toBe(false);
    expect(document.getElementById("mnt-preview-name")!.textContent).toBe("pump.png");
    expect(document.getElementById("mnt-preview-img")!.getAttribute("src")).toBe("blob:preview");
    document.getElementById("mnt-file-remove")!.click();
    expect(document.getElementById("mnt-preview")!.hidden).toBe(true);
    expect(URL.revokeObjectURL).toHaveBeenCalledWith("blob:preview");
  });

  it("refuses a non-image with a field error and no preview", () => {
    enhancePage(document, { maxBytes: 10 * MB });
    const input = document.getElementById("file") as HTMLInputElement;
    choose(input, new File(["%PDF"], "report.pdf", { type: "application/pdf" }));
    const error = document.querySelector<HTMLElement>('[data-error-for="file"]')!;
    expect(error.hidden).toBe(false);
    expect(error.textContent).toBe("report.pdf is not an image (PNG, JPEG, GIF or WebP).");
    expect(error.closest(".field")!.classList.contains("field--error")).toBe(true);
    expect(document.getElementById("mnt-preview")!.hidden).toBe(true);
  });

  it("makes a dialog the server opened modal", () => {
    document.getElementById("mnt-request-dialog")!.setAttribute("open", "");
    enhancePage(document, {});
    expect(HTMLDialogElement.prototype.showModal).toHaveBeenCalledTimes(1);
  });
});

describe("requestFormErrors", () => {
  const ok = { assignedTo: "3", issue: "Pump noise", priority: "mild", dueDate: "2026-11-21" };

  it("passes a complete form due today or later", () => {
    expect(requestFormErrors(ok, "2026-11-21")).toEqual({});
  });

  it("names every missing field and a past due date", () => {
    expect(
      requestFormErrors({ assignedTo: "", issue: "  ", priority: "", dueDate: "" }, "2026-11-21"),
    ).toEqual({
      assignedTo: "Assigned to is required.",
      issue: "Issue is required.",
      priority: "Priority is required.",
      dueDate: "Due date is required.",
    });
    expect(requestFormErrors({ ...ok, dueDate: "2026-11-20" }, "2026-11-21")).toEqual({
      dueDate: "Due date cannot be in the past.",
    });
  });
});

describe("openDetail", () => {
  beforeEach(() => {
    HTMLDialogElement.prototype.showModal = vi.fn(function (this: HTMLDialogElement) {
      this.setAttribute("open", "");
    });
    document.body.innerHTML = `<main><table><tbody>
      <tr id="row" data-href="/maintenance?tab=pending&request=7" data-dialog-url="/maintenance/requests/7/dialog?tab=pending">
      <td>Pump</td></tr></tbody></table></main>`;
  });

  it("fetches the server's dialog and opens it in place", async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        calls.push(url);
        return new Response('<dialog id="mnt-detail-dialog" class="modal"><h2>Request #100231</h2></dialog>');
      }),
    );
    await openDetail(document.getElementById("row")!);
    expect(calls).toEqual(["/maintenance/requests/7/dialog?tab=pending"]);
    const dialog = document.getElementById("mnt-detail-dialog") as HTMLDialogElement;
    expect(dialog.hasAttribute("open")).toBe(true);
    expect(dialog.textContent).toContain("Request #100231");
    expect(window.location.search).toBe("?tab=pending&request=7");
  });
});
