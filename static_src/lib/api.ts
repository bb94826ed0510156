/**
 * The one API client (docs/architecture.md, "Islands"; spec sections 7 and 8). Every island calls the server
 * through `api`; nothing else uses `fetch`.
 */
import { t } from "./i18n";

export const API_TIMEOUT_MS = 15_000;
/** The English text of a timeout (the message id); ApiError carries it translated. */
export const TIMEOUT_MESSAGE = "Request timed out";

const TOKEN_KEY = "token";
const USER_KEY = "user";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A parsed response body: JSON as sent, `{raw: text}` when the body is not JSON, `{}` when empty. */
export type Payload = Record<string, unknown> | unknown[] | string | number | boolean | null;

/**
 * A request the server refused (non-2xx), or one that timed out (`status` 0, `payload` null).
 * The message is the payload's `message`, else `error`, else `raw`, else `HTTP {status}`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly payload: unknown;

  constructor(message: string, status: number, payload: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.payload = payload;
  }
}

function field(payload: unknown, key: string): string | undefined {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return undefined;
  const value = (payload as Record<string, unknown>)[key];
  if (typeof value === "string") return value.trim() === "" ? undefined : value;
  if (value === undefined || value === null || value === false) return undefined;
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The user-facing message of spec section 8 for a failed response. */
export function errorMessage(status: number, payload: unknown): string {
  return field(payload, "message") ?? field(payload, "error") ?? field(payload, "raw") ?? `HTTP ${status}`;
}

/** How a screen words a failure its server did not explain (spec section 8 differs by screen). */
export type ErrorTextOptions = {
  /** Shown when no answer came (network failure); default: the fallback, else 'Network error'. */
  offline?: string;
  /** Show 'HTTP {status}' for a refusal without a message instead of the fallback (Machines). */
  showStatus?: boolean;
};

/**
 * The one rule for the error text an island shows (spec section 8): the server's message (its
 * `message`, else `error`, else the raw body; 'Request timed out' on a timeout). A refusal that
 * carried none shows the screen's `fallback` (or 'HTTP {status}' with `showStatus` or without a
 * fallback); a request that never got an answer shows `offline`.
 */
export function errorText(err: unknown, fallback?: string, options: ErrorTextOptions = {}): string {
  if (err instanceof ApiError) {
    if (err.message && err.message !== `HTTP ${err.status}`) return err.message;
    return options.showStatus || fallback === undefined ? `HTTP ${err.status}` : fallback;
  }
  return options.offline ?? fallback ?? t("Network error");
}

function parseBody(text: string): Payload {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as Payload;
  } catch {
    return { raw: text };
  }
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled (privacy settings): behave as signed out
  }
}

export function storedToken(): string | null {
  return storage()?.getItem(TOKEN_KEY) || null;
}

/** The page's CSRF token (every page's `<meta name="csrf-token">`); "" where there is none. */
export function csrfToken(): string {
  if (typeof document === "undefined") return ""; // a service worker: the caller passes its own
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? "";
}

export interface SendOptions {
  /** The CSRF token to send; default the page's (a service worker passes the one kept with an entry). */
  csrf?: string;
  /** More headers, e.g. an `Idempotency-Key`. */
  headers?: Record<string, string>;
  /** Send the stored bearer token (default); `false`: the session cookie alone says who sends. */
  bearer?: boolean;
  signal?: AbortSignal;
}

/**
 * The one fetch of /api, answering the raw Response: bearer token, CSRF header on a write, a JSON
 * body (or FormData as is). `api` reads the answer for islands; an offline entry's sender reads
 * its status itself (sent, refused, or later).
 */
export function send(
  method: Method,
  path: string,
  body?: unknown,
  options: SendOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  const token = options.bearer === false ? null : storedToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  let sent: BodyInit | undefined;
  if (method !== "GET") {
    const csrf = options.csrf ?? csrfToken();
    if (csrf) headers["X-CSRFToken"] = csrf;
    if (body instanceof FormData) {
      sent = body; // the browser sets the multipart boundary itself
    } else if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      sent = JSON.stringify(body);
    }
  }
  return fetch(path, { method, headers, body: sent, credentials: "include", signal: options.signal });
}

async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), API_TIMEOUT_MS);
  let status: number;
  let ok: boolean;
  let payload: Payload;
  try {
    const response = await send(method, path, body, { signal: controller.signal });
    status = response.status;
    ok = response.ok;
    payload = parseBody(await response.text()); // the timeout covers reading the body too
  } catch (err) {
    if (controller.signal.aborted) throw new ApiError(t("Request timed out"), 0, null);
    throw err; // network failure: the caller shows its own fallback ('Network error')
  } finally {
    clearTimeout(timer);
  }

  if (!ok) throw new ApiError(errorMessage(status, payload), status, payload);
  return payload as T;
}

/**
 * `api.get/post/put/patch/delete(path, body?)`, resolving to the parsed body. A GET never sends a
 * body. Name the expected shape at the call: `api.post<{ message?: string }>(...)`.
 */
export const api = {
  get: <T = unknown>(path: string, body?: unknown) => request<T>("GET", path, body),
  post: <T = unknown>(path: string, body?: unknown) => request<T>("POST", path, body),
  put: <T = unknown>(path: string, body?: unknown) => request<T>("PUT", path, body),
  patch: <T = unknown>(path: string, body?: unknown) => request<T>("PATCH", path, body),
  delete: <T = unknown>(path: string, body?: unknown) => request<T>("DELETE", path, body),
};

/** Keeps the token and user returned at sign-in (spec: stored locally, sent as a bearer token). */
export function storeSession(token: string, user: unknown): void {
  const store = storage();
  if (!store) return;
  store.setItem(TOKEN_KEY, token);
  store.setItem(USER_KEY, JSON.stringify(user ?? null));
}

export function clearSession(): void {
  const store = storage();
  store?.removeItem(TOKEN_KEY);
  store?.removeItem(USER_KEY);
}

/** The stored user object, or null when there is none or it is not valid JSON. */
export function storedUser<U = Record<string, unknown>>(): U | null {
  const text = storage()?.getItem(USER_KEY);
  if (!text) return null;
  try {
    const user = JSON.parse(text) as unknown;
    return user !== null && typeof user === "object" ? (user as U) : null;
  } catch {
    return null;
  }
}
