import { describe, expect, it } from "vitest";
import {
  deriveUsername,
  disallowedIn,
  signupPayload,
  strippedMessage,
  stripName,
  usernameFromEmail,
  validateSignup,
} from "./signup";

const ok = { role: "4", firstName: "Juan", lastName: "Dela Cruz", email: "juan@x.ph", areaId: "2" };

describe("sign-up rules (spec section 5)", () => {
  it("strips characters other than letters, spaces, period, apostrophe and hyphen", () => {
    expect(stripName("Ma3ria <O'Neil>-Jr.")).toBe("Maria O'Neil-Jr.");
    expect(stripName("Santo Niño Peña")).toBe("Santo Niño Peña");
  });

  it("says which typed characters a name leaves out", () => {
    expect(disallowedIn("Ma3ria <O'Neil>3")).toEqual(["3", "<", ">"]);
    expect(disallowedIn("José")).toEqual([]);
    expect(strippedMessage(["3", "@"])).toBe(
      "Not allowed in a name, left out: “3” “@”. Use letters, spaces, hyphens, apostrophes and periods.",
    );
    expect(validateSignup({ ...ok, firstName: "Niña" }).firstName).toBeUndefined();
  });

  it("derives the username from the e-mail, else from the names", () => {
    expect(deriveUsername("juan.d-c_1+tag@x.ph", "", "")).toBe("juan.d-c_1tag");
    expect(deriveUsername("", "Ana Marie", "O'Neil")).toBe("anamarieoneil");
    expect(deriveUsername("x".repeat(40) + "@x.ph", "", "")).toHaveLength(30);
    expect(usernameFromEmail("Juan.Dela_Cruz2@x.ph")).toBe("juan.delacruz");
  });

  it("gives each field its message", () => {
    expect(validateSignup(ok)).toEqual({});
    expect(validateSignup({ role: "", firstName: "", lastName: "X1", email: "", areaId: "" })).toEqual({
      role: "Role is required",
      firstName: "First name is required",
      lastName: "Last name can only contain letters, spaces, hyphens, apostrophes and periods",
      email: "Email is required",
      areaId: "Barangay is required",
    });
    expect(validateSignup({ ...ok, email: "nope", areaId: "-1" })).toEqual({
      email: "Enter a valid email",
      areaId: "Barangay must be a valid number",
    });
  });

  it("sends both spellings of the payload", () => {
    const body = signupPayload(ok, "juan", false);
    expect(body).toMatchObject({
      firstName: "Juan",
      FirstName: "Juan",
      areaId: 2,
      Area_id: 2,
      role: 4,
      roleId: 4,
      Roles: 4,
      email: "juan@x.ph",
      Email: "juan@x.ph",
      username: "juan",
      Username: "juan",
      isSSO: false,
    });
  });
});
