/**
 * Collection day without signal: entries typed while offline are kept on the phone (IndexedDB,
 * database "sibol-offline"), each with its own Idempotency-Key, listed as "N waiting to send",
 * and sent by themselves when the link returns (the online event, or the next visit). A resend
 * after a lost answer carries the same key, so the server replays its answer instead of
 * crediting twice. An entry the server refuses stays, with the reason, until the worker fixes
 * its weight (a new key: it is a new request) or discards it.
 */
import { formatNumber, t } from "../../lib/i18n";

export interface Entry {
  key: string; // the Idempotency-Key, and the entry's id
  memberId: number;
  name: string;
  wasteKg: string;
  collectedAt: string; // ISO 8601 with offset: when it was typed
  refused?: string; // the server's reason
}

const DB_NAME = "sibol-offline";
const STORE = "entries";

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

export function newKey(): string {
  return crypto.randomUUID();
}

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? "";
}

/** Sends one entry: "sent", "refused" (kept with the reason) or "later" (no link, or busy). */
export async function sendEntry(entry: Entry): Promise<"sent" | "refused" | "later"> {
  let response: Response;
  try {
    response = await fetch(`/api/household/members/${entry.memberId}/waste`, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "Idempotency-Key": entry.key,
        "X-CSRFToken": csrfToken(),
      },
      body: JSON.stringify({ wasteKg: entry.wasteKg, collectedAt: entry.collectedAt }),
    });
  } catch {
    return "later";
  }
  if (response.status === 201) {
    await dropEntry(entry.key);
    return "sent";
  }
  if (response.status === 409 || response.status === 429 || response.status >= 500) return "later";
  let reason = t("Refused (HTTP {status})", { status: String(response.status) });
  try {
    const body = (await response.json()) as { message?: string };
    if (body.message) reason = body.message;
  } catch {
    /* not JSON: the status says it */
  }
  if (response.status === 401) reason = t("Signed out: sign in again, then send.");
  await putEntry({ ...entry, refused: reason });
  return "refused";
}

let syncing: Promise<void> | null = null;

/** Sends every waiting entry, one at a time (never two sends of one entry at once). */
export function syncAll(onChange: () => void): Promise<void> {
  if (syncing) return syncing;
  syncing = (async () => {
    try {
      for (const entry of await allEntries()) {
        if (entry.refused) continue;
        const result = await sendEntry(entry);
        onChange();
        if (result === "later") break;
      }
    } finally {
      syncing = null;
    }
  })();
  return syncing;
}

/** The list under the form: "N waiting to send", each entry, and a refused one's reason. */
export function renderQueue(
  host: HTMLElement,
  entries: Entry[],
  actions: { fix: (e: Entry, kg: string) => void; discard: (e: Entry) => void },
): void {
  host.hidden = entries.length === 0;
  host.replaceChildren();
  if (!entries.length) return;
  const waiting = entries.filter((e) => !e.refused).length;
  const title = document.createElement("p");
  title.className = "offline-queue__title";
  title.setAttribute("role", "status");
  title.textContent = t("{count} waiting to send", { count: formatNumber(waiting) });
  const list = document.createElement("ul");
  list.className = "offline-queue";
  for (const entry of entries) {
    const item = document.createElement("li");
    item.dataset.entryKey = entry.key;
    item.textContent = t("{name}: {kg} kg", { name: entry.name, kg: entry.wasteKg });
    if (entry.refused) {
      item.classList.add("is-refused");
      const reason = document.createElement("p");
      reason.className = "field__error";
      reason.textContent = entry.refused;
      const kg = document.createElement("input");
      kg.type = "text";
      kg.inputMode = "decimal";
      kg.size = 6;
      kg.value = entry.wasteKg;
      kg.setAttribute("aria-label", t("Food waste (kg) for {name}", { name: entry.name }));
      const fix = document.createElement("button");
      fix.type = "button";
      fix.className = "btn btn--small";
      fix.textContent = t("Send again");
      fix.addEventListener("click", () => actions.fix(entry, kg.value));
      const discard = document.createElement("button");
      discard.type = "button";
      discard.className = "btn btn--small btn--ghost";
      discard.textContent = t("Discard");
      discard.addEventListener("click", () => actions.discard(entry));
      item.append(reason, kg, fix, discard);
    }
    list.append(item);
  }
  host.append(title, list);
}
