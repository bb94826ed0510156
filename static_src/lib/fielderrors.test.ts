import { describe, expect, it } from "vitest";
import { clearStaleErrors } from "./fielderrors";

function form(): HTMLElement {
  const root = document.createElement("div");
  root.innerHTML = `<div class="field field--error"><label for="i">Issue</label>
    <input id="i" name="issue" aria-invalid="true"><p class="field__error">Issue is required.</p></div>`;
  document.body.append(root);
  clearStaleErrors(root);
  return root;
}

describe("clearStaleErrors", () => {
  it("hides the message once the field has a value", () => {
    const root = form();
    const input = root.querySelector("input")!;
    input.value = "Pump leaks";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    const message = root.querySelector<HTMLElement>(".field__error")!;
    expect(message.hidden).toBe(true);
    expect(message.textContent).toBe("");
    expect(root.querySelector(".field")!.classList.contains("field--error")).toBe(false);
    expect(input.hasAttribute("aria-invalid")).toBe(false);
  });

  it("keeps the message while the field is still empty", () => {
    const root = form();
    const input = root.querySelector("input")!;
    input.value = "   ";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    expect(root.querySelector<HTMLElement>(".field__error")!.hidden).toBe(false);
  });
});
