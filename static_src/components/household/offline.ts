/**
 * The offline part of the installable console on the collection day page: entries kept on the
 * phone while offline and sent once the link returns (offline-queue.ts, through offlineQueue), and
 * a sign-out that warns about unsent entries and clears the phone's copy (a shared phone). The
 * service worker itself is registered by the offline-worker entry, on every offline page.
 */
import { runningTotal } from "./collection-day";
import { newKey } from "./offline-queue";
import { guardSignOut, offlineQueue } from "./offline-entries";

function offlineEntries(form: HTMLFormElement): void {
  const host = form.querySelector<HTMLElement>("[data-offline-queue]");
  if (!host || !("indexedDB" in window)) return;
  const queue = offlineQueue(host);
  form.addEventListener("submit", (event) => {
    if (navigator.onLine) return; // with signal, the plain form saves the lot
    event.preventDefault();
    const collectedAt = new Date().toISOString();
    const typed = Array.from(
      form.querySelectorAll<HTMLInputElement>("input[name^='kg-']:not([disabled])"),
    ).filter((input) => input.value.trim());
    void queue
      .keep(
        typed.map((input) => ({
          key: newKey(),
          memberId: Number(input.name.slice(3)),
          name: form.querySelector(`label[for="${input.id}"]`)?.textContent?.trim() ?? input.name,
          wasteKg: input.value.trim(),
          collectedAt,
        })),
      )
      .then(() => {
        for (const input of typed) input.value = "";
        form.dispatchEvent(new Event("input"));
      });
  });
}

/** The collection day form with its running total, offline entries and sign-out guard. */
export function collectionDay(form: HTMLFormElement): void {
  runningTotal(form);
  offlineEntries(form);
  guardSignOut();
}
