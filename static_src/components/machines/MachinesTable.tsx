/**
 * The Machines tab's table: loads machines (one page of the search), areas and statuses in
 * parallel when it opens, shows 'Loading machines...', a dismissible error banner, the rows with
 * their Edit buttons, the pager, and the Add/Edit modals; reloads the machines after a change.
 */
import { useCallback, useEffect, useState } from "react";
import { api, errorText } from "../../lib/api";
import { MachineDialog } from "./MachineDialog";
import {
  areaLabel,
  listOf,
  statusBadgeClass,
  type AreaOption,
  type Machine,
  type MachinePage,
  type StatusOption,
} from "./types";
import { formatNumber, t } from "../../lib/i18n";

export interface MachinesTableProps {
  q: string;
  page: number;
  perPage: number;
  /** The toolbar's Add Machine button, outside the island; its click opens the add modal. */
  addButton?: HTMLElement | null;
  /** Open the add modal at once (the page was asked for ?add=1, e.g. from another tab). */
  openAdd?: boolean;
  /** Admin and Staff: after Add Machine the dialog offers the new machine's device key. */
  canIssueKeys?: boolean;
  /** Says a result in the page (the flash by default); tests pass a spy. */
  notify?: (message: string) => void;
}

type Dialog = { kind: "add" } | { kind: "edit"; machine: Machine } | null;

function machinesPath(q: string, page: number, perPage: number): string {
  const params = new URLSearchParams({ q, page: String(page), per_page: String(perPage) });
  return `/api/machines?${params.toString()}`;
}

function pageHref(page: number): string {
  const params = new URLSearchParams(window.location.search);
  params.delete("add");
  params.delete("edit");
  params.set("page", String(page));
  return `${window.location.pathname}?${params.toString()}`;
}

export function MachinesTable({
  q,
  page,
  perPage,
  addButton,
  openAdd,
  canIssueKeys = false,
  notify,
}: MachinesTableProps) {
  const [machines, setMachines] = useState<Machine[]>([]);
  const [total, setTotal] = useState(0);
  const [areas, setAreas] = useState<AreaOption[]>([]);
  const [statuses, setStatuses] = useState<StatusOption[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(openAdd ? { kind: "add" } : null);

  const applyMachines = useCallback((payload: unknown) => {
    const rows = listOf<Machine>(payload);
    setMachines(rows);
    const paged = payload as Partial<MachinePage> | null;
    setTotal(typeof paged?.total === "number" ? paged.total : rows.length);
  }, []);

  // The first load: machines, areas and statuses together. State is set only once the answers are
  // in (loading starts true), and an answer that arrives after the table is gone is dropped.
  useEffect(() => {
    let live = true;
    Promise.all([
      api.get(machinesPath(q, page, perPage)),
      api.get("/api/machines/areas"),
      api.get("/api/machines/statuses"),
    ])
      .then(([machinePayload, areaPayload, statusPayload]) => {
        if (!live) return;
        applyMachines(machinePayload);
        setAreas(listOf<AreaOption>(areaPayload));
        setStatuses(listOf<StatusOption>(statusPayload));
      })
      .catch((err: unknown) => {
        if (live) setError(errorText(err, t("Failed to load machine data"), { showStatus: true }));
      })
      .finally(() => {
        if (live) setLoading(false);
      });
    return () => {
      live = false;
    };
  }, [q, page, perPage, applyMachines]);

  const reloadMachines = useCallback(async () => {
    setLoading(true);
    try {
      applyMachines(await api.get(machinesPath(q, page, perPage)));
    } catch (err) {
      setError(errorText(err, t("Failed to load machine data"), { showStatus: true }));
    } finally {
      setLoading(false);
    }
  }, [q, page, perPage, applyMachines]);

  useEffect(() => {
    if (!addButton) return;
    const open = (event: Event) => {
      event.preventDefault();
      setDialog({ kind: "add" });
    };
    addButton.addEventListener("click", open);
    return () => addButton.removeEventListener("click", open);
  }, [addButton]);

  const close = () => setDialog(null);
  const saved = () => {
    setDialog(null);
    void reloadMachines();
  };

  const first = total === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(page * perPage, total);

  return (
    <>
      {error && (
        <div className="banner banner--error" role="alert" data-testid="machines-error">
          <button
            type="button"
            className="banner__close"
            aria-label={t("Dismiss")}
            onClick={() => setError(null)}
          >
            &times;
          </button>
          {error}
        </div>
      )}
      <div className="table-wrap">
        <table className="table" id="machines-table" aria-busy={loading}>
          <thead>
            <tr>
              <th scope="col">{t("Machine ID")}</th>
              <th scope="col">{t("Machine Name")}</th>
              <th scope="col">{t("Area")}</th>
              <th scope="col">{t("Status")}</th>
              <th scope="col">{t("Last reading")}</th>
              <th scope="col">
                <span className="sr-only">{t("Actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {loading ? (
              <tr className="table__empty">
                <td colSpan={6}>{t("Loading machines...")}</td>
              </tr>
            ) : machines.length === 0 ? (
              <tr className="table__empty">
                <td colSpan={6}>{t("No machines found. Click 'Add Machine' to create one.")}</td>
              </tr>
            ) : (
              machines.map((m) => (
                <tr key={m.machine_id}>
                  <td data-label={t("Machine ID")}>#{m.machine_id}</td>
                  <td data-label={t("Machine Name")}>
                    {m.Name}
                    {m.openAlerts ? (
                      <>
                        {" "}
                        <a
                          className="badge badge--red"
                          href={`/sibol-machines/alerts?machine=${m.machine_id}`}
                          data-open-alerts={m.openAlerts}
                        >
                          {t("Open alerts: {count}", { count: m.openAlerts })}
                        </a>
                      </>
                    ) : null}
                  </td>
                  <td data-label={t("Area")}>{areaLabel(m)}</td>
                  <td data-label={t("Status")}>
                    <span className={statusBadgeClass(m.status_name)}>{m.status_name || t("No Status")}</span>
                  </td>
                  <td data-label={t("Last reading")}>{m.lastReading ?? t("never")}</td>
                  <td data-label={t("Actions")}>
                    <button
                      type="button"
                      className="btn btn--small"
                      aria-label={t("Edit machine #{id}", { id: m.machine_id })}
                      onClick={() => setDialog({ kind: "edit", machine: m })}
                    >
                      {t("Edit")}
                    </button>{" "}
                    <a
                      className="btn btn--small"
                      href={`/sibol-machines/machines/${m.machine_id}/device`}
                      aria-label={t("Device key of machine #{id}", { id: m.machine_id })}
                    >
                      {t("Device")}
                    </a>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {!loading && (
        <div className="pager">
          <span className="pager__label">
            {t("{first}-{last} of {total}", {
              first: formatNumber(first),
              last: formatNumber(last),
              total: formatNumber(total),
            })}
          </span>
          {page > 1 && (
            <a className="btn btn--small" rel="prev" href={pageHref(page - 1)}>
              &lsaquo; {t("Prev")}
            </a>
          )}
          {last < total && (
            <a className="btn btn--small" rel="next" href={pageHref(page + 1)}>
              {t("Next")} &rsaquo;
            </a>
          )}
        </div>
      )}
      {dialog && (
        <MachineDialog
          key={dialog.kind === "edit" ? dialog.machine.machine_id : "add"}
          machine={dialog.kind === "edit" ? dialog.machine : undefined}
          areas={areas}
          statuses={statuses}
          onClose={close}
          onSaved={saved}
          notify={notify}
          offerKey={canIssueKeys}
        />
      )}
    </>
  );
}

/** The island's props from the server's (`q`, `page`, `perPage`, `add`), with the toolbar's Add button. */
export function tableProps(props: Record<string, unknown>): MachinesTableProps {
  return {
    q: String(props.q ?? ""),
    page: Number(props.page ?? 1) || 1,
    perPage: Number(props.perPage ?? 10) || 10,
    addButton: document.getElementById("machines-add"),
    openAdd: props.add === true,
    canIssueKeys: props.canIssueKeys === true,
  };
}

/** The server's add/edit dialogs (opened by ?add=1 / ?edit=ID without JavaScript) give way to the modals. */
export function dropNoScriptDialogs(): void {
  for (const id of ["machine-add-nojs", "machine-edit-nojs"]) document.getElementById(id)?.remove();
}
