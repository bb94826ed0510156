/**
 * Entries made without signal (collection day, Record waste on the Household page, a remark on
 * the Maintenance page) are kept on the phone (IndexedDB, database "sibol-offline"), each with
 * its own Idempotency-Key, listed as "N waiting to send",
 * and sent by themselves when the link returns: by the service worker on Background Sync where
 * the browser has it (offline.ts registers the sync), and by the page on the online event and on
 * the next visit in any case (the fallback; both may run, the key keeps it to one credit). A resend
 * after a lost answer carries the same key, so the server replays its answer instead of
 * crediting twice. An entry the server refuses stays, with the reason, until the worker fixes
 * what was typed (a new key: it is a new request) or discards it. An entry belongs to the account
 * that typed it (a shared phone): another account's page lists it as "saved by ... on this phone"
 * and never sends it; it is sent once its author signs in again, or discarded.
 */
import { csrfToken } from "../../lib/api";
import { formatNumber, t } from "../../lib/i18n";
import {
  allEntries,
  dropEntry,
  type Entry,
  isLater,
  isOwnedBy,
  isRemark,
  postEntry,
  putEntry,
  refusalMessage,
  typedValue,
} from "./offline-store";

export { allEntries, dropEntry, type Entry, putEntry } from "./offline-store";

export function newKey(): string {
  return crypto.randomUUID();
}

/** Sends one entry: "sent", "refused" (kept with the reason) or "later" (no link, or busy). */
export async function sendEntry(entry: Entry): Promise<"sent" | "refused" | "later"> {
  let response: Response;
  try {
    response = await postEntry(entry, csrfToken());
  } catch {
    return "later";
  }
  if (response.ok) {
    await dropEntry(entry.key);
    return "sent";
  }
  if (isLater(response)) return "later";
  const reason =
    (await refusalMessage(response)) ?? t("Refused (HTTP {status})", { status: String(response.status) });
  const signedOut = response.status === 401 ? t("Signed out: sign in again, then send.") : null;
  await putEntry({ ...entry, refused: signedOut ?? reason });
  return "refused";
}

let syncing: Promise<void> | null = null;

/** Sends every waiting entry of `account`, one at a time (never two sends of one entry at once). */
export function syncAll(account: string, onChange: () => void): Promise<void> {
  if (syncing) return syncing;
  syncing = (async () => {
    try {
      for (const entry of await allEntries()) {
        if (entry.refused || !isOwnedBy(entry, account)) continue;
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

/** A discard button for one entry. */
function discardButton(entry: Entry, discard: (e: Entry) => void): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn btn--small btn--ghost";
  button.textContent = t("Discard");
  button.addEventListener("click", () => discard(entry));
  return button;
}

/**
 * The list under the form: "N waiting to send" (the entries of `account`, the one signed in),
 * each entry, a refused one's reason, and another account's entries as saved by it.
 */
export function renderQueue(
  host: HTMLElement,
  entries: Entry[],
  account: string,
  actions: { fix: (e: Entry, value: string) => void; discard: (e: Entry) => void },
): void {
  host.hidden = entries.length === 0;
  host.replaceChildren();
  if (!entries.length) return;
  const waiting = entries.filter((e) => !e.refused && isOwnedBy(e, account)).length;
  const title = document.createElement("p");
  title.className = "offline-queue__title";
  title.setAttribute("role", "status");
  title.textContent = t("{count} waiting to send", { count: formatNumber(waiting) });
  const list = document.createElement("ul");
  list.className = "offline-queue";
  for (const entry of entries) {
    const item = document.createElement("li");
    item.dataset.entryKey = entry.key;
    item.textContent = isRemark(entry)
      ? t("{name}: remark “{remarks}”", { name: entry.name, remarks: entry.remarks ?? "" })
      : t("{name}: {kg} kg", { name: entry.name, kg: entry.wasteKg ?? "" });
    if (!isOwnedBy(entry, account)) {
      // Another person's work on a shared phone: never sent from here, only named or discarded.
      item.classList.add("is-another-account");
      const author = entry.ownerName || t("another account");
      const whose = document.createElement("p");
      whose.className = "offline-queue__owner";
      whose.textContent = t("Saved by {name} on this phone: it is sent once {name} signs in again.", {
        name: author,
      });
      item.append(whose, discardButton(entry, actions.discard));
    } else if (entry.refused) {
      item.classList.add("is-refused");
      const reason = document.createElement("p");
      reason.className = "field__error";
      reason.textContent = entry.refused;
      const kg = document.createElement("input");
      kg.type = "text";
      kg.value = typedValue(entry);
      if (isRemark(entry)) {
        kg.maxLength = 1000;
        kg.setAttribute("aria-label", t("Remark on {name}", { name: entry.name }));
      } else {
        kg.inputMode = "decimal";
        kg.size = 6;
        kg.setAttribute("aria-label", t("Food waste (kg) for {name}", { name: entry.name }));
      }
      const fix = document.createElement("button");
      fix.type = "button";
      fix.className = "btn btn--small";
      fix.textContent = t("Send again");
      fix.addEventListener("click", () => actions.fix(entry, kg.value));
      item.append(reason, kg, fix, discardButton(entry, actions.discard));
    }
    list.append(item);
  }
  host.append(title, list);
}
