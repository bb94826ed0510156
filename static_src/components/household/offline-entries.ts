/**
 * Entries kept on the phone when there is no signal, on any page that takes them: the list
 * ("N waiting to send", each entry, a refused one's reason with fix and discard), the sending when
 * the link returns, and the sign-out guard. Collection day (offline.ts), the Household page's
 * Record waste and the Maintenance page's Add Remark use it; with signal their forms post as
 * without JavaScript. Each entry carries its author (the page's meta sibol-account): only the
 * author's pages send it or drop it at sign-out; other accounts see it as saved by that author.
 */
import { csrfToken } from "../../lib/api";
import { ask } from "../../lib/confirm";
import { closeDialog, openDialog } from "../../lib/dialog";
import { formatNumber, t } from "../../lib/i18n";
import { allEntries, dropEntry, type Entry, newKey, putEntry, renderQueue, syncAll } from "./offline-queue";
import { isOwnedBy, SYNC_TAG, withTypedValue } from "./offline-store";
import { previewEarnings } from "./page";

/** At most this many detail dialogs are fetched ahead (one page of the list). */
const MAX_WARM = 25;

/** The account signed in on this page (its id and name), as the server wrote it. */
function signedIn(): { id: string; name: string } {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="sibol-account"]');
  return { id: meta?.content ?? "", name: meta?.dataset.name ?? "" };
}

/** Sign-out: this account's entries and every kept page leave the phone; others' entries stay. */
async function forgetMine(): Promise<void> {
  const me = signedIn().id;
  const entries = (await allEntries()).filter((e) => isOwnedBy(e, me));
  await Promise.all(entries.map((e) => dropEntry(e.key)));
  if ("caches" in window) {
    for (const name of await caches.keys())
      if (name.startsWith("sibol-pages") || name === "sibol-meta") await caches.delete(name);
  }
}

let guarded = false;

/**
 * Sign-out on a shared phone: warn about entries not sent yet, then clear the phone's copy. It
 * listens in the capture phase, before the logout form's own handler (components/auth/logout.ts,
 * which revokes the bearer token), and hands the form back to it once the worker agreed.
 */
export function guardSignOut(): void {
  if (guarded) return;
  guarded = true;
  let cleared = false;
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target as HTMLFormElement;
      if (cleared || !form.matches("form[data-logout]")) return;
      event.preventDefault();
      event.stopPropagation();
      void (async () => {
        const me = signedIn().id;
        const unsent = (await allEntries()).filter((e) => isOwnedBy(e, me)).length;
        const message = t(
          "{count} entries have not been sent. Signing out deletes them from this phone. Sign out anyway?",
          { count: formatNumber(unsent) },
        );
        if (
          unsent &&
          !(await ask(message, { title: t("Sign out"), confirmLabel: t("Sign out"), danger: true }))
        )
          return;
        await forgetMine();
        cleared = true;
        form.requestSubmit();
      })();
    },
    true,
  );
}

/** Asks the service worker to send the entries once there is a link (Background Sync). */
async function registerSync(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
    sync?: { register(tag: string): Promise<void> };
  };
  await registration.sync?.register(SYNC_TAG);
}

export interface OfflineQueue {
  /** Keeps entries on the phone (each with its key), redraws the list, asks for a sync. */
  keep(entries: Omit<Entry, "csrf">[]): Promise<void>;
}

/** The list of waiting entries in `host`, and their sending whenever the link is there. */
export function offlineQueue(host: HTMLElement): OfflineQueue {
  const me = signedIn();
  const refresh = async () => {
    renderQueue(host, await allEntries(), me.id, {
      fix: (entry: Entry, value: string) => {
        // What was typed changed: it is another request, with a new key.
        void dropEntry(entry.key)
          .then(() => putEntry({ ...withTypedValue(entry, value), key: newKey(), refused: undefined }))
          .then(sync);
      },
      discard: (entry: Entry) => void dropEntry(entry.key).then(refresh),
    });
  };
  const sync = () => syncAll(me.id, () => void refresh()).then(refresh);
  window.addEventListener("online", () => void sync());
  navigator.serviceWorker?.addEventListener("message", (event: MessageEvent<{ type?: string }>) => {
    if (event.data?.type === "sibol-entries-changed") void refresh();
  });
  void adoptToken(me.id)
    .then(refresh)
    .then(() => (navigator.onLine ? sync() : undefined));
  return {
    async keep(entries) {
      const csrf = csrfToken();
      await Promise.all(
        entries.map((entry) => putEntry({ ...entry, csrf, owner: me.id, ownerName: me.name })),
      );
      await refresh();
      void registerSync().catch(() => undefined); // no Background Sync: the online event sends them
    },
  };
}

/**
 * The author signed in again (a new session, a new CSRF token): their entries take this page's
 * token, so the service worker can send them too.
 */
async function adoptToken(account: string): Promise<void> {
  const csrf = csrfToken();
  if (!csrf || !account) return;
  const stale = (await allEntries()).filter((e) => isOwnedBy(e, account) && e.csrf !== csrf);
  await Promise.all(stale.map((entry) => putEntry({ ...entry, csrf })));
}

/** A list host at the top of the page's main content (pages other than collection day). */
function pageQueue(root: Document): OfflineQueue {
  let host = root.querySelector<HTMLElement>("[data-offline-queue]");
  if (!host) {
    host = root.createElement("div");
    host.dataset.offlineQueue = "";
    host.className = "offline-queue__host";
    host.hidden = true;
    const main = root.querySelector("main") ?? root.body;
    const heading = main.querySelector("h1");
    if (heading) heading.after(host);
    else main.prepend(host);
  }
  return offlineQueue(host);
}

/** Without signal, a submit of `form` becomes an entry (`entry` builds it; null: not one). */
function keepWhenOffline(
  form: HTMLFormElement,
  queue: OfflineQueue,
  entry: (submitter: HTMLElement | null) => Omit<Entry, "key" | "collectedAt"> | null,
  then: () => void,
): void {
  form.addEventListener("submit", (event) => {
    if (navigator.onLine) return;
    const made = entry((event as SubmitEvent).submitter);
    if (!made) return;
    event.preventDefault();
    void queue.keep([{ ...made, key: newKey(), collectedAt: new Date().toISOString() }]).then(then);
  });
}

/** The Record waste form: without signal, the credit is kept on the phone and the dialog closes. */
function recordWasteForm(dialog: HTMLDialogElement, queue: OfflineQueue): void {
  const form = dialog.querySelector<HTMLFormElement>("form[action*='/waste']");
  const input = form?.querySelector<HTMLInputElement>("input[name=wasteKg]");
  if (!form || !input) return;
  keepWhenOffline(
    form,
    queue,
    () => {
      const memberId = Number(/\/members\/(\d+)\/waste/.exec(form.action)?.[1]);
      const kg = input.value.trim();
      if (!memberId || !kg) return null; // nothing typed: the form stays (the server would ask)
      const name = form.querySelector("[data-member-name]")?.textContent?.trim() || String(memberId);
      return { memberId, name, wasteKg: kg };
    },
    () => {
      input.value = "";
      closeDialog(dialog);
    },
  );
}

/**
 * Record waste without signal: the dialog the server rendered keeps its entry on the phone, and a
 * row's Record waste link (which would load ?record= from the server) opens the page's empty copy
 * of the dialog, filled in from the row, instead.
 */
export function offlineRecordWaste(root: Document): void {
  if (!("indexedDB" in window)) return;
  const queue = pageQueue(root);
  guardSignOut();
  const open = root.getElementById("record-waste");
  if (open instanceof HTMLDialogElement) recordWasteForm(open, queue);
  const blank = root.getElementById("record-waste-offline");
  if (!(blank instanceof HTMLTemplateElement)) return;
  root.addEventListener("click", (event) => {
    if (navigator.onLine || !(event.target instanceof Element)) return;
    const link = event.target.closest<HTMLAnchorElement>("a[href*='record=']");
    const row = link?.closest<HTMLElement>("tr[data-member-id]");
    const memberId = row?.dataset.memberId;
    if (!link || !row || !memberId) return;
    event.preventDefault();
    const copy = blank.content.querySelector("dialog");
    const dialog = copy ? root.importNode(copy, true) : null; // the page's own node, not the template's
    if (!(dialog instanceof HTMLDialogElement)) return;
    // The row names its member in data attributes, so the copy does not depend on column order.
    const fill = (selector: string, value: string | undefined) => {
      const el = dialog.querySelector(selector);
      if (el) el.textContent = value ?? "";
    };
    fill("[data-member-name]", row.dataset.memberName);
    fill("[data-member-barangay]", row.dataset.memberBarangay);
    fill("#record-waste-points", row.dataset.memberPoints);
    const form = dialog.querySelector<HTMLFormElement>("form[action*='/waste']");
    const action = form?.getAttribute("action") ?? "";
    form?.setAttribute("action", action.replace(/\/members\/0\/waste$/, `/members/${memberId}/waste`));
    dialog.id = "record-waste";
    root.getElementById("record-waste")?.remove();
    (root.querySelector("main") ?? root.body).append(dialog);
    for (const closer of dialog.querySelectorAll<HTMLElement>("[data-close-dialog]"))
      closer.addEventListener("click", (e) => {
        e.preventDefault();
        closeDialog(dialog);
      });
    recordWasteForm(dialog, queue);
    previewEarnings(dialog);
    openDialog(dialog, { focusField: true });
  });
}

/**
 * Add Remark on a maintenance request without signal: the remark is kept on the phone and sent
 * later (the other actions of the detail dialog need the signal). The dialog closes, so the list
 * at the top of the page shows it waiting.
 */
export function offlineRemarks(root: Document): void {
  if (!("indexedDB" in window)) return;
  const queue = pageQueue(root);
  guardSignOut();
  const wire = (form: HTMLFormElement) => {
    if (form.dataset.offlineRemarks) return;
    form.dataset.offlineRemarks = "1";
    const detail = form.closest<HTMLElement>("[data-request-id]");
    const textarea = form.querySelector<HTMLTextAreaElement>("textarea[name=remarks]");
    if (!detail || !textarea) return;
    keepWhenOffline(
      form,
      queue,
      (submitter) => {
        const requestId = Number(detail.dataset.requestId);
        const remarks = textarea.value.trim();
        if (submitter?.id !== "mnt-add-remark" || !requestId || !remarks) return null;
        const title = form.closest("dialog")?.querySelector("h2")?.textContent?.trim();
        return { requestId, name: title || String(requestId), remarks };
      },
      () => {
        textarea.value = "";
        const dialog = form.closest("dialog");
        if (dialog) closeDialog(dialog);
      },
    );
  };
  for (const form of root.querySelectorAll<HTMLFormElement>("form#mnt-actions")) wire(form);
  // With signal and the service worker in charge, the listed requests' detail dialogs are fetched
  // once the page has loaded: the worker keeps them, so each takes a remark with no signal later.
  if (navigator.onLine && navigator.serviceWorker?.controller) {
    const rows = Array.from(root.querySelectorAll<HTMLElement>("tr[data-dialog-url]")).slice(0, MAX_WARM);
    const warm = () => {
      for (const row of rows)
        void fetch(row.dataset.dialogUrl ?? "", { credentials: "same-origin" }).catch(() => undefined);
    };
    if (root.readyState === "complete") warm();
    else window.addEventListener("load", warm, { once: true });
  }
  // The detail dialog is fetched when a row is opened: wire its form once it is in the page.
  new MutationObserver(() => {
    for (const form of root.querySelectorAll<HTMLFormElement>("form#mnt-actions")) wire(form);
  }).observe(root.querySelector("main") ?? root.body, { childList: true });
}
