/**
 * The offline part of the installable console on the collection day page: entries kept on the
 * phone while offline and sent once the link returns (offline-queue.ts), and a sign-out that warns
 * about unsent entries and clears the phone's copy (a shared phone). The service worker itself is
 * registered by the offline-worker entry, on every offline page.
 */
import { runningTotal } from "./collection-day";
import { allEntries, dropEntry, type Entry, newKey, putEntry, renderQueue, syncAll } from "./offline-queue";
import { SYNC_TAG } from "./offline-store";
import { ask } from "../../lib/confirm";
import { formatNumber, t } from "../../lib/i18n";

async function forgetEverything(): Promise<void> {
  const entries = await allEntries();
  await Promise.all(entries.map((e) => dropEntry(e.key)));
  if ("caches" in window) {
    for (const name of await caches.keys())
      if (name.startsWith("sibol-pages") || name === "sibol-meta") await caches.delete(name);
  }
}

/**
 * Sign-out on a shared phone: warn about entries not sent yet, then clear the phone's copy. It
 * listens in the capture phase, before the logout form's own handler (components/auth/logout.ts,
 * which revokes the bearer token), and hands the form back to it once the worker agreed.
 */
function guardSignOut(): void {
  let cleared = false;
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target as HTMLFormElement;
      if (cleared || !form.matches("form[data-logout]")) return;
      event.preventDefault();
      event.stopPropagation();
      void (async () => {
        const unsent = (await allEntries()).length;
        const message = t(
          "{count} entries have not been sent. Signing out deletes them from this phone. Sign out anyway?",
          { count: formatNumber(unsent) },
        );
        if (
          unsent &&
          !(await ask(message, { title: t("Sign out"), confirmLabel: t("Sign out"), danger: true }))
        )
          return;
        await forgetEverything();
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

function offlineEntries(form: HTMLFormElement): void {
  const host = form.querySelector<HTMLElement>("[data-offline-queue]");
  if (!host || !("indexedDB" in window)) return;
  const refresh = async () => {
    renderQueue(host, await allEntries(), {
      fix: (entry: Entry, kg: string) => {
        // Another weight is another request: it gets a new key.
        void dropEntry(entry.key)
          .then(() => putEntry({ ...entry, key: newKey(), wasteKg: kg.trim(), refused: undefined }))
          .then(sync);
      },
      discard: (entry: Entry) => void dropEntry(entry.key).then(refresh),
    });
  };
  const sync = () => syncAll(() => void refresh()).then(refresh);
  form.addEventListener("submit", (event) => {
    if (navigator.onLine) return; // with signal, the plain form saves the lot
    event.preventDefault();
    const collectedAt = new Date().toISOString();
    const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content;
    const typed = Array.from(
      form.querySelectorAll<HTMLInputElement>("input[name^='kg-']:not([disabled])"),
    ).filter((input) => input.value.trim());
    void Promise.all(
      typed.map((input) =>
        putEntry({
          key: newKey(),
          memberId: Number(input.name.slice(3)),
          name: form.querySelector(`label[for="${input.id}"]`)?.textContent?.trim() ?? input.name,
          wasteKg: input.value.trim(),
          collectedAt,
          csrf,
        }),
      ),
    ).then(() => {
      for (const input of typed) input.value = "";
      form.dispatchEvent(new Event("input"));
      void refresh();
      void registerSync().catch(() => undefined); // no Background Sync: the online event sends them
    });
  });
  window.addEventListener("online", () => void sync());
  navigator.serviceWorker?.addEventListener("message", (event: MessageEvent<{ type?: string }>) => {
    if (event.data?.type === "sibol-entries-changed") void refresh();
  });
  void refresh().then(() => (navigator.onLine ? sync() : undefined));
}

/** The collection day form with its running total, offline entries and sign-out guard. */
export function collectionDay(form: HTMLFormElement): void {
  runningTotal(form);
  offlineEntries(form);
  guardSignOut();
}
