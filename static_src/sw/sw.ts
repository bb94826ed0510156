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
 * - Shared phones: the sibol_account cookie names the account signed in (sibol/web/offline.py).
 *   When it changes or goes (another account signed in, the session ended, sign-out), every
 *   kept page is dropped; with no signal, a kept page is shown only while the cookie names its
 *   account. Sign-out (POST /logout) also drops the signing-out account's entries (the page warned
 *   first). Entries belong to the account that typed them: the worker sends only those of the
 *   account signed in, stating their author (the server refuses another's); the others wait,
 *   listed on the pages as saved by their author, until that account signs in again.
 */
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { NetworkFirst } from "workbox-strategies";
import {
  ACCOUNT_COOKIE,
  allEntries,
  dropEntry,
  isAnotherAccounts,
  isLater,
  isOwnedBy,
  postEntry,
  putEntry,
  refusalMessage,
  signedInAccount,
  SYNC_TAG,
} from "../components/household/offline-store";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

export const PAGES_CACHE = "sibol-pages";
const META_CACHE = "sibol-meta";
const OWNER_KEY = "/__sibol/owner";
const DETAIL_DIALOG = /^\/maintenance\/requests\/\d+\/dialog$/;
const OFFLINE_PAGES = [
  /^\/household\/collection-day$/,
  /^\/household$/,
  /^\/maintenance(\/|$)/,
  /^\/sibol-machines\/machines\/[^/]+\/device$/,
];

precacheAndRoute(self.__WB_MANIFEST, { ignoreURLParametersMatching: [/^v$/] });
cleanupOutdatedCaches();

/** Every kept page leaves the phone (they hold residents' names); the entries stay. */
async function forgetPages(): Promise<void> {
  await Promise.all([caches.delete(PAGES_CACHE), caches.delete(META_CACHE)]);
}

/** Sign-out of `account`: the kept pages and that account's entries leave the phone. */
async function signOut(account: string | null | undefined): Promise<void> {
  await forgetPages();
  for (const entry of await allEntries()) if (isOwnedBy(entry, account)) await dropEntry(entry.key);
}

/** The account part of a page's mark (`<account>.<barangay>`). */
const accountOf = (owner: string | null | undefined) => (owner ?? "").split(".")[0];

/** The owner of the kept pages, as their mark said. */
async function keptOwner(): Promise<string | null> {
  const known = await (await caches.open(META_CACHE)).match(OWNER_KEY);
  return known ? known.text() : null;
}

/** The cookie says another account (or none) than the kept pages': drop them. */
async function checkAccount(): Promise<void> {
  const account = await signedInAccount();
  if (account === undefined) return; // this browser cannot tell: the pages' own check stands
  const owner = await keptOwner();
  if (owner !== null && accountOf(owner) !== account) await forgetPages();
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
        if (response.redirected && new URL(response.url).pathname === "/login") await forgetPages();
        else await checkAccount();
        return response;
      },
      // With no signal: a kept page is shown only while the browser is still signed in as its
      // account (an ended session's cookie is gone); otherwise every kept page is dropped.
      cachedResponseWillBeUsed: async ({ cachedResponse }) => {
        if (!cachedResponse) return null;
        const account = await signedInAccount();
        if (account === undefined) return cachedResponse; // cannot tell: the page checks itself
        if (accountOf(cachedResponse.headers.get("X-Sibol-Offline")) === account) return cachedResponse;
        await forgetPages();
        return null;
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
    event.respondWith(
      signedInAccount()
        .then(signOut)
        .then(() => fetch(event.request)),
    );
  }
});

interface CookieChangeEvent extends ExtendableEvent {
  readonly changed: ReadonlyArray<{ name: string }>;
  readonly deleted: ReadonlyArray<{ name: string }>;
}

// The server set or deleted the account cookie (a sign-in, a sign-out, an ended session), even
// with no page of ours open: the kept pages go unless they are the new account's.
self.addEventListener("cookiechange", ((event: CookieChangeEvent) => {
  if ([...event.changed, ...event.deleted].some((c) => c.name === ACCOUNT_COOKIE))
    event.waitUntil(checkAccount());
}) as EventListener);

/** Asks to hear of the account cookie's changes (the Cookie Store API, where there is one). */
async function watchAccount(): Promise<void> {
  const cookies = (
    self.registration as ServiceWorkerRegistration & {
      cookies?: { subscribe(s: Array<{ name: string; url: string }>): Promise<void> };
    }
  ).cookies;
  await cookies?.subscribe([{ name: ACCOUNT_COOKIE, url: "/" }]).catch(() => undefined);
}

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
  const account = await signedInAccount();
  if (account === null) return; // signed out: every entry waits for its author
  for (const entry of await allEntries()) {
    if (entry.refused || !entry.csrf || !entry.owner) continue;
    if (account !== undefined && !isOwnedBy(entry, account)) continue; // another person's
    const response = await postEntry(entry, entry.csrf);
    if (response.ok) await dropEntry(entry.key);
    else if (isLater(response)) throw new Error(`sibol: entry not sent yet (HTTP ${response.status})`);
    else if (response.status === 401) return;
    else if (await isAnotherAccounts(response))
      continue; // its author is not signed in
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
  event.waitUntil(
    self.clients
      .claim()
      .then(watchAccount)
      .then(() => keepOpenPages(event)),
  ),
);
