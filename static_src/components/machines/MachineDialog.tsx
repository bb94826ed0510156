/**
 * The Add Machine and Edit Machine dialogs of the Machines tab (spec sections 2 and 8): one form.
 * Adding asks for a name; once saved the dialog offers "Issue device key", a form posting to the
 * machine's device page, which shows the key once with the controller's settings. Results and
 * refusals show in the page's flash or beside the field, never in a browser popup.
 */
import { useState, type FormEvent } from "react";
import { api, ApiError, csrfToken, errorText } from "../../lib/api";
import { flash, type FlashKind } from "../../lib/confirm";
import { Dialog, DialogActions } from "../Dialog";
import { Field } from "../Field";
import { type AreaOption, type Machine, type StatusOption } from "./types";
import { t } from "../../lib/i18n";

function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export interface ModalProps {
  areas: AreaOption[];
  onClose: () => void;
  onSaved: () => void;
  /** Says a result in the page (the flash by default); tests pass a spy. */
  notify?: (message: string, kind?: FlashKind) => void;
}

/** Add (no `machine`: name, area and start date) or edit (`machine`: name, area and status). */
export function MachineDialog({
  machine,
  statuses = [],
  areas,
  onClose,
  onSaved,
  notify = (message, kind) => void flash(message, kind),
  offerKey = false,
}: ModalProps & { machine?: Machine; statuses?: StatusOption[]; offerKey?: boolean }) {
  const editing = machine !== undefined;
  const id = editing ? "machine-edit" : "machine-add";
  const [name, setName] = useState(machine?.Name ?? "");
  const [areaId, setAreaId] = useState(machine ? String(machine.Area_id) : "");
  const [startDate, setStartDate] = useState(today());
  const [status, setStatus] = useState(machine?.status_id == null ? "" : String(machine.status_id));
  const [busy, setBusy] = useState(false);
  const [nameError, setNameError] = useState("");
  const [error, setError] = useState("");
  const [created, setCreated] = useState<Machine | null>(null);

  async function save(): Promise<Machine | null> {
    if (!machine) {
      // The create form sends no status.
      const res = await api.post<{ data?: Machine }>("/api/machines", {
        areaId: Number(areaId),
        name: name.trim(),
      });
      return res?.data ?? null;
    }
    // A blank name keeps the old one (spec section 5); an empty status clears it.
    await api.put(`/api/machines/${machine.machine_id}`, {
      name: name.trim() === "" ? machine.Name : name.trim(),
      areaId: Number(areaId),
      status: status === "" ? null : Number(status),
    });
    return null;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError("");
    if (!editing && name.trim() === "") {
      setNameError(t("Machine Name is required."));
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    if (!areaId || (!editing && !startDate)) return;
    setBusy(true);
    try {
      const saved = await save();
      if (saved && offerKey) {
        setCreated(saved); // the next step: its device key
        setBusy(false);
      } else {
        notify(editing ? t("Machine updated successfully!") : t("Machine created successfully!"), "success");
        onSaved();
      }
    } catch (err) {
      const reason = errorText(err, t("Unknown error"), { showStatus: true });
      const field = err instanceof ApiError ? (err.payload as { field?: string } | null)?.field : undefined;
      if (field === "name" || field === "Name") setNameError(reason);
      else
        setError(
          editing
            ? t("Failed to update machine: {reason}", { reason })
            : t("Failed to create machine: {reason}", { reason }),
        );
      setBusy(false);
    }
  }

  if (created) {
    return (
      <Dialog id="machine-created" title={t("Machine added")} onClose={onSaved}>
        <p className="banner banner--success" role="status">
          {t("Machine {name} created. Issue its device key to connect it.", { name: created.Name })}
        </p>
        <form method="post" action={`/sibol-machines/machines/${created.machine_id}/device-key`}>
          <input type="hidden" name="csrf_token" value={csrfToken()} />
          <div className="modal__actions">
            <button type="button" className="btn" onClick={onSaved}>
              {t("Done")}
            </button>
            <button type="submit" className="btn btn--primary" id="issue-device-key">
              {t("Issue device key")}
            </button>
          </div>
        </form>
      </Dialog>
    );
  }

  return (
    <Dialog
      id={id}
      title={machine ? t("Edit Machine #{id}", { id: machine.machine_id }) : t("Add Machine")}
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate>
        {error && (
          <p className="banner banner--error" role="alert">
            {error}
          </p>
        )}
        <Field id={`${id}-name`} label={t("Machine Name")} required error={nameError}>
          <input
            id={`${id}-name`}
            maxLength={100}
            required={!editing}
            autoComplete="off"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${id}-name-error` : undefined}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setNameError("");
            }}
          />
        </Field>
        <Field id={`${id}-area`} label={t("Area")} required>
          <select id={`${id}-area`} required value={areaId} onChange={(e) => setAreaId(e.target.value)}>
            {editing && !areas.some((a) => String(a.Area_id) === areaId) && (
              <option value={areaId}>{t("Area {id}", { id: areaId })}</option>
            )}
            {!editing && <option value="">{t("Select area")}</option>}
            {areas.map((a) => (
              <option key={a.Area_id} value={a.Area_id}>
                {a.Area_Name}
              </option>
            ))}
          </select>
        </Field>
        {editing ? (
          <Field id="machine-edit-status" label={t("Status")}>
            <select id="machine-edit-status" value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="">{t("No Status")}</option>
              {statuses.map((s) => (
                <option key={s.Mach_status_id} value={s.Mach_status_id}>
                  {s.Status}
                </option>
              ))}
            </select>
          </Field>
        ) : (
          <Field id="machine-add-start" label={t("Start Date")} required>
            <input
              id="machine-add-start"
              type="date"
              required
              value={startDate}
              onChange={(e) => setStartDate(e.target.value)}
            />
          </Field>
        )}
        <DialogActions onCancel={onClose} busy={busy}>
          {busy
            ? editing
              ? t("Updating...")
              : t("Creating...")
            : editing
              ? t("Update Machine")
              : t("Add Machine")}
        </DialogActions>
      </form>
    </Dialog>
  );
}
