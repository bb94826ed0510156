/**
 * The dashboard panels (plain TypeScript, no React): the waste doughnut's weekly/monthly/yearly
 * selector, the process panel stepping every 3 s, and today's date refreshed hourly. The server
 * already drew both charts as SVG and rendered every figure as text and tables.
 * Chart.js (its own chunk, about 57 KB) is fetched only when someone points at or focuses a chart;
 * it then draws over the SVG, which stays until the canvas has been drawn.
 */
import type { EnergyFigures, PeriodFigures } from "./charts";
import { runProcess } from "./process";
import { currentLang } from "../../lib/i18n";

export interface DashboardProps {
  period: string;
  waste: Record<string, PeriodFigures>;
  energy: EnergyFigures;
}

const HOUR_MS = 60 * 60 * 1000;

/** True when some year has two neighbouring months, so a line chart draws a line. With fewer
 * figures the server draws bars, and Chart.js's line (lone dots) does not replace them. */
export function joinsPoints(energy: EnergyFigures): boolean {
  return energy.series.some((s) =>
    s.kilowatts.some((v, i) => i > 0 && v !== null && s.kilowatts[i - 1] !== null),
  );
}

/** Today in the barangay's zone (the page's data-time-zone, SIBOL_TIMEZONE on the server), in the
 * page's language. */
export function formatToday(now: Date, timeZone = "Asia/Manila", lang = currentLang()): string {
  return new Intl.DateTimeFormat(lang, {
    timeZone,
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
  }).format(now);
}

/** Rewrites the page's `[data-today]` date every hour, so a page left open shows the new day. */
export function refreshToday(root: ParentNode = document): void {
  const today = root.querySelector<HTMLElement>("[data-today]");
  const zone = today?.dataset.timeZone || undefined;
  if (today) window.setInterval(() => (today.textContent = formatToday(new Date(), zone)), HOUR_MS);
}

/** Sets up the panels in `host`: the process steps, the period selector, Chart.js on first interest. */
export function enhancePanels(host: HTMLElement, props: DashboardProps): void {
  const process = host.querySelector<HTMLElement>("[data-process]");
  if (process) runProcess(process, Number(process.dataset.stepSeconds) || 3);

  const wasteCanvas = host.querySelector<HTMLCanvasElement>("#waste-chart");
  const energyCanvas = host.querySelector<HTMLCanvasElement>("#energy-chart");
  const select = host.querySelector<HTMLSelectElement>("[data-period-select]");
  const total = host.querySelector<HTMLElement>("[data-waste-total]");
  let period = props.period in props.waste ? props.period : "weekly";
  let showLive: ((figures: PeriodFigures) => void) | null = null;
  let loading: Promise<void> | null = null;

  /** Chart.js over the server's SVG: the canvas is shown, drawn without animation, and only then
   * is the SVG hidden (its box keeps the size), so the chart never goes blank while loading. */
  const takeOver = (): Promise<void> => {
    loading ??= import("./charts").then((charts) => {
      const live = (canvas: HTMLCanvasElement | null, draw: (c: HTMLCanvasElement) => unknown) => {
        const box = canvas?.closest<HTMLElement>(".chart");
        if (!canvas || !box) return;
        canvas.hidden = false;
        draw(canvas);
        requestAnimationFrame(() => box.classList.add("chart--live"));
      };
      if (props.waste[period] && props.waste[period].streets.length > 0) {
        live(wasteCanvas, (c) => {
          const chart = charts.wasteChart(c, props.waste[period]);
          showLive = (figures) => charts.showPeriod(chart, figures);
        });
      }
      if (joinsPoints(props.energy)) live(energyCanvas, (c) => charts.energyChart(c, props.energy));
    });
    return loading;
  };
  for (const box of host.querySelectorAll<HTMLElement>(".chart")) {
    for (const type of ["pointerenter", "touchstart", "focusin"]) {
      box.addEventListener(type, () => void takeOver(), { once: true, passive: true });
    }
  }

  select?.addEventListener("change", () => {
    const figures = props.waste[select.value];
    if (!figures) return;
    period = select.value;
    if (showLive) showLive(figures);
    if (total) total.textContent = figures.total_text;
    for (const block of host.querySelectorAll<HTMLElement>("[data-waste-period], [data-chart-period]")) {
      block.hidden = (block.dataset.wastePeriod ?? block.dataset.chartPeriod) !== period;
    }
    const url = new URL(location.href);
    url.searchParams.set("period", period);
    history.replaceState(null, "", url);
  });
}
