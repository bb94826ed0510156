import { describe, expect, it } from "vitest";
import { pointsForKg } from "./points";

describe("pointsForKg", () => {
  it("converts with the rule and rounds down", () => {
    expect(pointsForKg("4", 1000, 30)).toBe(120);
    expect(pointsForKg("1.3", 2000, 75)).toBe(48); // 48.75
    expect(pointsForKg(" 0.5 ", 1000, 30)).toBe(15);
    expect(pointsForKg(".5", 1000, 30)).toBe(15);
    expect(pointsForKg("0.02", 1000, 30)).toBe(0);
  });

  it("refuses what the server refuses", () => {
    for (const typed of ["", "abc", "-2", "0", "1e3", "1,5", "NaN", "100001"]) {
      expect(pointsForKg(typed, 1000, 30)).toBeNull();
    }
    expect(pointsForKg("1", 0, 30)).toBeNull();
  });
});
