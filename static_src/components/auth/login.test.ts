import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api";
import { afterSignIn, needsSecondStep } from "./login";

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

  it("sends an account that must set up two-step sign-in to its set-up page first", () => {
    expect(afterSignIn("/household", false, true)).toBe("/profile/two-factor");
    expect(afterSignIn("/household", true, true)).toBe("/profile/two-factor");
  });
});

describe("the second step", () => {
  it("is taken only when the API asks for the authenticator's code", () => {
    const body = { totpRequired: true, field: "totp", message: "Enter the code" };
    expect(needsSecondStep(new ApiError("Enter the code", 401, body))).toBe(true);
    expect(needsSecondStep(new ApiError("Invalid username or password.", 401, { field: "totp" }))).toBe(
      false,
    );
    expect(needsSecondStep(new ApiError("Too many", 429, { totpRequired: true }))).toBe(false);
    expect(needsSecondStep(new Error("network"))).toBe(false);
  });
});
