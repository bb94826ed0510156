/** The dashboard's Chart.js charts, tree-shaken: only the doughnut and line parts are registered. */
import {
  ArcElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  Title,
} from "chart.js";
import { currentLang, t } from "../../lib/i18n";

Chart.register(
  ArcElement,
  CategoryScale,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  Title,
);

export interface PeriodFigures {
  label: string;
  streets: string[];
  kg: number[];
  total_kg: number;
  total_text: string;
}

export interface EnergyFigures {
  months: string[];
  unit: string;
  series: { year: number; kilowatts: (number | null)[] }[];
}

// Same order as the .swatch colours in dashboard.css.
const COLOURS = ["#1f7a4d", "#f2a900", "#175cd3", "#c4540a", "#7a3fb8", "#0e8a8a"];
const LINE_COLOURS = ["#8cc9a8", "#1f7a4d", "#175cd3"];

export function wasteChart(canvas: HTMLCanvasElement, figures: PeriodFigures): Chart<"doughnut"> {
  return new Chart(canvas, {
    type: "doughnut",
    data: {
      labels: figures.streets,
      datasets: [
        {
          data: figures.kg,
          backgroundColor: figures.streets.map((_, i) => COLOURS[i % COLOURS.length]),
          borderWidth: 2,
        },
      ],
    },
    options: {
      locale: currentLang(),
      cutout: "50%",
      animation: false, // drawn over the server's SVG of the same figures: no sweep-in
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        legend: { display: false }, // the figures table below names each colour
        tooltip: {
          callbacks: {
            label: (item) => t("{label}: {value} kg", { label: item.label, value: item.formattedValue }),
          },
        },
      },
    },
  });
}

export function showPeriod(chart: Chart<"doughnut">, figures: PeriodFigures): void {
  chart.data.labels = figures.streets;
  chart.data.datasets[0].data = figures.kg;
  chart.data.datasets[0].backgroundColor = figures.streets.map((_, i) => COLOURS[i % COLOURS.length]);
  chart.update();
}

export function energyChart(canvas: HTMLCanvasElement, energy: EnergyFigures): Chart<"line"> {
  return new Chart(canvas, {
    type: "line",
    data: {
      labels: energy.months,
      datasets: energy.series.map((s, i) => ({
        label: String(s.year),
        data: s.kilowatts,
        borderColor: LINE_COLOURS[(i + LINE_COLOURS.length - energy.series.length) % LINE_COLOURS.length],
        backgroundColor: LINE_COLOURS[(i + LINE_COLOURS.length - energy.series.length) % LINE_COLOURS.length],
        tension: 0.3,
      })),
    },
    options: {
      locale: currentLang(),
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { position: "bottom" } },
      scales: {
        y: { beginAtZero: true, title: { display: true, text: t("Unit: kilowatts") } },
      },
    },
  });
}
