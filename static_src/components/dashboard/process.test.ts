import { afterEach, describe, expect, it, vi } from "vitest";
import { nextStep, runProcess, stepStates } from "./process";

afterEach(() => vi.useRealTimers());

describe("process panel", () => {
  it("marks earlier stages completed, the current active and later upcoming", () => {
    expect(stepStates(0, 4)).toEqual(["active", "upcoming", "upcoming", "upcoming"]);
    expect(stepStates(2, 4)).toEqual(["completed", "completed", "active", "upcoming"]);
    expect(stepStates(3, 4)).toEqual(["completed", "completed", "completed", "active"]);
  });

  it("loops to the first stage after the fourth", () => {
    expect([0, 1, 2, 3].map((i) => nextStep(i, 4))).toEqual([1, 2, 3, 0]);
    expect(nextStep(0, 0)).toBe(0);
  });

  it("advances the rendered list every 3 seconds", () => {
    vi.useFakeTimers();
    const list = document.createElement("ol");
    list.innerHTML = ["Filtering", "Slurry Making", "Biogas Generation", "Final Output"]
      .map(
        (name) =>
          `<li class="process__step"><span class="process__name">${name}</span><span class="process__state"></span></li>`,
      )
      .join("");
    const stop = runProcess(list, 3);
    const active = () => list.querySelector('[aria-current="step"] .process__name')?.textContent;
    const labels = () => Array.from(list.querySelectorAll(".process__state")).map((s) => s.textContent);
    expect(active()).toBe("Filtering");
    vi.advanceTimersByTime(2999);
    expect(active()).toBe("Filtering");
    vi.advanceTimersByTime(1);
    expect(active()).toBe("Slurry Making");
    expect(labels()).toEqual(["Completed", "Active", "Upcoming", "Upcoming"]);
    vi.advanceTimersByTime(9000);
    expect(active()).toBe("Filtering");
    expect(list.querySelectorAll(".process__step--completed")).toHaveLength(0);
    stop();
    vi.advanceTimersByTime(3000);
    expect(active()).toBe("Filtering");
  });
});

describe("runProcess with prefers-reduced-motion", () => {
  it("stays on the first stage", () => {
    vi.useFakeTimers();
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      matches: query.includes("reduce"),
      media: query,
    })) as typeof window.matchMedia;
    const list = document.createElement("ol");
    list.innerHTML = ["Filtering", "Slurry Making"]
      .map(
        (name) =>
          `<li class="process__step"><span class="process__name">${name}</span><span class="process__state"></span></li>`,
      )
      .join("");
    const stop = runProcess(list, 3);
    vi.advanceTimersByTime(9000);
    expect(list.querySelector('[aria-current="step"] .process__name')?.textContent).toBe("Filtering");
    stop();
    window.matchMedia = original;
    vi.useRealTimers();
  });
});
