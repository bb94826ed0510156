/**
 * The phone's copy of entries typed without signal: IndexedDB database "sibol-offline", store
 * "entries", keyed by each entry's Idempotency-Key. Two kinds: a credit of food waste (collection
 * day, the Household page's Record waste) and a remark on a maintenance request (the Maintenance
 * page). No DOM here: the pages (offline-queue.ts) and the service worker (static_src/sw/sw.ts,
 * which sends them on Background Sync) both use it; they go out through the one /api client.
 */
import { send } from "../../lib/api";

export interface Entry {
  key: string; // the Idempotency-Key, and the entry's id
  name: string; // what the list calls it: the household, or the maintenance request
  collectedAt: string; // ISO 8601 with offset: when it was typed
  memberId?: number; // a credit: the household credited...
  wasteKg?: string; // ...with this weight, as typed
  requestId?: number; // a remark: the maintenance request...
  remarks?: string; // ...and the remark, as typed
  csrf?: string; // the page's CSRF token, for a send by the service worker (no page to ask)
  refused?: string; // the server's reason
  owner?: string; // the account that typed it (its id): sent only while that account is signed in
  ownerName?: string; // its name, for "saved by ... on this phone"
}

/** The entry was typed by `account` (an entry kept before authors were recorded is nobody's). */
export const isOwnedBy = (entry: Entry, account: string | null | undefined): boolean =>
  !!account && entry.owner === account;

/** The cookie naming the account this browser is signed in as (sibol/web/offline.py). */
export const ACCOUNT_COOKIE = "sibol_account";

/**
 * The account this browser is signed in as, read from that cookie through the Cookie Store API
 * (the service worker has no document.cookie): null when signed out, undefined where the
 * browser cannot tell (no Cookie Store API).
 */
export async function signedInAccount(): Promise<string | null | undefined> {
  const store = (globalThis as { cookieStore?: { get(name: string): Promise<{ value: string } | null> } })
    .cookieStore;
  if (!store) return undefined;
  try {
    return (await store.get(ACCOUNT_COOKIE))?.value ?? null;
  } catch {
    return undefined;
  }
}

/** A remark on a maintenance request (else a credit of food waste). */
export const isRemark = (entry: Entry): boolean => entry.requestId !== undefined;

/** What the worker typed and may fix after a refusal: the weight, or the remark. */
export const typedValue = (entry: Entry): string => (isRemark(entry) ? entry.remarks : entry.wasteKg) ?? "";

/** The entry with another typed value (a fix): the weight, or the remark. */
export function withTypedValue(entry: Entry, value: string): Entry {
  return isRemark(entry) ? { ...entry, remarks: value } : { ...entry, wasteKg: value.trim() };
}

export const DB_NAME = "sibol-offline";
const STORE = "entries";
/** The Background Sync tag under which the service worker sends the entries. */
export const SYNC_TAG = "sibol-offline-entries";

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "key" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function withStore<T>(
  mode: IDBTransactionMode,
  run: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = run(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

export const allEntries = () => withStore<Entry[]>("readonly", (s) => s.getAll() as IDBRequest<Entry[]>);
export const putEntry = (entry: Entry) => withStore("readwrite", (s) => s.put(entry));
export const dropEntry = (key: string) => withStore("readwrite", (s) => s.delete(key));

/**
 * The request that sends one entry (the /api write for its kind); the same key on a resend makes
 * the server replay its first answer instead of doing the work again.
 */
export function postEntry(entry: Entry, csrf: string): Promise<Response> {
  const [url, body] = isRemark(entry)
    ? [`/api/maintenance/requests/${entry.requestId}/remarks`, { remarks: entry.remarks }]
    : [
        `/api/household/members/${entry.memberId}/waste`,
        { wasteKg: entry.wasteKg, collectedAt: entry.collectedAt },
      ];
  // The session cookie says who sends it (no bearer token: a service worker has none); the server
  // refuses an entry whose author is not the account signed in (403 another_account).
  const headers: Record<string, string> = { "Idempotency-Key": entry.key };
  if (entry.owner) headers["X-Sibol-Entry-Author"] = entry.owner;
  return send("POST", url, body, { csrf, bearer: false, headers });
}

/**
 * An answer that means "try again later" rather than a refusal: no answer worth keeping (5xx),
 * too many requests (429), or the same key still being worked on (409 with Retry-After, the
 * idempotency rule). A 409 without it is the server's refusal (the record changed meanwhile).
 */
export function isLater(response: Response): boolean {
  return (
    response.status >= 500 ||
    response.status === 429 ||
    (response.status === 409 && response.headers.has("Retry-After"))
  );
}

/** A refusal to show as is: the server's message, when it sent one. */
export async function refusalMessage(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { message?: string };
    return body.message ?? null;
  } catch {
    return null; // not JSON: the status says it
  }
}

/** The server refused the entry because another account is signed in: it waits for its author. */
export async function isAnotherAccounts(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  try {
    const body = (await response.clone().json()) as { code?: string };
    return body.code === "another_account";
  } catch {
    return false;
  }
}
