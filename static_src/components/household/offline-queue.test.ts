import { describe, expect, it, vi } from "vitest";
import { renderQueue } from "./offline-queue";
import { type Entry, isOwnedBy } from "./offline-store";

const mine: Entry = {
  key: "k1",
  name: "Rosa",
  collectedAt: "2026-11-26T00:00:00Z",
  memberId: 3,
  wasteKg: "2",
  owner: "7",
  ownerName: "Ben Diaz",
};
const anas: Entry = { ...mine, key: "k2", name: "Nilo", wasteKg: "1", owner: "5", ownerName: "Ana Cruz" };
const nobodys: Entry = { ...mine, key: "k3", name: "Lito", owner: undefined, ownerName: undefined };

describe("entries on a shared phone", () => {
  it("belong to the account that typed them, and an old entry to nobody", () => {
    expect(isOwnedBy(mine, "7")).toBe(true);
    expect(isOwnedBy(anas, "7")).toBe(false);
    expect(isOwnedBy(nobodys, "7")).toBe(false);
    expect(isOwnedBy(mine, "")).toBe(false);
  });

  it("lists another account's entry as saved by it, apart from the ones waiting to send", () => {
    const host = document.createElement("div");
    const discard = vi.fn();
    renderQueue(host, [mine, anas, nobodys], "7", { fix: vi.fn(), discard });
    expect(host.querySelector(".offline-queue__title")?.textContent).toBe("1 waiting to send");
    const ana = host.querySelector<HTMLElement>('[data-entry-key="k2"]')!;
    expect(ana.textContent).toContain(
      "Saved by Ana Cruz on this phone: it is sent once Ana Cruz signs in again.",
    );
    expect(host.querySelector('[data-entry-key="k3"]')?.textContent).toContain("Saved by another account");
    expect(host.querySelector('[data-entry-key="k1"] .offline-queue__owner')).toBeNull();
    ana.querySelector("button")!.click();
    expect(discard).toHaveBeenCalledWith(anas);
  });
});
