import { afterEach, describe, expect, it, vi } from "vitest";
import { wireConfirmations } from "./confirm";

function page(): HTMLFormElement {
  document.body.innerHTML = `<form method="post" action="/x"><button type="submit" data-confirm="Cancel request #7?">Cancel Request</button></form>`;
  return document.querySelector("form")!;
}

describe("wireConfirmations", () => {
  afterEach(() => vi.restoreAllMocks());
  wireConfirmations(document);

  it("asks, and a yes marks the form confirmed", () => {
    const form = page();
    const ask = vi.spyOn(window, "confirm").mockReturnValue(true);
    const event = new SubmitEvent("submit", {
      bubbles: true,
      cancelable: true,
      submitter: form.querySelector("button"),
    });
    form.dispatchEvent(event);
    expect(ask).toHaveBeenCalledWith("Cancel request #7?");
    expect(event.defaultPrevented).toBe(false);
    expect(form.querySelector<HTMLInputElement>("input[name=confirmed]")!.value).toBe("1");
  });

  it("a no stops the submit and adds nothing", () => {
    const form = page();
    vi.spyOn(window, "confirm").mockReturnValue(false);
    const event = new SubmitEvent("submit", {
      bubbles: true,
      cancelable: true,
      submitter: form.querySelector("button"),
    });
    form.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(form.querySelector("input[name=confirmed]")).toBeNull();
  });
});
