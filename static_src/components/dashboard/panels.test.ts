import { describe, expect, it } from "vitest";
import { showStep } from "./process";
import { setMessages } from "../../lib/i18n";
import { formatToday, joinsPoints } from "./panels";

const MONDAY = new Date(Date.UTC(2026, 10, 23, 4)); // noon in Manila

function processList(): HTMLElement {
  document.body.innerHTML = `<ol data-process>${'<li class="process__step"><span class="process__state"></span></li>'.repeat(3)}</ol>`;
  return document.querySelector<HTMLElement>("[data-process]")!;
}

const states = (list: HTMLElement) =>
  Array.from(list.querySelectorAll(".process__state")).map((el) => el.textContent);

describe("the dashboard in the page's language", () => {
  it("writes today's date and the process states in English on an English page", () => {
    expect(formatToday(MONDAY)).toBe("Monday, November 23, 2026");
    const list = processList();
    showStep(list, 1);
    expect(states(list)).toEqual(["Completed", "Active", "Upcoming"]);
  });

  it("writes them in Filipino when the page embeds Filipino messages", () => {
    setMessages({ Completed: "Tapos na", Active: "Kasalukuyan", Upcoming: "Paparating" }, "fil");
    expect(formatToday(MONDAY)).toBe("Lunes, Nobyembre 23, 2026");
    const list = processList();
    showStep(list, 1);
    expect(states(list)).toEqual(["Tapos na", "Kasalukuyan", "Paparating"]);
  });
});

describe("the energy chart's kind", () => {
  const energy = (...kilowatts: (number | null)[][]) => ({
    months: ["January", "February", "March"],
    unit: "kWh",
    series: kilowatts.map((k, i) => ({ year: 2025 + i, kilowatts: k })),
  });
  it("draws lines only where a year has two neighbouring months", () => {
    expect(joinsPoints(energy([null, 120, 130]))).toBe(true);
    expect(joinsPoints(energy([120, null, 130], [null, null, 90]))).toBe(false);
    expect(joinsPoints(energy())).toBe(false);
  });
});
