/**
 * Entry "offline-worker" (no island element, no imports): registers the console's service worker
 * (static_src/sw/sw.ts) from every page the server marks as usable without signal
 * (sibol/web/offline.py), so each of those pages is kept after one visit online, whichever the
 * worker opens first. Kept this small on purpose: it is the only script such a page adds.
 *
 * A shared phone: a kept page names its account (meta sibol-account); when the browser's
 * sibol_account cookie no longer says so (the session ended, or another account signed in), the
 * copy is hidden and the browser goes to the sign-in page. The worker refuses such a copy
 * already; this covers a browser whose worker cannot read cookies.
 */
const owner = document.querySelector<HTMLMetaElement>('meta[name="sibol-account"]')?.content;
if (owner && owner !== /(?:^|;\s*)sibol_account=([^;]*)/.exec(document.cookie)?.[1]) {
  document.documentElement.hidden = true;
  location.replace("/login");
}
if ("serviceWorker" in navigator)
  void navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined);
