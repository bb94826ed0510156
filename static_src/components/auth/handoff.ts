/**
 * The sign-in handoff of spec sections 2 and "Dashboard": token (or access_token, auth_token),
 * user (encoded JSON) and auth, read from the URL query or hash.
 */
import { clearSession, storeSession, storedUser } from "../../lib/api";
import { whenReady } from "../../lib/island";

export interface Handoff {
  token: string | null;
  user: unknown;
  auth: string | null;
  /** Whether the URL carried any of the handoff parameters. */
  present: boolean;
}

const TOKEN_NAMES = ["token", "access_token", "auth_token"];
const KEYS = [...TOKEN_NAMES, "user", "auth"];

export function readHandoff(location: { search: string; hash: string }, tokenNames = TOKEN_NAMES): Handoff {
  const query = new URLSearchParams(location.search);
  const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
  const get = (name: string) => query.get(name) || hash.get(name) || null;
  let token: string | null = null;
  for (const name of tokenNames) token = token ?? get(name);
  let user: unknown = undefined;
  const rawUser = get("user");
  if (rawUser) {
    try {
      const parsed = JSON.parse(rawUser) as unknown;
      if (parsed !== null && typeof parsed === "object") user = parsed;
    } catch {
      user = undefined; // invalid user data is ignored
    }
  }
  const auth = get("auth");
  const present = KEYS.some((k) => query.has(k) || hash.has(k));
  return { token, user, auth, present };
}

/** Stores the token (and user when valid, keeping any stored one otherwise). */
export function storeHandoff(handoff: Handoff): void {
  if (!handoff.token) return;
  storeSession(handoff.token, handoff.user ?? storedUser());
}

/** The URL without the handoff parameters, for history.replaceState. */
export function strippedUrl(location: { pathname: string; search: string; hash: string }): string {
  const query = new URLSearchParams(location.search);
  for (const k of KEYS) query.delete(k);
  const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
  const hadHashKeys = KEYS.some((k) => hash.has(k));
  for (const k of KEYS) hash.delete(k);
  const q = query.toString();
  const h = hadHashKeys ? hash.toString() : location.hash.replace(/^#/, "");
  return location.pathname + (q ? `?${q}` : "") + (h ? `#${h}` : "");
}

/**
 * Entry pages (/signup, /email-verification, /pending-approval): auth=fail goes to /login; a
 * token is stored and the visitor goes to /dashboard. Returns true when it navigated away.
 */
export function followHandoff(tokenNames = ["token", "access_token"]): boolean {
  const handoff = readHandoff(window.location, tokenNames);
  if (handoff.auth === "fail") {
    clearSession();
    window.location.replace("/login");
    return true;
  }
  if (handoff.token) {
    storeHandoff(handoff);
    window.history.replaceState(null, "", strippedUrl(window.location));
    window.location.replace("/dashboard");
    return true;
  }
  return false;
}

/**
 * /dashboard: stores the sign-in handoff carried in the address and strips it from the address;
 * auth=fail ends the page session (or goes to /login when there is no logout form).
 */
export function dashboardHandoff(): void {
  const handoff = readHandoff(window.location);
  if (!handoff.present) return;
  if (handoff.auth === "fail") {
    // Sign-in failed: end this page session too, or /login would send us back here.
    clearSession();
    const logout = document.querySelector<HTMLFormElement>("form[data-logout]");
    if (logout) whenReady(() => logout.submit());
    else window.location.replace("/login");
    return;
  }
  storeHandoff(handoff);
  window.history.replaceState(null, "", strippedUrl(window.location));
}
