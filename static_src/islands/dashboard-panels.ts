/**
 * Island "dashboard-panels" (plain TypeScript, no React): the waste doughnut's weekly/monthly/yearly
 * selector, the process panel stepping every 3 s, and today's date refreshed hourly. The server
 * already drew both charts as SVG and rendered every figure as text and tables.
 * Chart.js (its own chunk, about 57 KB) is fetched only when someone points at or focuses a chart;
 * it then draws over the SVG, which stays until the canvas has been drawn.
 */
import { enhancePanels, refreshToday, type DashboardProps } from "../components/dashboard/panels";
import { onIsland, whenReady } from "../lib/island";

whenReady(() => refreshToday(document));
onIsland<DashboardProps>("dashboard-panels", enhancePanels);
