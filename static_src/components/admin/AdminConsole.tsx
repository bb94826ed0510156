/**
 * Enhances the server-rendered /admin page: opens the create/edit modal instead of following the
 * links, and does Disable/Enable, approve and reject through /api/admin with spec section 8's
 * confirmations and alerts, then reloads the list. Without JavaScript the links and forms work on
 * their own.
 */
import { useCallback, useEffect, useState } from "react";
import { api, errorText } from "../../lib/api";
import { AccountModal } from "./AccountModal";
import type { AdminAccount, AdminProps, AuditItem } from "./types";
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
 * The approve call's body from the row's form: the role chosen under "Approve as" (the one asked
 * for by default). Admin needs a second confirmation naming the role; null when cancelled.
 */
export function approvalBody(
  form: HTMLFormElement,
  name: string,
): { role?: number; confirmRole?: string } | null {
  const select = form.querySelector<HTMLSelectElement>("select[data-approve-role]");
  const role = select ? Number(select.value) : Number(form.dataset.requestedRole ?? 0);
  const roleName = select?.selectedOptions[0]?.textContent?.trim() ?? "";
  const asked = Number(form.dataset.requestedRole ?? 0);
  const question =
    role && role !== asked
      ? t("Approve account for {name} as {role}?", { name, role: roleName })
      : t("Approve account for {name}?", { name });
  if (!window.confirm(question)) return null;
  if (role !== ADMIN_ROLE) return role ? { role } : {};
  const typed = form.querySelector<HTMLInputElement>("input[data-confirm-role]")?.value.trim() ?? "";
  const confirmRole =
    typed.toLowerCase() === "admin"
      ? typed
      : window.prompt(
          t(
            '{name} asked for the Admin role: all six modules, including account administration. Type "Admin" to approve as an administrator.',
            { name },
          ),
        );
  if (confirmRole === null) return null;
  return { role, confirmRole };
}

function dropBadge(): void {
  const badge = document.getElementById("pending-badge");
  if (!badge) return;
  const count = Math.max(0, Number(badge.dataset.count ?? badge.textContent ?? "0") - 1);
  badge.dataset.count = String(count);
  badge.textContent = String(count);
}

export interface AdminConsoleProps extends AdminProps {
  /** Fetches the page again (the list, the badge); tests pass a spy. */
  reload?: () => void;
}

export function AdminConsole({ reload = reloadPage, ...props }: AdminConsoleProps) {
  const [modal, setModal] = useState<ModalState>(null);

  const openEdit = useCallback(async (id: string) => {
    try {
      const res = await api.get<{ user: AdminAccount; audit?: AuditItem[] }>(`/api/admin/${id}`);
      setModal({ mode: "edit", account: res.user, audit: res.audit ?? [] });
    } catch (err) {
      window.alert(errorText(err, t("Failed to load accounts")));
    }
  }, []);

  useEffect(() => {
    for (const input of document.querySelectorAll<HTMLElement>("[data-noscript-reason]")) {
      input.hidden = true; // the prompt asks for the reason instead
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

    const onSubmit = async (event: SubmitEvent) => {
      const form = event.target as HTMLFormElement;
      const { adminToggle, adminApprove, adminReject, name = "" } = form.dataset;
      if (adminToggle === undefined && adminApprove === undefined && adminReject === undefined) return;
      event.preventDefault();
      if (form.dataset.busy) return;
      const buttons = form.querySelectorAll("button");
      const run = async (call: () => Promise<unknown>, fallback: string, success?: string) => {
        form.dataset.busy = "1";
        buttons.forEach((b) => (b.disabled = true));
        try {
          await call();
        } catch (err) {
          window.alert(errorText(err, fallback));
          delete form.dataset.busy;
          buttons.forEach((b) => (b.disabled = false));
          return;
        }
        if (success) window.alert(success);
        if (adminToggle === undefined) dropBadge();
        reloadList(form, reload);
      };
      if (adminToggle !== undefined) {
        const isActive = form.dataset.active === "1";
        // Disabling signs the person out everywhere: ask first; Enable reverses it.
        if (!isActive && !window.confirm(t("Disable account for {name}? They will be signed out.", { name })))
          return;
        await run(
          () => api.patch(`/api/admin/${adminToggle}/active`, { isActive }),
          t("Toggle active failed"),
        );
      } else if (adminApprove !== undefined) {
        const body = approvalBody(form, name);
        if (body === null) return;
        await run(
          () => api.post(`/api/admin/pending-accounts/${adminApprove}/approve`, body),
          t("Approve failed"),
          t("Account approved"),
        );
      } else if (adminReject !== undefined) {
        if (!window.confirm(t("Reject account for {name}?", { name }))) return;
        const reason = window.prompt(t("Reason for rejection (optional)"));
        if (reason === null) return;
        await run(
          () => api.post(`/api/admin/pending-accounts/${adminReject}/reject`, { reason }),
          t("Reject failed"),
          t("Account rejected"),
        );
      }
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
  }, [openEdit, reload]);

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
