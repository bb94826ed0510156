/** GET /api/modules/allowed (spec section 7): the caller's modules as a list. */
import { ApiError, api } from "../../lib/api";

export interface AllowedModule {
  id?: number; // our server sends none (see sibol/api/serializers.py); an object map may
  Module_id?: number;
  key?: string;
  name?: string;
  path?: string;
}

/**
 * The allowed modules, read as the spec's client reads them: a list (what our server answers)
 * or an object map keyed by module. A non-OK status throws `HTTP {status}: {body}`.
 */
export async function allowedModules(): Promise<AllowedModule[]> {
  let payload: unknown;
  try {
    payload = await api.get("/api/modules/allowed");
  } catch (err) {
    if (err instanceof ApiError && err.status > 0) {
      const raw = err.payload as { raw?: unknown } | null;
      const body =
        raw && typeof raw === "object" && "raw" in raw ? String(raw.raw) : JSON.stringify(err.payload ?? "");
      throw new Error(`HTTP ${err.status}: ${body}`);
    }
    throw err;
  }
  if (Array.isArray(payload)) return payload as AllowedModule[];
  if (payload && typeof payload === "object") {
    return Object.entries(payload as Record<string, unknown>)
      .filter(([, v]) => v !== null && typeof v === "object")
      .map(([key, v]) => ({ key, ...(v as AllowedModule) }));
  }
  return [];
}

/** Spec section 6: the allowed-modules list includes the admin entry. */
export function includesAdmin(modules: AllowedModule[]): boolean {
  return modules.some((m) => m.key === "admin" || m.Module_id === 6 || m.id === 6 || m.path === "/admin");
}
