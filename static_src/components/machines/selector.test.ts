import { waitFor } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { createSelector } from "./selector";

function stubMachines(): string[] {
  const urls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      urls.push(url);
      const q = new URL(url, "http://x").searchParams.get("q") ?? "";
      const all = [
        {
          machine_id: 1,
          Name: "Alpha Digester",
          Area_id: 1,
          Area_Name: "Purok 1",
          status_id: null,
          status_name: null,
        },
        {
          machine_id: 2,
          Name: "Beta Shredder",
          Area_id: 1,
          Area_Name: "Purok 1",
          status_id: null,
          status_name: null,
        },
      ];
      const data = all.filter((m) =>
        m.Name.toLowerCase()
          .split(" ")
          .some((w) => w.startsWith(q.toLowerCase())),
      );
      return new Response(JSON.stringify({ data, total: null, page: 1, per_page: 8 }));
    }),
  );
  return urls;
}

describe("machine selector", () => {
  it("shows the current machine, asks the server as one types, and chooses with the keyboard", async () => {
    const urls = stubMachines();
    const host = document.createElement("div");
    document.body.append(host);
    const onChoose = vi.fn();
    const input = createSelector(host, { current: { id: 1, name: "Alpha Digester" }, onChoose });
    expect(input.value).toBe("Alpha Digester");
    await userEvent.click(input);
    await userEvent.keyboard("shred");
    await waitFor(() => expect(host.querySelectorAll("li[role=option]").length).toBe(1));
    expect(urls.at(-1)).toBe("/api/machines?q=shred&page=1&per_page=8&count=0");
    expect(input.getAttribute("aria-expanded")).toBe("true");
    await userEvent.keyboard("{Enter}");
    expect(onChoose).toHaveBeenCalledWith(expect.objectContaining({ machine_id: 2 }));
    expect(input.value).toBe("Beta Shredder");
  });

  it("says when nothing matches", async () => {
    stubMachines();
    const host = document.createElement("div");
    document.body.append(host);
    const input = createSelector(host, { current: null, onChoose: vi.fn() });
    await userEvent.click(input);
    await userEvent.keyboard("zzz");
    await waitFor(() => expect(host.textContent).toContain("No machines found"));
  });
});
