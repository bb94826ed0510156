/**
 * Entry "offline-worker" (no island element): registers the console's service worker
 * (static_src/sw/sw.ts) from every page the server marks as usable without signal
 * (sibol/web/offline.py), so each of those pages is kept after one visit online, whichever the
 * worker opens first. Kept this small on purpose: it is the only script such a page adds.
 *
 * A shared phone: a kept page of another account leaves at once (lib/kept-page.ts).
 */
import { leaveIfAnotherAccount } from "../lib/kept-page";

leaveIfAnotherAccount();
if ("serviceWorker" in navigator)
  void navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined);
