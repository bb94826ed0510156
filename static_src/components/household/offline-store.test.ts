import { describe, expect, it } from "vitest";
import { type Entry, isLater, isRemark, typedValue, withTypedValue } from "./offline-store";

const credit: Entry = {
  key: "k1",
  name: "Rosa",
  collectedAt: "2026-11-26T00:00:00Z",
  memberId: 3,
  wasteKg: "2",
};
const remark: Entry = {
  key: "k2",
  name: "Request #12",
  collectedAt: "2026-11-26T00:00:00Z",
  requestId: 12,
  remarks: "Oiled",
};

describe("offline entries", () => {
  it("tells a remark from a credit", () => {
    expect(isRemark(credit)).toBe(false);
    expect(isRemark(remark)).toBe(true);
  });

  it("fixes what was typed: the weight of a credit, the text of a remark", () => {
    expect(typedValue(credit)).toBe("2");
    expect(withTypedValue(credit, " 2.5 ")).toMatchObject({ wasteKg: "2.5", memberId: 3 });
    expect(typedValue(remark)).toBe("Oiled");
    expect(withTypedValue(remark, "Oiled and cleaned")).toMatchObject({ remarks: "Oiled and cleaned" });
  });

  it("waits on busy answers and a key in use, and takes other refusals as refusals", () => {
    const answer = (status: number, headers: Record<string, string> = {}) =>
      new Response(null, { status, headers });
    expect(isLater(answer(503))).toBe(true);
    expect(isLater(answer(429))).toBe(true);
    expect(isLater(answer(409, { "Retry-After": "1" }))).toBe(true);
    expect(isLater(answer(409))).toBe(false);
    expect(isLater(answer(400))).toBe(false);
  });
});
