/** The Add Machine and Edit Machine modals of the Machines tab (spec section 2 and 8). */
import { useState, type FormEvent } from "react";
import { api, errorText } from "../../lib/api";
import { Modal } from "./Modal";
import { type AreaOption, type Machine, type StatusOption } from "./types";

const Req = () => (
  <span className="req" aria-hidden="true">
    {" "}
    *
  </span>
);

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

export function AddMachineModal({ areas, onClose, onSaved, alert = window.alert }: ModalProps) {
  const [areaId, setAreaId] = useState("");
  const [startDate, setStartDate] = useState(today());
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!areaId || !startDate) return;
    setBusy(true);
    try {
      await api.post("/api/machines", { areaId: Number(areaId) }); // the create form sends no status
      alert("Machine created successfully!");
      onSaved();
    } catch (err) {
      alert(`Failed to create machine: ${errorText(err, "Unknown error", { showStatus: true })}`);
      setBusy(false);
    }
  }

  return (
    <Modal id="machine-add" title="Add Machine" onClose={onClose}>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="machine-add-area">
            Area<Req />
          </label>
          <select id="machine-add-area" required value={areaId} onChange={(e) => setAreaId(e.target.value)}>
            <option value="">Select area</option>
            {areas.map((a) => (
              <option key={a.Area_id} value={a.Area_id}>
                {a.Area_Name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="machine-add-start">
            Start Date<Req />
          </label>
          <input id="machine-add-start" type="date" required value={startDate} onChange={(e) => setStartDate(e.target.value)} />
        </div>
        <div className="modal__actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy ? "Creating..." : "Add Machine"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function EditMachineModal({
  machine,
  areas,
  statuses,
  onClose,
  onSaved,
  alert = window.alert,
}: ModalProps & { machine: Machine; statuses: StatusOption[] }) {
  const [name, setName] = useState(machine.Name);
  const [areaId, setAreaId] = useState(String(machine.Area_id));
  const [status, setStatus] = useState(machine.status_id == null ? "" : String(machine.status_id));
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!areaId) return;
    setBusy(true);
    try {
      // A blank name keeps the old one (spec section 5); an empty status clears it.
      await api.put(`/api/machines/${machine.machine_id}`, {
        name: name.trim() === "" ? machine.Name : name.trim(),
        areaId: Number(areaId),
        status: status === "" ? null : Number(status),
      });
      alert("Machine updated successfully!");
      onSaved();
    } catch (err) {
      alert(`Failed to update machine: ${errorText(err, "Unknown error", { showStatus: true })}`);
      setBusy(false);
    }
  }

  return (
    <Modal id="machine-edit" title={`Edit Machine #${machine.machine_id}`} onClose={onClose}>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="machine-edit-name">
            Machine Name<Req />
          </label>
          <input id="machine-edit-name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="machine-edit-area">
            Area<Req />
          </label>
          <select id="machine-edit-area" required value={areaId} onChange={(e) => setAreaId(e.target.value)}>
            {!areas.some((a) => String(a.Area_id) === areaId) && <option value={areaId}>{`Area ${areaId}`}</option>}
            {areas.map((a) => (
              <option key={a.Area_id} value={a.Area_id}>
                {a.Area_Name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="machine-edit-status">Status</label>
          <select id="machine-edit-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">No Status</option>
            {statuses.map((s) => (
              <option key={s.Mach_status_id} value={s.Mach_status_id}>
                {s.Status}
              </option>
            ))}
          </select>
        </div>
        <div className="modal__actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy ? "Updating..." : "Update Machine"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
