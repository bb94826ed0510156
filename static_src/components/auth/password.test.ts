import { describe, expect, it } from "vitest";
import { matchText, meetsPasswordRule, rulesMet, strengthLabel, strengthScore } from "./password";

describe("password rule, meter and checklist", () => {
  it.each([
    ["", 0, ""],
    ["abc", 1, "Very weak"],
    ["abc1", 2, "Weak"],
    ["abcD1", 3, "Medium"],
    ["abcD1!", 4, "Strong"],
    ["abcD1!xy", 5, "Very strong"],
  ])("%s meets %i rules: %s", (password, score, label) => {
    expect(strengthScore(password)).toBe(score);
    expect(strengthLabel(password)).toBe(label);
  });

  it("lists the five rules and requires all of them", () => {
    expect(rulesMet("ABCDEFGH")).toEqual({
      length: true,
      upper: true,
      lower: false,
      number: false,
      symbol: false,
    });
    expect(meetsPasswordRule("abcD1!xy")).toBe(true);
    expect(meetsPasswordRule("abcD1!x")).toBe(false);
  });

  it("says whether the confirmation matches, nothing while it is empty", () => {
    expect(matchText("a", "")).toBeNull();
    expect(matchText("abc", "abc")).toBe("Passwords match");
    expect(matchText("abc", "abd")).toBe("Passwords do not match");
  });
});
