import { describe, expect, it } from "vitest";
import { wireDropdowns } from "./forms";

describe("dropdown menus", () => {
  it("close on Escape, focus back on the summary, and on a click outside", () => {
    document.body.innerHTML = `<details data-dropdown open><summary>All barangays</summary>
      <select id="inside"></select></details><p id="outside">page</p>`;
    wireDropdowns(document);
    const menu = document.querySelector("details")!;
    document.getElementById("inside")!.click();
    expect(menu.open).toBe(true);
    document.getElementById("outside")!.click();
    expect(menu.open).toBe(false);
    menu.open = true;
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
    expect(menu.open).toBe(false);
    expect(document.activeElement?.tagName).toBe("SUMMARY");
  });
});
