/**
 * Island "dashboard-panels" (plain TypeScript with Chart.js, no React): the waste doughnut and its
 * weekly/monthly/yearly selector, the energy line chart, the process panel stepping every 3 s, and
 * today's date refreshed hourly. The server already rendered every figure as text and tables.
 */
import {
  energyChart,
  showPeriod,
  wasteChart,
  type EnergyFigures,
  type PeriodFigures,
} from "../components/dashboard/charts";
import { runProcess } from "../components/dashboard/process";
import { onIsland, whenReady } from "../lib/island";

interface DashboardProps {
  period: string;
  waste: Record<string, PeriodFigures>;
  energy: EnergyFigures;
}

const HOUR_MS = 60 * 60 * 1000;

/** Today in the barangay's zone (the page's data-time-zone, SIBOL_TIMEZONE on the server). */
export function formatToday(now: Date, timeZone = "Asia/Manila"): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
  }).format(now);
}

whenReady(() => {
  const today = document.querySelector<HTMLElement>("[data-today]");
  const zone = today?.dataset.timeZone || undefined;
  if (today) window.setInterval(() => (today.textContent = formatToday(new Date(), zone)), HOUR_MS);
});

onIsland<DashboardProps>("dashboard-panels", (host, props) => {
  const process = host.querySelector<HTMLElement>("[data-process]");
  if (process) runProcess(process, Number(process.dataset.stepSeconds) || 3);

  const wasteCanvas = host.querySelector<HTMLCanvasElement>("#waste-chart");
  const select = host.querySelector<HTMLSelectElement>("[data-period-select]");
  const total = host.querySelector<HTMLElement>("[data-waste-total]");
  let period = props.period in props.waste ? props.period : "weekly";
  const chart = wasteCanvas && props.waste[period] ? wasteChart(wasteCanvas, props.waste[period]) : null;
  select?.addEventListener("change", () => {
    const figures = props.waste[select.value];
    if (!figures) return;
    period = select.value;
    if (chart) showPeriod(chart, figures);
    if (total) total.textContent = figures.total_text;
    for (const block of host.querySelectorAll<HTMLElement>("[data-waste-period]")) {
      block.hidden = block.dataset.wastePeriod !== period;
    }
    const url = new URL(location.href);
    url.searchParams.set("period", period);
    history.replaceState(null, "", url);
  });

  const energyCanvas = host.querySelector<HTMLCanvasElement>("#energy-chart");
  if (energyCanvas && props.energy.series.length > 0) energyChart(energyCanvas, props.energy);
});
