import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { MachinesTable } from "./MachinesTable";
import { areaLabel, listOf, type Machine } from "./types";

type Call = { method: string; url: string; body: unknown };

const MACHINES: Machine[] = [
  {
    machine_id: 7,
    Name: "Digester",
    Area_id: 2,
    Area_Name: "Purok 2",
    status_id: 1,
    status_name: "Active",
    lastReading: "5 min ago",
    openAlerts: 2,
  },
  { machine_id: 9, Name: "Orphan", Area_id: 42, Area_Name: null, status_id: null, status_name: null },
];

/** A fake server: answers by path; `fail` makes /api/machines?... answer that status. */
function stubServer(fail?: { status: number; body: unknown }): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({
        method: init.method ?? "GET",
        url,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
      if (url.startsWith("/api/machines/areas"))
        return json({
          data: [
            { Area_id: 2, Area_Name: "Purok 2" },
            { Area_id: 3, Area_Name: "Purok 3" },
          ],
        });
      if (url.startsWith("/api/machines/statuses")) return json([{ Mach_status_id: 1, Status: "Active" }]);
      if (url.startsWith("/api/machines?")) {
        if (fail) return json(fail.body, fail.status);
        return json({ data: MACHINES, total: 2, page: 1, per_page: 10 });
      }
      if (url === "/api/machines" && init.method === "POST") {
        const sent = JSON.parse(String(init.body)) as { name: string; areaId: number };
        const data = {
          machine_id: 9,
          Name: sent.name,
          Area_id: sent.areaId,
          Area_Name: null,
          status_id: null,
        };
        return json({ success: true, data }, 201);
      }
      if (url.startsWith("/api/machines/")) return json({ success: true });
      return json({}, 404);
    }),
  );
  return calls;
}

describe("machines helpers", () => {
  it("reads lists plain or wrapped in data, and falls back to 'Area {id}'", () => {
    expect(listOf([1])).toEqual([1]);
    expect(listOf({ data: [2] })).toEqual([2]);
    expect(listOf({ raw: "x" })).toEqual([]);
    expect(areaLabel(MACHINES[1])).toBe("Area 42");
  });
});

describe("MachinesTable", () => {
  it("loads machines, areas and statuses together and shows the rows", async () => {
    const calls = stubServer();
    render(<MachinesTable q="dig" page={1} perPage={10} />);
    expect(screen.getByText("Loading machines...")).toBeTruthy();
    await screen.findByText("Digester");
    expect(calls.map((c) => c.url)).toEqual([
      "/api/machines?q=dig&page=1&per_page=10",
      "/api/machines/areas",
      "/api/machines/statuses",
    ]);
    expect(screen.getByText("#9")).toBeTruthy();
    expect(screen.getByText("Area 42")).toBeTruthy();
    expect(screen.getByText("No Status").className).toContain("badge--grey");
    expect(screen.getByText("1-2 of 2")).toBeTruthy();
    expect(screen.getByText("5 min ago")).toBeTruthy(); // telemetry: last reading, or "never"
    // A machine with open alerts shows a badge that links to them; one without shows none.
    expect(screen.getByText("Open alerts: 2").getAttribute("href")).toBe("/sibol-machines/alerts?machine=7");
    expect(screen.getAllByText(/^Open alerts/)).toHaveLength(1);
    expect(screen.getByText("never")).toBeTruthy();
    expect(screen.getByLabelText("Device key of machine #9").getAttribute("href")).toBe(
      "/sibol-machines/machines/9/device",
    );
  });

  it("shows the server's message, or the fallback, in a dismissible banner", async () => {
    stubServer({ status: 500, body: { message: "Database is down" } });
    const { unmount } = render(<MachinesTable q="" page={1} perPage={10} />);
    expect((await screen.findByRole("alert")).textContent).toContain("Database is down");
    await userEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("alert")).toBeNull();
    unmount();
    stubServer({ status: 502, body: "" });
    render(<MachinesTable q="" page={1} perPage={10} />);
    expect((await screen.findByRole("alert")).textContent).toContain("HTTP 502");
  });

  it("edits: a blank name keeps the old one, No Status sends null, then reloads", async () => {
    const calls = stubServer();
    const notify = vi.fn();
    render(<MachinesTable q="" page={1} perPage={10} notify={notify} />);
    await userEvent.click(await screen.findByRole("button", { name: "Edit machine #7" }));
    expect(screen.getByText("Edit Machine #7")).toBeTruthy();
    await userEvent.clear(screen.getByLabelText(/Machine Name/));
    await userEvent.selectOptions(screen.getByLabelText(/^Area/), "3");
    await userEvent.selectOptions(screen.getByLabelText("Status"), "");
    await userEvent.click(screen.getByRole("button", { name: "Update Machine" }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith("Machine updated successfully!", "success"));
    const put = calls.find((c) => c.method === "PUT");
    expect(put).toEqual({
      method: "PUT",
      url: "/api/machines/7",
      body: { name: "Digester", areaId: 3, status: null },
    });
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith("/api/machines?")).length).toBe(2));
  });

  it("adds a named machine, then offers its device key; a refusal shows in the dialog", async () => {
    const calls = stubServer();
    const button = document.createElement("a");
    document.body.append(button);
    const notify = vi.fn();
    render(<MachinesTable q="" page={1} perPage={10} notify={notify} addButton={button} canIssueKeys />);
    await screen.findByText("Digester");
    button.click();
    await userEvent.selectOptions(await screen.findByLabelText(/^Area/), "2");
    await userEvent.click(screen.getByRole("button", { name: "Add Machine" }));
    // No name: said beside the field, nothing sent.
    expect(screen.getByText("Machine Name is required.")).toBeTruthy();
    expect(calls.find((c) => c.method === "POST")).toBeUndefined();
    await userEvent.type(screen.getByLabelText(/Machine Name/), "  Purok 2 Digester ");
    await userEvent.click(screen.getByRole("button", { name: "Add Machine" }));
    const issue = await screen.findByRole("button", { name: "Issue device key" });
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ areaId: 2, name: "Purok 2 Digester" });
    expect(issue.closest("form")!.getAttribute("action")).toBe("/sibol-machines/machines/9/device-key");
    expect(screen.getByRole("status").textContent).toContain("created. Issue its device key");
    await userEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("button", { name: "Issue device key" })).toBeNull();

    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify({ message: "Area not found." }), { status: 400 })),
    );
    button.click();
    await userEvent.type(await screen.findByLabelText(/Machine Name/), "Another");
    await userEvent.selectOptions(screen.getByLabelText(/^Area/), "2");
    await userEvent.click(screen.getByRole("button", { name: "Add Machine" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Failed to create machine: Area not found.");
    expect(notify).not.toHaveBeenCalled();
  });

  it("tells those who issue no keys that the machine was created, in the flash", async () => {
    stubServer();
    const notify = vi.fn();
    render(<MachinesTable q="" page={1} perPage={10} notify={notify} openAdd />);
    await screen.findByRole("option", { name: "Purok 3" });
    await userEvent.type(screen.getByLabelText(/Machine Name/), "Operator Digester");
    await userEvent.selectOptions(screen.getByLabelText(/^Area/), "3");
    await userEvent.click(screen.getByRole("button", { name: "Add Machine" }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith("Machine created successfully!", "success"));
    expect(screen.queryByRole("button", { name: "Issue device key" })).toBeNull();
  });

  it("opens the add modal at once when the page asked for it (?add=1)", async () => {
    stubServer();
    render(<MachinesTable q="" page={1} perPage={10} openAdd />);
    expect(screen.getByRole("button", { name: "Add Machine" })).toBeTruthy();
    await screen.findByRole("option", { name: "Purok 3" });
  });
});
