import { describe, expect, it } from "vitest";
import { codeFromScan } from "./claim-scanner";

describe("codeFromScan", () => {
  it("reads the code out of the QR text, with or without its prefix", () => {
    expect(codeFromScan("SIBOL-ABCD2345")).toBe("ABCD2345");
    expect(codeFromScan(" abcd2345 ")).toBe("ABCD2345");
  });
  it("refuses other QR codes", () => {
    expect(codeFromScan("https://example.com")).toBeNull();
    expect(codeFromScan("SIBOL-ABC")).toBeNull();
    expect(codeFromScan("SIBOL-ABCD0145")).toBeNull(); // 0 and 1 are never in a code
  });
});
