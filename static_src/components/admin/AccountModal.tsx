/**
 * The create/edit account modal. Create sends spec section 7's POST /api/admin/create body (the
 * username is left to the server, which derives it and makes it unique); edit sends PUT
 * /api/admin/{id} and changes only the role and module access.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { api, errorText } from "../../lib/api";
import { Dialog, DialogActions } from "../Dialog";
import { Field } from "../Field";
import type { AdminAccount, AdminProps, AuditItem } from "./types";
import { deriveUsername } from "./username";
import { formatDate, t } from "../../lib/i18n";
import { rich } from "../../lib/rich";

export interface CreatedResult {
  username: string;
  email: string | null;
  /** True when the server e-mailed a single-use set-password link (no password was typed). */
  setPasswordLinkSent: boolean;
  /** True when the typed password does not meet the rule: it works for 72 hours (temporary). */
  passwordTemporary: boolean;
}

export interface AccountModalProps extends AdminProps {
  mode: "create" | "edit";
  account?: AdminAccount;
  audit?: AuditItem[];
  onClose: () => void;
  /** After a successful save: the island reloads the list (create) or the page (edit). */
  onSaved: (mode: "create" | "edit") => void;
}

/** An audit entry's instant on the barangay's clock, in the reader's date style (as the page's). */
function auditTime(at: string): string {
  const when = new Date(at);
  if (Number.isNaN(when.getTime())) return at;
  return formatDate(when, { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Manila" });
}

function defaultRole(roles: AdminProps["roles"]): number {
  // Least privilege for a new account: Household when offered, else the first role.
  return roles.find((r) => r.Roles_id === 4)?.Roles_id ?? roles[0]?.Roles_id ?? 1;
}

export function AccountModal(props: AccountModalProps) {
  const { mode, account, audit = [], roles, modules, barangays, roleDefaults, onClose, onSaved } = props;
  const editing = mode === "edit" && account !== undefined;
  const initialRole = editing ? account.Roles : defaultRole(roles);
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [barangay, setBarangay] = useState("");
  const [role, setRole] = useState<number>(initialRole);
  const [access, setAccess] = useState<number[]>(
    editing ? [...account.Access] : [...(roleDefaults[String(initialRole)] ?? [])],
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedResult | null>(null);
  const firstField = useRef<HTMLInputElement | HTMLSelectElement | null>(null);

  useEffect(() => {
    firstField.current?.focus(); // Escape closes through the dialog's cancel event
  }, []);

  function changeRole(next: number) {
    setRole(next);
    if (!editing) setAccess([...(roleDefaults[String(next)] ?? [])]); // preset to the role's defaults
  }

  function toggle(moduleId: number, on: boolean) {
    setAccess((current) =>
      on
        ? [...new Set([...current, moduleId])].sort((a, b) => a - b)
        : current.filter((id) => id !== moduleId),
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (editing) {
        await api.put(`/api/admin/${account.Account_id}`, { ...account, Roles: role, Access: access });
        onSaved("edit");
      } else {
        const body: Record<string, unknown> = {
          FirstName: firstName,
          LastName: lastName,
          Email: email,
          Roles: role,
          Access: access,
          Password: password,
        };
        if (barangay) body.Barangay_id = Number(barangay);
        const res = await api.post<{
          user?: AdminAccount;
          setPasswordLinkSent?: boolean;
          passwordTemporary?: boolean;
        }>("/api/admin/create", body);
        setCreated({
          username: res.user?.Username ?? deriveUsername(firstName, lastName),
          email: res.user?.Email ?? email,
          setPasswordLinkSent: Boolean(res.setPasswordLinkSent),
          passwordTemporary: Boolean(res.passwordTemporary),
        });
      }
    } catch (err) {
      setError(errorText(err, editing ? t("Update failed") : t("Create failed")));
    } finally {
      setBusy(false);
    }
  }

  const title = editing ? t("Edit account {username}", { username: account.Username }) : t("Create User");
  const preview = deriveUsername(firstName, lastName);

  return (
    <Dialog
      id="account-modal"
      className="admin-modal"
      title={created ? t("Account created") : title}
      onClose={created ? () => onSaved("create") : onClose}
      closeOnBackdrop={!busy}
    >
      {created ? (
        <div>
          <p className="banner banner--success" role="status">
            {rich(t("Account created for {username}."), {
              username: <strong data-created-username>{created.username}</strong>,
            })}
          </p>
          {created.passwordTemporary && (
            <p data-password-temporary>
              {t(
                "The password you entered is temporary: it works for 72 hours, or until {username} sets their own. It is not shown or e-mailed.",
                { username: created.username },
              )}
            </p>
          )}
          {created.setPasswordLinkSent ? (
            <p data-set-password-sent>
              {t("A single-use link to set the password was e-mailed to {email}.", {
                email: created.email ?? "",
              })}
            </p>
          ) : (
            <p data-password-kept>{t("The password you entered was set; it is not shown or e-mailed.")}</p>
          )}
          <div className="modal__actions">
            <button type="button" className="btn btn--primary" onClick={() => onSaved("create")}>
              {t("Done")}
            </button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate>
          {error ? (
            <p className="banner banner--error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="admin-grid">
            {editing ? (
              <>
                <ReadOnly id="m-first" label={t("First name")} value={account.FirstName} />
                <ReadOnly id="m-last" label={t("Last name")} value={account.LastName} />
                <ReadOnly id="m-email" label={t("Email")} value={account.Email ?? ""} />
                <ReadOnly id="m-username" label={t("Username")} value={account.Username} />
                <ReadOnly id="m-barangay" label={t("Barangay")} value={account.Barangay_Name ?? ""} />
              </>
            ) : (
              <>
                <Field id="m-first" label={t("First name")}>
                  <input
                    id="m-first"
                    ref={(el) => {
                      firstField.current = el;
                    }}
                    value={firstName}
                    maxLength={100}
                    onChange={(e) => setFirstName(e.target.value)}
                  />
                </Field>
                <Field id="m-last" label={t("Last name")}>
                  <input
                    id="m-last"
                    value={lastName}
                    maxLength={100}
                    onChange={(e) => setLastName(e.target.value)}
                  />
                </Field>
                <Field id="m-email" label={t("Email")}>
                  <input
                    id="m-email"
                    type="email"
                    value={email}
                    maxLength={254}
                    onChange={(e) => setEmail(e.target.value)}
                  />
                </Field>
                <Field
                  id="m-username"
                  label={t("Username")}
                  hint={t("From the first and last name; a number is added if it is taken.")}
                >
                  <input id="m-username" value={preview} readOnly aria-describedby="m-username-hint" />
                </Field>
                <Field
                  id="m-password"
                  label={t("Password")}
                  hint={t("Leave blank to e-mail the user a single-use link to set their own password.")}
                >
                  <input
                    id="m-password"
                    type="password"
                    autoComplete="new-password"
                    value={password}
                    maxLength={256}
                    onChange={(e) => setPassword(e.target.value)}
                    aria-describedby="m-password-hint"
                  />
                </Field>
                <Field id="m-barangay" label={t("Barangay")}>
                  <select id="m-barangay" value={barangay} onChange={(e) => setBarangay(e.target.value)}>
                    <option value="">{t("None")}</option>
                    {barangays.map((b) => (
                      <option key={b.Barangay_id} value={b.Barangay_id}>
                        {b.Barangay_Name}
                      </option>
                    ))}
                  </select>
                </Field>
              </>
            )}
            <Field id="m-role" label={t("Role")}>
              <select
                id="m-role"
                value={role}
                ref={(el) => {
                  if (editing) firstField.current = el;
                }}
                onChange={(e) => changeRole(Number(e.target.value))}
              >
                {roles.map((r) => (
                  <option key={r.Roles_id} value={r.Roles_id}>
                    {r.Roles}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <fieldset className="admin-modules">
            <legend>{t("Module access")}</legend>
            {modules.length === 0 ? <p>{t("No modules available")}</p> : null}
            {modules.map((m) => (
              <label className="admin-check" key={m.Module_id}>
                <input
                  type="checkbox"
                  name="access"
                  value={m.Module_id}
                  checked={access.includes(m.Module_id)}
                  onChange={(e) => toggle(m.Module_id, e.target.checked)}
                />{" "}
                {m.Module_name}
              </label>
            ))}
          </fieldset>
          {editing ? (
            <button
              type="button"
              className="btn btn--small"
              onClick={() => setAccess([...(roleDefaults[String(role)] ?? [])])}
            >
              {t("Use the role's default modules")}
            </button>
          ) : null}
          <DialogActions onCancel={onClose} cancelDisabled={busy} busy={busy}>
            {editing
              ? busy
                ? t("Saving...")
                : t("Save changes")
              : busy
                ? t("Creating...")
                : t("Create User")}
          </DialogActions>
          {editing ? (
            <section aria-labelledby="m-audit-title">
              <h3 id="m-audit-title">{t("Recent activity")}</h3>
              {audit.length === 0 ? (
                <p className="admin-muted">{t("No activity recorded yet.")}</p>
              ) : (
                <ul className="admin-audit" data-audit>
                  {audit.map((entry) => (
                    <li key={entry.id}>
                      <time dateTime={entry.at}>{auditTime(entry.at)}</time> {entry.summary}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ) : null}
        </form>
      )}
    </Dialog>
  );
}

function ReadOnly({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <Field id={id} label={label}>
      <input id={id} value={value} readOnly />
    </Field>
  );
}
