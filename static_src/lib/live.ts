/**
 * Live regions (no React): elements the server marked `data-live="<fragment url>"` with
 * `data-live-etag` follow changes by conditional polling (sibol/web/live.py).
 *
 * Every POLL_MS the page asks once for all its regions: `GET /api/live?r=<url>&r=<url>` with
 * their ETags in If-None-Match. While nothing changed the answer is a bare 304 (160 bytes
 * measured); when a region changed, its new HTML replaces it, keeping open <details> and focus.
 * Hidden tabs do not poll (they catch up when shown again); failures back off up to
 * MAX_BACKOFF_MS; a signed-out answer (401) stops polling. A `[data-live-refresh]` link polls at
 * once (without JavaScript it reloads the page). The request is a raw fetch, not lib/api.ts: it
 * needs the 304 as it came, and no bearer token bytes on every poll (the page's session cookie
 * identifies it).
 */

export const POLL_MS = 6_000;
export const MAX_BACKOFF_MS = 5 * 60_000;
export const TIMEOUT_MS = 15_000;
export const POLL_URL = "/api/live";

export interface RegionAnswer {
  url: string;
  status: number;
  etag: string | null;
  html?: string;
}

export interface LiveOptions {
  intervalMs?: number;
  maxBackoffMs?: number;
  fetch?: typeof fetch;
  doc?: Document;
}

/** The live regions still followed (a region refused once, 403 or 404, is left as it is). */
export function liveRegions(root: ParentNode): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>("[data-live]:not([data-live-stopped])"));
}

export function pollUrl(regions: HTMLElement[]): string {
  const query = regions.map((el) => `r=${encodeURIComponent(el.dataset.live ?? "")}`).join("&");
  return `${POLL_URL}?${query}`;
}

/** If-None-Match for the regions' ETags ("" when none is known yet). */
export function ifNoneMatch(regions: HTMLElement[]): string {
  return regions
    .map((el) => el.dataset.liveEtag)
    .filter((etag): etag is string => Boolean(etag))
    .map((etag) => `"${etag}"`)
    .join(", ");
}

/**
 * Replaces `el` with the server's new HTML for it and returns the new element. Open <details>
 * stay open (matched by id, else by position) and focus stays on the element with the same id.
 */
export function swapRegion(el: HTMLElement, html: string, etag: string | null): HTMLElement {
  const template = el.ownerDocument.createElement("template");
  template.innerHTML = html.trim();
  const next = template.content.firstElementChild;
  if (!(next instanceof HTMLElement)) return el;
  const oldDetails = Array.from(el.querySelectorAll("details"));
  const newDetails = Array.from(next.querySelectorAll("details"));
  oldDetails.forEach((details, i) => {
    if (!details.open) return;
    const twin = details.id
      ? next.querySelector<HTMLDetailsElement>(`details[id="${details.id}"]`)
      : newDetails[i];
    if (twin) twin.open = true;
  });
  const active = el.ownerDocument.activeElement;
  const focusId = active instanceof HTMLElement && el.contains(active) ? active.id : "";
  if (etag) next.dataset.liveEtag = etag;
  el.replaceWith(next);
  if (focusId) el.ownerDocument.getElementById(focusId)?.focus();
  return next;
}

/** Applies one poll's answer: swaps the regions that changed, stops following refused ones. */
export function applyAnswer(regions: HTMLElement[], answers: RegionAnswer[]): void {
  for (const answer of answers) {
    const el = regions.find((region) => region.dataset.live === answer.url);
    if (!el) continue;
    if (answer.status !== 200) {
      el.dataset.liveStopped = String(answer.status);
    } else if (answer.html !== undefined) {
      swapRegion(el, answer.html, answer.etag);
    } else if (answer.etag) {
      el.dataset.liveEtag = answer.etag;
    }
  }
}

export class LivePoller {
  readonly intervalMs: number;
  readonly maxBackoffMs: number;
  private readonly fetchFn: typeof fetch;
  private readonly doc: Document;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = false;
  private failures = 0;
  private stopped = false;

  constructor(options: LiveOptions = {}) {
    this.intervalMs = options.intervalMs ?? POLL_MS;
    this.maxBackoffMs = options.maxBackoffMs ?? MAX_BACKOFF_MS;
    this.fetchFn = options.fetch ?? window.fetch.bind(window);
    this.doc = options.doc ?? document;
  }

  /** The wait before the next poll: the interval, doubled for each failure in a row. */
  get delay(): number {
    return Math.min(this.intervalMs * 2 ** this.failures, this.maxBackoffMs);
  }

  get running(): boolean {
    return !this.stopped;
  }

  start(): void {
    this.doc.addEventListener("visibilitychange", this.onVisibility);
    this.doc.addEventListener("click", this.onRefresh);
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.doc.removeEventListener("visibilitychange", this.onVisibility);
    this.doc.removeEventListener("click", this.onRefresh);
  }

  /** One poll now (skipped while hidden, stopped, or another is on its way). */
  async tick(): Promise<void> {
    clearTimeout(this.timer);
    if (this.stopped || this.inFlight || this.doc.hidden) return;
    const regions = liveRegions(this.doc);
    if (regions.length === 0) return this.stop();
    this.inFlight = true;
    try {
      const status = await this.poll(regions);
      if (status === 401) return this.stop(); // signed out: a reload shows the sign-in page
      this.failures = status === 200 || status === 304 ? 0 : this.failures + 1;
    } catch {
      this.failures += 1; // offline, timed out, or a body that is not ours
    } finally {
      this.inFlight = false;
    }
    this.schedule();
  }

  private async poll(regions: HTMLElement[]): Promise<number> {
    const headers: Record<string, string> = { Accept: "application/json" };
    const etags = ifNoneMatch(regions);
    if (etags) headers["If-None-Match"] = etags;
    const abort = new AbortController();
    const timeout = setTimeout(() => abort.abort(), TIMEOUT_MS);
    try {
      const response = await this.fetchFn(pollUrl(regions), {
        headers,
        credentials: "same-origin",
        cache: "no-store", // the 304 must reach us, not be turned into the browser's copy
        signal: abort.signal,
      });
      if (response.status === 200) {
        const body = (await response.json()) as { regions?: RegionAnswer[] };
        applyAnswer(regions, body.regions ?? []);
      }
      return response.status;
    } finally {
      clearTimeout(timeout);
    }
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), this.delay);
  }

  private readonly onVisibility = (): void => {
    if (!this.doc.hidden) void this.tick(); // catch up at once with what changed meanwhile
  };

  private readonly onRefresh = (event: Event): void => {
    const link = (event.target as Element | null)?.closest?.("[data-live-refresh]");
    if (!link || this.stopped) return; // stopped: the link reloads the page as without JavaScript
    event.preventDefault();
    void this.tick();
  };
}

/** Follows every live region of the page; returns the poller (tests stop it). */
export function startLive(options: LiveOptions = {}): LivePoller {
  const poller = new LivePoller(options);
  poller.start();
  return poller;
}
