/** The Add Machine and Edit Machine dialogs of the Machines tab (spec sections 2 and 8): one form. */
import { useState, type FormEvent } from "react";
import { api, errorText } from "../../lib/api";
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
  alert?: (message: string) => void;
}

/** Add (no `machine`: area and start date) or edit (`machine`: name, area and status). */
export function MachineDialog({
  machine,
  statuses = [],
  areas,
  onClose,
  onSaved,
  alert = window.alert,
}: ModalProps & { machine?: Machine; statuses?: StatusOption[] }) {
  const editing = machine !== undefined;
  const id = editing ? "machine-edit" : "machine-add";
  const [name, setName] = useState(machine?.Name ?? "");
  const [areaId, setAreaId] = useState(machine ? String(machine.Area_id) : "");
  const [startDate, setStartDate] = useState(today());
  const [status, setStatus] = useState(machine?.status_id == null ? "" : String(machine.status_id));
  const [busy, setBusy] = useState(false);

  async function save(): Promise<void> {
    if (!machine) {
      await api.post("/api/machines", { areaId: Number(areaId) }); // the create form sends no status
      return;
    }
    // A blank name keeps the old one (spec section 5); an empty status clears it.
    await api.put(`/api/machines/${machine.machine_id}`, {
      name: name.trim() === "" ? machine.Name : name.trim(),
      areaId: Number(areaId),
      status: status === "" ? null : Number(status),
    });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!areaId || (!editing && !startDate)) return;
    setBusy(true);
    try {
      await save();
      alert(editing ? t("Machine updated successfully!") : t("Machine created successfully!"));
      onSaved();
    } catch (err) {
      const reason = errorText(err, t("Unknown error"), { showStatus: true });
      alert(
        editing
          ? t("Failed to update machine: {reason}", { reason })
          : t("Failed to create machine: {reason}", { reason }),
      );
      setBusy(false);
    }
  }

  return (
    <Dialog
      id={id}
      title={machine ? t("Edit Machine #{id}", { id: machine.machine_id }) : t("Add Machine")}
      onClose={onClose}
    >
      <form onSubmit={submit}>
        {editing && (
          <Field id="machine-edit-name" label={t("Machine Name")} required>
            <input
              id="machine-edit-name"
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </Field>
        )}
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
