/**
 * The phone's copy of collection day entries typed without signal: IndexedDB database
 * "sibol-offline", store "entries", keyed by each entry's Idempotency-Key. No DOM here: the page
 * (offline-queue.ts) and the service worker (static_src/sw/sw.ts, which sends them on Background
 * Sync) both use it.
 */

export interface Entry {
  key: string; // the Idempotency-Key, and the entry's id
  memberId: number;
  name: string;
  wasteKg: string;
  collectedAt: string; // ISO 8601 with offset: when it was typed
  csrf?: string; // the page's CSRF token, for a send by the service worker (no page to ask)
  refused?: string; // the server's reason
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

/** The request that credits one entry; the same key on a resend makes the server replay. */
export function postEntry(entry: Entry, csrf: string): Promise<Response> {
  return fetch(`/api/household/members/${entry.memberId}/waste`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "Idempotency-Key": entry.key, "X-CSRFToken": csrf },
    body: JSON.stringify({ wasteKg: entry.wasteKg, collectedAt: entry.collectedAt }),
  });
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
