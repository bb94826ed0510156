import { describe, expect, it } from "vitest";
import { afterSignIn } from "./login";

describe("after sign-in", () => {
  it("goes to the next local path, else / (the server's home page for the role)", () => {
    expect(afterSignIn("/household", false)).toBe("/household");
    expect(afterSignIn("", false)).toBe("/");
    expect(afterSignIn("//evil.example", false)).toBe("/");
  });

  it("passes by the set-your-password form with a temporary password", () => {
    expect(afterSignIn("/household?tab=rewards", true)).toBe(
      "/choose-password?next=%2Fhousehold%3Ftab%3Drewards",
    );
    expect(afterSignIn("https://evil.example", true)).toBe("/choose-password?next=%2F");
  });
});
