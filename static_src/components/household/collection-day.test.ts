import { describe, expect, it } from "vitest";
import { runningTotal } from "./collection-day";

function form(): HTMLFormElement {
  document.body.innerHTML = `
    <form data-rule-g="1000" data-rule-points="30">
      <input name="kg-1"><input name="kg-2"><input name="kg-3" disabled value="9">
      <p data-total hidden></p>
    </form>`;
  return document.querySelector("form")!;
}

function type(f: HTMLFormElement, name: string, value: string) {
  const input = f.querySelector<HTMLInputElement>(`input[name=${name}]`)!;
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

describe("runningTotal", () => {
  it("sums the households typed, their kilograms and points, skipping inactive and bad fields", () => {
    const f = form();
    runningTotal(f);
    const total = f.querySelector<HTMLElement>("[data-total]")!;
    expect(total.hidden).toBe(true);
    type(f, "kg-1", "2");
    type(f, "kg-2", "0.5");
    expect(total.hidden).toBe(false);
    expect(total.textContent).toBe("Total: 2 households, 2.5 kg, 75 points");
    type(f, "kg-2", "lots");
    expect(total.textContent).toBe("Total: 1 households, 2 kg, 60 points");
    type(f, "kg-1", "");
    type(f, "kg-2", "");
    expect(total.hidden).toBe(true);
  });
});
