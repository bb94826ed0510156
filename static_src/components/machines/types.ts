/** Shapes of /api/machines* (spec section 3 spellings) and helpers to read them. */
import { t } from "../../lib/i18n";

export interface Machine {
  machine_id: number;
  Name: string;
  Area_id: number;
  Area_Name: string | null;
  status_id: number | null;
  status_name: string | null;
  /** Telemetry: "5 min ago" or "never" (pages of /api/machines only). */
  lastReading?: string;
  /** How many of the machine's alerts are open (pages of /api/machines only). */
  openAlerts?: number;
}

export interface AreaOption {
  Area_id: number;
  Area_Name: string;
}

export interface StatusOption {
  Mach_status_id: number;
  Status: string;
}

export interface MachinePage {
  data: Machine[];
  total: number | null;
  page: number;
  per_page: number;
}

/** A list answer: the list itself, or wrapped in `data` (spec section 7: "possibly in data"). */
export function listOf<T>(payload: unknown): T[] {
  if (Array.isArray(payload)) return payload as T[];
  if (payload && typeof payload === "object" && Array.isArray((payload as { data?: unknown }).data)) {
    return (payload as { data: T[] }).data;
  }
  return [];
}

/** The Area column: the area's name, else 'Area {id}'. */
export function areaLabel(machine: Machine): string {
  return machine.Area_Name ? machine.Area_Name : t("Area {id}", { id: machine.Area_id });
}

const STATUS_COLOURS: Record<string, string> = {
  Active: "green",
  Inactive: "grey",
  "Under Maintenance": "orange",
  Offline: "red",
};

export function statusBadgeClass(status: string | null): string {
  if (!status) return "badge badge--grey";
  return `badge badge--${STATUS_COLOURS[status] ?? "blue"}`;
}
