import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LivePoller, ifNoneMatch, liveRegions, pollUrl, startLive, swapRegion } from "./live";

const READINGS = "/sibol-machines/machines/7/live/readings";
const BELL = "/notifications/live/bell";

function page(): void {
  document.body.innerHTML = `
    <a id="bell" data-live="${BELL}" data-live-etag="b1"><span data-unread>0</span></a>
    <section id="device-readings" data-live="${READINGS}" data-live-etag="r1">
      <p>pH <span data-value>7.1</span> <a href="/device" data-live-refresh>Refresh</a></p>
      <details id="figures"><summary>Figures</summary>…</details>
      <details><summary>More</summary>…</details>
    </section>`;
}

function reply(status: number, body?: unknown): Response {
  return new Response(status === 304 ? null : JSON.stringify(body), { status });
}

const value = () => document.querySelector("[data-value]")?.textContent;

describe("the poll request", () => {
  beforeEach(page);

  it("asks once for every region with their ETags", () => {
    const regions = liveRegions(document);
    expect(pollUrl(regions)).toBe(
      `/api/live?r=${encodeURIComponent(BELL)}&r=${encodeURIComponent(READINGS)}`,
    );
    expect(ifNoneMatch(regions)).toBe('"b1", "r1"');
  });

  it("leaves out a region the server refused", () => {
    document.getElementById("bell")!.dataset.liveStopped = "403";
    expect(liveRegions(document).map((el) => el.id)).toEqual(["device-readings"]);
  });
});

describe("swapping a region", () => {
  beforeEach(page);

  it("keeps open details and focus, and takes the new ETag", () => {
    const region = document.getElementById("device-readings")!;
    region.querySelector<HTMLDetailsElement>("#figures")!.open = true;
    region.querySelectorAll("details")[1].open = true;
    region.querySelector<HTMLElement>("[data-live-refresh]")!.id = "refresh";
    document.getElementById("refresh")!.focus();
    const next = swapRegion(
      region,
      `<section id="device-readings" data-live="${READINGS}"><p>pH <span data-value>5.4</span>
        <a id="refresh" href="/device" data-live-refresh>Refresh</a></p>
        <details id="figures"><summary>Figures</summary></details><details><summary>More</summary></details></section>`,
      "r2",
    );
    expect(value()).toBe("5.4");
    expect(next.dataset.liveEtag).toBe("r2");
    expect(Array.from(next.querySelectorAll("details")).map((d) => d.open)).toEqual([true, true]);
    expect(document.activeElement?.id).toBe("refresh");
  });
});

describe("LivePoller", () => {
  beforeEach(() => {
    page();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it("changes nothing on a 304 and swaps what changed on a 200", async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(reply(304))
      .mockResolvedValueOnce(
        reply(200, {
          regions: [
            { url: BELL, status: 200, etag: "b1" },
            {
              url: READINGS,
              status: 200,
              etag: "r2",
              html: `<section id="device-readings" data-live="${READINGS}"><span data-value>5.4</span></section>`,
            },
          ],
        }),
      );
    const poller = new LivePoller({ fetch, intervalMs: 1000 });
    await poller.tick();
    expect(value()).toBe("7.1");
    const [url, init] = fetch.mock.calls[0];
    expect(url).toContain("/api/live?r=");
    expect(init.headers["If-None-Match"]).toBe('"b1", "r1"');
    expect(init.cache).toBe("no-store");
    await poller.tick();
    expect(value()).toBe("5.4");
    expect(ifNoneMatch(liveRegions(document))).toBe('"b1", "r2"');
    poller.stop();
  });

  it("polls on its interval, not while the tab is hidden, and at once when shown", async () => {
    const fetch = vi.fn().mockResolvedValue(reply(304));
    const poller = startLive({ fetch, intervalMs: 1000 });
    await vi.advanceTimersByTimeAsync(3000);
    expect(fetch).toHaveBeenCalledTimes(3);
    let hidden = true;
    vi.spyOn(document, "hidden", "get").mockImplementation(() => hidden);
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledTimes(3);
    hidden = false;
    document.dispatchEvent(new Event("visibilitychange"));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(4);
    poller.stop();
  });

  it("backs off after failures, and resets after a success", async () => {
    const fetch = vi
      .fn()
      .mockRejectedValueOnce(new TypeError("offline"))
      .mockResolvedValueOnce(reply(503, {}))
      .mockResolvedValue(reply(304));
    const poller = new LivePoller({ fetch, intervalMs: 1000, maxBackoffMs: 3000 });
    await poller.tick();
    expect(poller.delay).toBe(2000);
    await poller.tick();
    expect(poller.delay).toBe(3000); // capped
    await poller.tick();
    expect(poller.delay).toBe(1000);
    poller.stop();
  });

  it("stops when signed out, and stops following a refused region", async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(
        reply(200, {
          regions: [
            { url: BELL, status: 200, etag: "b1" },
            { url: READINGS, status: 404, etag: null },
          ],
        }),
      )
      .mockResolvedValueOnce(reply(401, { message: "Sign in to continue." }));
    const poller = new LivePoller({ fetch, intervalMs: 1000 });
    await poller.tick();
    expect(document.getElementById("device-readings")!.dataset.liveStopped).toBe("404");
    expect(value()).toBe("7.1");
    await poller.tick();
    expect(fetch.mock.calls[1][0]).toBe(`/api/live?r=${encodeURIComponent(BELL)}`);
    expect(poller.running).toBe(false);
  });

  it("a Refresh link polls at once instead of reloading", async () => {
    const fetch = vi.fn().mockResolvedValue(reply(304));
    const poller = startLive({ fetch, intervalMs: 60_000 });
    const click = new MouseEvent("click", { bubbles: true, cancelable: true });
    document.querySelector("[data-live-refresh]")!.dispatchEvent(click);
    await vi.advanceTimersByTimeAsync(0);
    expect(click.defaultPrevented).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
    poller.stop();
  });
});
