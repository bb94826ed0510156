/// <reference lib="webworker" />
/**
 * The console's service worker, built by vite-plugin-pwa (injectManifest) with Workbox.
 *
 * - Precache: the app shell of the offline pages (their islands and stylesheets), listed by the
 *   build (self.__WB_MANIFEST), downloaded once.
 * - Pages: the pages a worker needs in the field are fetched from the network first and kept for
 *   when there is no signal — only when the server marks the answer with X-Sibol-Offline (a
 *   page of the offline list that the account may open). The mark names the account and the
 *   barangay: a page of another account or barangay is never shown; when they change, every
 *   kept page and entry is dropped. Every offline page registers the worker (the offline-worker
 *   entry); once active, it keeps the offline pages already open, so one visit online is enough.
 * - Offline entries (credits from collection day and Record waste, maintenance remarks; IndexedDB
 *   "sibol-offline"): sent on Background Sync
 *   ("sibol-offline-entries", registered by the page when it keeps an entry); the page's own
 *   sending on the online event and on visits stays as the fallback.
 * - Sign-out (POST /logout) and a session ended elsewhere (a page answered with the sign-in page)
 *   drop every kept page and the offline entries: phones are shared.
 */
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { NetworkFirst } from "workbox-strategies";
import {
  allEntries,
  DB_NAME,
  dropEntry,
  isLater,
  postEntry,
  putEntry,
  refusalMessage,
  SYNC_TAG,
} from "../components/household/offline-store";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

export const PAGES_CACHE = "sibol-pages";
const META_CACHE = "sibol-meta";
const OWNER_KEY = "/__sibol/owner";
export const ENTRIES_DB = DB_NAME;
const DETAIL_DIALOG = /^\/maintenance\/requests\/\d+\/dialog$/;
const OFFLINE_PAGES = [
  /^\/household\/collection-day$/,
  /^\/household$/,
  /^\/maintenance(\/|$)/,
  /^\/sibol-machines\/machines\/[^/]+\/device$/,
];

precacheAndRoute(self.__WB_MANIFEST, { ignoreURLParametersMatching: [/^v$/] });
cleanupOutdatedCaches();

async function forgetEverything(): Promise<void> {
  await Promise.all([caches.delete(PAGES_CACHE), caches.delete(META_CACHE)]);
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase(ENTRIES_DB);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

/** Keeps only pages of one account and barangay: another owner's mark empties the cache first. */
async function sameOwner(owner: string): Promise<void> {
  const meta = await caches.open(META_CACHE);
  const known = await meta.match(OWNER_KEY);
  const previous = known ? await known.text() : null;
  if (previous !== owner) {
    await caches.delete(PAGES_CACHE);
    await meta.put(OWNER_KEY, new Response(owner));
  }
}

const pages = new NetworkFirst({
  cacheName: PAGES_CACHE,
  networkTimeoutSeconds: 4,
  plugins: [
    {
      cacheWillUpdate: async ({ response }) => {
        const owner = response.headers.get("X-Sibol-Offline");
        if (!response.ok || !owner) return null;
        await sameOwner(owner);
        return response;
      },
      fetchDidSucceed: async ({ response }) => {
        // Sent to the sign-in page: the session ended (here or elsewhere).
        if (response.redirected && new URL(response.url).pathname === "/login") await forgetEverything();
        return response;
      },
    },
    new ExpirationPlugin({ maxEntries: 40, maxAgeSeconds: 2 * 24 * 3600 }),
  ],
});

const isOfflinePage = (url: URL) =>
  url.origin === self.location.origin && OFFLINE_PAGES.some((p) => p.test(url.pathname));

registerRoute(({ request, url }) => request.mode === "navigate" && isOfflinePage(url), pages);
// A maintenance request's detail dialog (fetched by the Maintenance page to open it in place, and
// holding its Add Remark form) is kept like a page, so a remark can be typed with no signal.
registerRoute(
  ({ request, url }) =>
    request.method === "GET" && url.origin === self.location.origin && DETAIL_DIALOG.test(url.pathname),
  pages,
);

/**
 * The page that registered the worker was loaded before the worker ran, so it was not kept: once
 * active, the worker fetches each open offline page again and keeps it. One visit online is then
 * enough for that page to open with no signal.
 */
async function keepOpenPages(event: ExtendableEvent): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window" });
  const urls = new Set(
    windows
      .map((c) => new URL(c.url))
      .filter(isOfflinePage)
      .map((u) => u.href),
  );
  await Promise.all(
    Array.from(urls, (url) =>
      pages
        .handle({ event, request: new Request(url, { credentials: "same-origin" }) })
        .catch(() => undefined),
    ),
  );
}

self.addEventListener("fetch", (event: FetchEvent) => {
  const url = new URL(event.request.url);
  if (event.request.method === "POST" && url.origin === self.location.origin && url.pathname === "/logout") {
    event.respondWith(forgetEverything().then(() => fetch(event.request)));
  }
});

self.addEventListener("message", (event: ExtendableMessageEvent) => {
  if (event.data?.type === "sibol-forget") event.waitUntil(forgetEverything());
});

/** Tells open pages the entries changed (one was sent or refused), so their list is redrawn. */
async function entriesChanged(): Promise<void> {
  for (const client of await self.clients.matchAll({ type: "window" }))
    client.postMessage({ type: "sibol-entries-changed" });
}

/**
 * Background Sync: sends the waiting entries one by one, each with its own Idempotency-Key. A
 * failure to reach the server (or a 409 while the page sends the same entry, a 429, a 5xx) throws,
 * so the browser fires the sync again later. A refusal with the server's reason is kept with it;
 * one without (or a 401: signed out) is left to the page, which words it in the worker's language.
 */
async function sendEntries(): Promise<void> {
  for (const entry of await allEntries()) {
    if (entry.refused || !entry.csrf) continue;
    const response = await postEntry(entry, entry.csrf);
    if (response.ok) await dropEntry(entry.key);
    else if (isLater(response)) throw new Error(`sibol: entry not sent yet (HTTP ${response.status})`);
    else if (response.status === 401) return;
    else {
      const reason = await refusalMessage(response);
      if (reason) await putEntry({ ...entry, refused: reason });
    }
    await entriesChanged();
  }
}

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

self.addEventListener("sync", ((event: SyncEvent) => {
  if (event.tag === SYNC_TAG) event.waitUntil(sendEntries());
}) as EventListener);

self.addEventListener("install", () => void self.skipWaiting());
self.addEventListener("activate", (event: ExtendableEvent) =>
  event.waitUntil(self.clients.claim().then(() => keepOpenPages(event))),
);
