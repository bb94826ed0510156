/**
 * Enhances the server-rendered /admin page: opens the create/edit modal instead of following the
 * links, and asks spec section 8's confirmations for Disable, approve and reject in the styled
 * dialog (lib/confirm.ts) before posting the row's form, so the result (flash, Undo) is the one
 * the page shows without JavaScript.
 */
import { useCallback, useEffect, useState } from "react";
import { api, errorText } from "../../lib/api";
import { AccountModal } from "./AccountModal";
import type { AdminAccount, AdminProps, AuditItem } from "./types";
import { ask, askText, flash, markConfirmed } from "../../lib/confirm";
import { t } from "../../lib/i18n";

type ModalState = { mode: "create" } | { mode: "edit"; account: AdminAccount; audit: AuditItem[] } | null;

function reloadPage(): void {
  window.location.reload();
}

/** Shows the table's loading text while the page (list and badge) is fetched again. */
export function reloadList(from: Element | null, reload: () => void = reloadPage): void {
  const tbody = from?.closest("table")?.querySelector("tbody");
  if (tbody) {
    const columns = tbody.closest("table")?.querySelectorAll("thead th").length ?? 1;
    const row = document.createElement("tr");
    row.className = "table__empty";
    const cell = document.createElement("td");
    cell.colSpan = columns;
    cell.textContent = tbody.dataset.loadingText ?? t("Loading...");
    row.append(cell);
    tbody.replaceChildren(row);
  }
  reload();
}

const ADMIN_ROLE = 1;

/**
 * Asks in the styled dialog before approving the row's account with the role chosen under
 * "Approve as" (the one asked for by default); Admin needs the role typed as a second
 * confirmation, written into the form's "type Admin" box. False when cancelled.
 */
export async function confirmApproval(form: HTMLFormElement, name: string): Promise<boolean> {
  const select = form.querySelector<HTMLSelectElement>("select[data-approve-role]");
  const role = select ? Number(select.value) : Number(form.dataset.requestedRole ?? 0);
  const roleName = select?.selectedOptions[0]?.textContent?.trim() ?? "";
  const asked = Number(form.dataset.requestedRole ?? 0);
  const question =
    role && role !== asked
      ? t("Approve account for {name} as {role}?", { name, role: roleName })
      : t("Approve account for {name}?", { name });
  if (!(await ask(question, { title: t("Approve account"), confirmLabel: t("Approve") }))) return false;
  if (role !== ADMIN_ROLE) return true;
  const box = form.querySelector<HTMLInputElement>("input[data-confirm-role]");
  if (box?.value.trim().toLowerCase() === "admin") return true;
  const typed = await askText(
    t(
      '{name} asked for the Admin role: all six modules, including account administration. Type "Admin" to approve as an administrator.',
      { name },
    ),
    {
      title: t("Approve as Admin"),
      confirmLabel: t("Approve"),
      danger: true,
      field: { label: t("To approve as Admin, type Admin"), mustBe: "Admin", maxLength: 50 },
    },
  );
  if (typed === null) return false;
  if (box) box.value = typed;
  else addField(form, "confirm_role", typed);
  return true;
}

function addField(form: HTMLFormElement, name: string, value: string): void {
  const input = document.createElement("input");
  input.type = "hidden";
  input.name = name;
  input.value = value;
  form.append(input);
}

/** Posts the row's form as the page would without JavaScript: the server flashes the result
 * (and offers Undo) on the list it answers with. */
function postForm(form: HTMLFormElement): void {
  form.submit();
}

export interface AdminConsoleProps extends AdminProps {
  /** Fetches the page again (the list, the badge); tests pass a spy. */
  reload?: () => void;
  /** Posts a row's form once confirmed (the browser's own submit); tests pass a spy. */
  send?: (form: HTMLFormElement) => void;
}

export function AdminConsole({ reload = reloadPage, send = postForm, ...props }: AdminConsoleProps) {
  const [modal, setModal] = useState<ModalState>(null);

  const openEdit = useCallback(async (id: string) => {
    try {
      const res = await api.get<{ user: AdminAccount; audit?: AuditItem[] }>(`/api/admin/${id}`);
      setModal({ mode: "edit", account: res.user, audit: res.audit ?? [] });
    } catch (err) {
      flash(errorText(err, t("Failed to load accounts")), "error");
    }
  }, []);

  useEffect(() => {
    for (const input of document.querySelectorAll<HTMLElement>("[data-noscript-reason]")) {
      input.hidden = true; // the dialog asks for the reason instead
    }

    const onClick = (event: MouseEvent) => {
      const target = event.target as Element | null;
      const create = target?.closest("[data-admin-create]");
      if (create) {
        event.preventDefault();
        setModal({ mode: "create" });
        return;
      }
      const edit = target?.closest<HTMLElement>("[data-admin-edit]");
      if (edit) {
        event.preventDefault();
        void openEdit(edit.dataset.adminEdit ?? "");
      }
    };

    // Row actions ask in the styled dialog, then post the row's own form: the answer is the same
    // page, flash and Undo as without JavaScript.
    const onSubmit = async (event: SubmitEvent) => {
      const form = event.target as HTMLFormElement;
      const { adminToggle, adminApprove, adminReject, name = "" } = form.dataset;
      if (adminToggle === undefined && adminApprove === undefined && adminReject === undefined) return;
      event.preventDefault();
      if (form.dataset.busy) return;
      let go = true;
      if (adminToggle !== undefined) {
        // Disabling signs the person out everywhere: ask first; Enable reverses it.
        if (form.dataset.active !== "1") {
          go = await ask(t("Disable account for {name}? They will be signed out.", { name }), {
            title: t("Disable account"),
            confirmLabel: t("Disable"),
            danger: true,
          });
        }
      } else if (adminApprove !== undefined) {
        go = await confirmApproval(form, name);
      } else {
        const reason = await askText(t("Reject account for {name}?", { name }), {
          title: t("Reject account"),
          confirmLabel: t("Reject"),
          danger: true,
          field: { label: t("Reason for rejection (optional)"), maxLength: 500 },
        });
        go = reason !== null;
        const box = form.querySelector<HTMLInputElement>("input[name=reason]");
        if (reason !== null) {
          if (box) box.value = reason;
          else addField(form, "reason", reason);
        }
      }
      if (!go) return;
      markConfirmed(form);
      form.dataset.busy = "1";
      form.querySelectorAll("button").forEach((b) => (b.disabled = true));
      send(form);
    };

    const onChange = (event: Event) => {
      const select = event.target as HTMLSelectElement;
      if (select.matches?.("select[data-autosubmit]")) select.form?.requestSubmit();
    };

    document.addEventListener("click", onClick);
    document.addEventListener("submit", onSubmit);
    document.addEventListener("change", onChange);
    return () => {
      document.removeEventListener("click", onClick);
      document.removeEventListener("submit", onSubmit);
      document.removeEventListener("change", onChange);
    };
  }, [openEdit, send]);

  const close = useCallback(() => setModal(null), []);

  if (!modal) return null;
  return (
    <AccountModal
      {...props}
      {...modal}
      onClose={close}
      onSaved={(mode) => {
        setModal(null);
        if (mode === "edit") reload();
        else reloadList(document.getElementById("accounts-table"), reload);
      }}
    />
  );
}
