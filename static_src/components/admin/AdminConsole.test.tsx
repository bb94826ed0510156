import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { AccountModal } from "./AccountModal";
import { AdminConsole, confirmApproval } from "./AdminConsole";
import type { AdminProps } from "./types";
import { deriveUsername } from "./username";

const PROPS: AdminProps = {
  roles: [
    { Roles_id: 1, Roles: "Admin" },
    { Roles_id: 2, Roles: "Barangay Staff" },
    { Roles_id: 3, Roles: "Operator" },
    { Roles_id: 4, Roles: "Household" },
  ],
  modules: [
    { Module_id: 1, Module_name: "Dashboard", Path: "/dashboard" },
    { Module_id: 2, Module_name: "SIBOL Machines", Path: "/sibol-machines" },
    { Module_id: 3, Module_name: "Maintenance", Path: "/maintenance" },
    { Module_id: 4, Module_name: "Household", Path: "/household" },
    { Module_id: 5, Module_name: "Chat Support", Path: "/chat-support" },
    { Module_id: 6, Module_name: "Admin", Path: "/admin" },
  ],
  barangays: [{ Barangay_id: 7, Barangay_Name: "Barangay Fortune" }],
  roleDefaults: { "1": [1, 2, 3, 4, 5, 6], "2": [1, 2, 3, 4, 5], "3": [1, 2, 3, 5], "4": [1, 4, 5] },
};

type Call = { url: string; method: string; body: unknown };

function stubFetch(respond: (call: Call) => [number, unknown]): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      const call = {
        url,
        method: init.method ?? "GET",
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      };
      calls.push(call);
      const [status, body] = respond(call);
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return calls;
}

function ticked(): string[] {
  return screen
    .getAllByRole("checkbox")
    .filter((box) => (box as HTMLInputElement).checked)
    .map((box) => (box as HTMLInputElement).value);
}

describe("deriveUsername", () => {
  it("follows spec section 5", () => {
    expect(deriveUsername("Maria Clara", "De la Cruz")).toBe("maria.clara.de.la.cruz");
    expect(deriveUsername(" O'Brien ", "Smith-Jones")).toBe("obrien.smith-jones");
    expect(deriveUsername("Ñino", "Año")).toBe("ino.ao");
    expect(deriveUsername("a".repeat(20), "b".repeat(20))).toBe(`${"a".repeat(20)}.${"b".repeat(9)}`);
  });
});

describe("AccountModal (create)", () => {
  it("presets the boxes to the role's defaults and says a set-password link was e-mailed", async () => {
    const calls = stubFetch(() => [
      201,
      { success: true, user: { Username: "ana.cruz2", Email: "ana@x.ph" }, setPasswordLinkSent: true },
    ]);
    const saved = vi.fn();
    render(<AccountModal {...PROPS} mode="create" onClose={() => {}} onSaved={saved} />);
    expect(ticked()).toEqual(["1", "4", "5"]); // Household by default
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Role"), "3");
    expect(ticked()).toEqual(["1", "2", "3", "5"]);
    await user.click(screen.getByLabelText("Chat Support"));
    await user.type(screen.getByLabelText("First name"), "Ana");
    await user.type(screen.getByLabelText("Last name"), "Cruz");
    expect((screen.getByLabelText("Username") as HTMLInputElement).value).toBe("ana.cruz");
    await user.type(screen.getByLabelText("Email"), "ana@x.ph");
    await user.selectOptions(screen.getByLabelText("Barangay"), "7");
    await user.click(screen.getByRole("button", { name: "Create User" }));
    await screen.findByText("ana.cruz2");
    expect(calls).toEqual([
      {
        url: "/api/admin/create",
        method: "POST",
        body: {
          FirstName: "Ana",
          LastName: "Cruz",
          Email: "ana@x.ph",
          Roles: 3,
          Access: [1, 2, 3],
          Password: "",
          Barangay_id: 7,
        },
      },
    ]);
    expect(screen.getByText("A single-use link to set the password was e-mailed to ana@x.ph.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Done" }));
    expect(saved).toHaveBeenCalledWith("create");
  });

  it("shows the server's message, or 'Create failed' when there is none", async () => {
    let reply: unknown = { success: false, message: "An account with this e-mail already exists." };
    stubFetch(() => [409, reply]);
    render(<AccountModal {...PROPS} mode="create" onClose={() => {}} onSaved={() => {}} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Create User" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "An account with this e-mail already exists.",
    );
    reply = "";
    await user.click(screen.getByRole("button", { name: "Create User" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Create failed"));
  });
});

describe("AccountModal (edit)", () => {
  it("sends only role and access changes with the account and lists its activity", async () => {
    const calls = stubFetch(() => [200, { success: true }]);
    const saved = vi.fn();
    const account = {
      Account_id: 5,
      Username: "pedro",
      FirstName: "Pedro",
      LastName: "Reyes",
      Email: "p@x.ph",
      Barangay_id: null,
      Roles: 4,
      IsActive: 1,
      Access: [1, 4, 5],
    };
    render(
      <AccountModal
        {...PROPS}
        mode="edit"
        account={account}
        audit={[{ id: 1, summary: "boss created the account", at: "2026-11-21T10:00:00Z" }]}
        onClose={() => {}}
        onSaved={saved}
      />,
    );
    expect((screen.getByLabelText("Username") as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByText("boss created the account")).toBeTruthy();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Role"), "2");
    expect(ticked()).toEqual(["1", "4", "5"]); // editing keeps the boxes until asked
    await user.click(screen.getByRole("button", { name: "Use the role's default modules" }));
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(saved).toHaveBeenCalledWith("edit"));
    expect(calls[0]).toEqual({
      url: "/api/admin/5",
      method: "PUT",
      body: { ...account, Roles: 2, Access: [1, 2, 3, 4, 5] },
    });
  });
});

const PENDING_PAGE = `
  <table id="pending-table"><thead><tr><th>a</th><th>b</th></tr></thead>
  <tbody>
    <tr><td>
      <form data-admin-approve="11" data-name="Pia One"><button type="submit">Approve</button></form>
      <form data-admin-reject="11" data-name="Pia One"><input data-noscript-reason name="reason"><button type="submit">Reject</button></form>
      <form data-admin-toggle="5" data-active="0" data-name="Pedro Reyes"><input type="hidden" name="active" value="0"><button type="submit">Disable</button></form>
    </td></tr>
  </tbody></table>`;

const ADMIN_REQUEST = `
  <form data-admin-approve="12" data-name="Ada Min" data-requested-role="1">
    <select data-approve-role name="role"><option value="1" selected>Admin</option><option value="3">Operator</option></select>
    <input data-confirm-role name="confirm_role"><button type="submit">Approve</button>
  </form>`;

/** The styled dialog's question once it is open. */
async function question(): Promise<HTMLDialogElement> {
  await waitFor(() => expect(document.getElementById("confirm-dialog")).not.toBeNull());
  return document.getElementById("confirm-dialog") as HTMLDialogElement;
}

function press(dialog: HTMLElement, name: "yes" | "cancel"): void {
  fireEvent.click(dialog.querySelector(`#confirm-dialog-${name}`)!);
}

describe("confirmApproval (elevated approval)", () => {
  it("asks a second time, naming the role, before approving as Admin", async () => {
    document.body.innerHTML = ADMIN_REQUEST;
    const form = document.querySelector("form")!;
    const answer = confirmApproval(form, "Ada Min");
    let dialog = await question();
    expect(dialog.textContent).toContain("Approve account for Ada Min?");
    press(dialog, "yes");
    dialog = await waitFor(() => {
      const next = document.getElementById("confirm-dialog")!;
      expect(next.textContent).toContain("asked for the Admin role: all six modules");
      return next as HTMLDialogElement;
    });
    const box = dialog.querySelector<HTMLInputElement>("input")!;
    fireEvent.change(box, { target: { value: "admn" } });
    press(dialog, "yes");
    expect(dialog.textContent).toContain('Type "Admin" to go on.'); // stays open, says why
    fireEvent.change(box, { target: { value: "Admin" } });
    press(dialog, "yes");
    expect(await answer).toBe(true);
    expect(form.querySelector<HTMLInputElement>("[data-confirm-role]")!.value).toBe("Admin");
  });

  it("approves with another role without the second question; Cancel is a no", async () => {
    document.body.innerHTML = ADMIN_REQUEST;
    const form = document.querySelector("form")!;
    form.querySelector("select")!.value = "3";
    let answer = confirmApproval(form, "Ada Min");
    const dialog = await question();
    expect(dialog.textContent).toContain("Approve account for Ada Min as Operator?");
    press(dialog, "yes");
    expect(await answer).toBe(true);
    expect(document.getElementById("confirm-dialog")).toBeNull();
    answer = confirmApproval(form, "Ada Min");
    press(await question(), "cancel");
    expect(await answer).toBe(false);
  });
});

describe("AdminConsole row actions", () => {
  function mount() {
    const send = vi.fn();
    render(<AdminConsole {...PROPS} send={send} />, {
      container: document.body.appendChild(document.createElement("div")),
    });
    return send;
  }

  it("approves after the styled confirmation by posting the row's form, marked confirmed", async () => {
    document.body.innerHTML = PENDING_PAGE;
    const send = mount();
    expect((document.querySelector("[data-noscript-reason]") as HTMLElement).hidden).toBe(true);
    const form = document.querySelector<HTMLFormElement>("[data-admin-approve]")!;
    fireEvent.submit(form);
    const dialog = await question();
    expect(dialog.getAttribute("aria-labelledby")).toBe("confirm-dialog-title");
    expect(dialog.getAttribute("aria-describedby")).toBe("confirm-dialog-message");
    expect(document.getElementById("confirm-dialog-message")!.textContent).toBe(
      "Approve account for Pia One?",
    );
    press(dialog, "yes");
    await waitFor(() => expect(send).toHaveBeenCalledWith(form));
    expect(form.querySelector<HTMLInputElement>("input[name=confirmed]")!.value).toBe("1");
  });

  it("rejects with the reason typed in the dialog; Cancel sends nothing", async () => {
    document.body.innerHTML = PENDING_PAGE;
    const send = mount();
    const form = document.querySelector<HTMLFormElement>("[data-admin-reject]")!;
    fireEvent.submit(form);
    press(await question(), "cancel");
    await waitFor(() => expect(document.getElementById("confirm-dialog")).toBeNull());
    expect(send).not.toHaveBeenCalled();
    fireEvent.submit(form);
    const dialog = await question();
    expect(dialog.textContent).toContain("Reject account for Pia One?");
    fireEvent.change(dialog.querySelector("input")!, { target: { value: "Not a resident" } });
    press(dialog, "yes");
    await waitFor(() => expect(send).toHaveBeenCalledWith(form));
    expect(form.querySelector<HTMLInputElement>("input[name=reason]")!.value).toBe("Not a resident");
  });

  it("asks before Disable; Escape cancels", async () => {
    document.body.innerHTML = PENDING_PAGE;
    const send = mount();
    const form = document.querySelector<HTMLFormElement>("[data-admin-toggle]")!;
    fireEvent.submit(form);
    const dialog = await question();
    expect(dialog.textContent).toContain("Disable account for Pedro Reyes? They will be signed out.");
    await act(async () => {
      dialog.dispatchEvent(new Event("cancel", { cancelable: true }));
    });
    expect(document.getElementById("confirm-dialog")).toBeNull();
    expect(send).not.toHaveBeenCalled();
  });
});
