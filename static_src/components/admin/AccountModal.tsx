/**
 * The create/edit account modal. Create sends spec section 7's POST /api/admin/create body (the
 * username is left to the server, which derives it and makes it unique); edit sends PUT
 * /api/admin/{id} and changes only the role and module access.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { api, ApiError } from "../../lib/api";
import type { AdminAccount, AdminProps, AuditItem } from "./types";
import { deriveUsername } from "./username";

export interface CreatedResult {
  username: string;
  email: string | null;
  /** True when the server e-mailed a single-use set-password link (no password was typed). */
  setPasswordLinkSent: boolean;
}

export interface AccountModalProps extends AdminProps {
  mode: "create" | "edit";
  account?: AdminAccount;
  audit?: AuditItem[];
  onClose: () => void;
  /** After a successful save: the island reloads the list (create) or the page (edit). */
  onSaved: (mode: "create" | "edit") => void;
}

function defaultRole(roles: AdminProps["roles"]): number {
  // Least privilege for a new account: Household when offered, else the first role.
  return roles.find((r) => r.Roles_id === 4)?.Roles_id ?? roles[0]?.Roles_id ?? 1;
}

/** The server's message; spec section 8's fallback when the response carried none. */
export function failure(err: unknown, fallback: string): string {
  if (!(err instanceof ApiError) || !err.message || err.message === `HTTP ${err.status}`) return fallback;
  return err.message;
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
    firstField.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  function changeRole(next: number) {
    setRole(next);
    if (!editing) setAccess([...(roleDefaults[String(next)] ?? [])]); // preset to the role's defaults
  }

  function toggle(moduleId: number, on: boolean) {
    setAccess((current) =>
      on ? [...new Set([...current, moduleId])].sort((a, b) => a - b) : current.filter((id) => id !== moduleId),
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
        const res = await api.post<{ user?: AdminAccount; setPasswordLinkSent?: boolean }>(
          "/api/admin/create",
          body,
        );
        setCreated({
          username: res.user?.Username ?? deriveUsername(firstName, lastName),
          email: res.user?.Email ?? email,
          setPasswordLinkSent: Boolean(res.setPasswordLinkSent),
        });
      }
    } catch (err) {
      setError(failure(err, editing ? "Update failed" : "Create failed"));
    } finally {
      setBusy(false);
    }
  }

  const title = editing ? `Edit account ${account.Username}` : "Create User";
  const preview = deriveUsername(firstName, lastName);

  return (
    <div className="admin-overlay" onMouseDown={(e) => e.target === e.currentTarget && !busy && onClose()}>
      <div className="modal admin-modal" role="dialog" aria-modal="true" aria-labelledby="account-modal-title">
        <div className="modal__head">
          <h2 id="account-modal-title">{created ? "Account created" : title}</h2>
          <button
            type="button"
            className="modal__close"
            aria-label="Close"
            onClick={() => (created ? onSaved("create") : onClose())}
          >
            ×
          </button>
        </div>
        <div className="modal__body">
          {created ? (
            <div>
              <p className="banner banner--success" role="status">
                Account created for <strong data-created-username>{created.username}</strong>.
              </p>
              {created.setPasswordLinkSent ? (
                <p data-set-password-sent>
                  A single-use link to set the password was e-mailed to {created.email}.
                </p>
              ) : (
                <p data-password-kept>The password you entered was set; it is not shown or e-mailed.</p>
              )}
              <div className="modal__actions">
                <button type="button" className="btn btn--primary" onClick={() => onSaved("create")}>
                  Done
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
                    <ReadOnly id="m-first" label="First name" value={account.FirstName} />
                    <ReadOnly id="m-last" label="Last name" value={account.LastName} />
                    <ReadOnly id="m-email" label="Email" value={account.Email ?? ""} />
                    <ReadOnly id="m-username" label="Username" value={account.Username} />
                    <ReadOnly id="m-barangay" label="Barangay" value={account.Barangay_Name ?? ""} />
                  </>
                ) : (
                  <>
                    <div className="field">
                      <label htmlFor="m-first">First name</label>
                      <input
                        id="m-first"
                        ref={(el) => {
                          firstField.current = el;
                        }}
                        value={firstName}
                        maxLength={100}
                        onChange={(e) => setFirstName(e.target.value)}
                      />
                    </div>
                    <div className="field">
                      <label htmlFor="m-last">Last name</label>
                      <input id="m-last" value={lastName} maxLength={100} onChange={(e) => setLastName(e.target.value)} />
                    </div>
                    <div className="field">
                      <label htmlFor="m-email">Email</label>
                      <input id="m-email" type="email" value={email} maxLength={254} onChange={(e) => setEmail(e.target.value)} />
                    </div>
                    <div className="field">
                      <label htmlFor="m-username">Username</label>
                      <input id="m-username" value={preview} readOnly aria-describedby="m-username-hint" />
                      <small className="field__hint" id="m-username-hint">
                        From the first and last name; a number is added if it is taken.
                      </small>
                    </div>
                    <div className="field">
                      <label htmlFor="m-password">Password</label>
                      <input
                        id="m-password"
                        type="password"
                        autoComplete="new-password"
                        value={password}
                        maxLength={256}
                        onChange={(e) => setPassword(e.target.value)}
                        aria-describedby="m-password-hint"
                      />
                      <small className="field__hint" id="m-password-hint">
                        Leave blank to generate a random one.
                      </small>
                    </div>
                    <div className="field">
                      <label htmlFor="m-barangay">Barangay</label>
                      <select id="m-barangay" value={barangay} onChange={(e) => setBarangay(e.target.value)}>
                        <option value="">None</option>
                        {barangays.map((b) => (
                          <option key={b.Barangay_id} value={b.Barangay_id}>
                            {b.Barangay_Name}
                          </option>
                        ))}
                      </select>
                    </div>
                  </>
                )}
                <div className="field">
                  <label htmlFor="m-role">Role</label>
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
                </div>
              </div>
              <fieldset className="admin-modules">
                <legend>Module access</legend>
                {modules.length === 0 ? <p>No modules available</p> : null}
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
                  Use the role's default modules
                </button>
              ) : null}
              <div className="modal__actions">
                <button type="button" className="btn" onClick={onClose} disabled={busy}>
                  Cancel
                </button>
                <button type="submit" className="btn btn--primary" disabled={busy}>
                  {editing ? (busy ? "Saving..." : "Save changes") : busy ? "Creating..." : "Create User"}
                </button>
              </div>
              {editing ? (
                <section aria-labelledby="m-audit-title">
                  <h3 id="m-audit-title">Recent activity</h3>
                  {audit.length === 0 ? (
                    <p className="admin-muted">No activity recorded yet.</p>
                  ) : (
                    <ul className="admin-audit" data-audit>
                      {audit.map((entry) => (
                        <li key={entry.id}>
                          <time dateTime={entry.at}>{entry.at.slice(0, 16).replace("T", " ")} UTC</time>{" "}
                          {entry.summary}
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
              ) : null}
            </form>
          )}
        </div>
      </div>
    </div>
  );
}

function ReadOnly({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} readOnly />
    </div>
  );
}
