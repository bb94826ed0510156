/** The dashboard's process panel: stages before the active one are completed, later ones upcoming. */
import { t } from "../../lib/i18n";

export type StepState = "completed" | "active" | "upcoming";

export function stepStates(active: number, count: number): StepState[] {
  return Array.from({ length: count }, (_, i) =>
    i < active ? "completed" : i === active ? "active" : "upcoming",
  );
}

/** The stage after `active`; after the last it loops to the first. */
export function nextStep(active: number, count: number): number {
  return count > 0 ? (active + 1) % count : 0;
}

function stateLabel(state: StepState): string {
  if (state === "completed") return t("Completed");
  return state === "active" ? t("Active") : t("Upcoming");
}

/** Shows stage `active` on the server-rendered <ol data-process> list. */
export function showStep(list: HTMLElement, active: number): void {
  const steps = Array.from(list.querySelectorAll<HTMLElement>(".process__step"));
  stepStates(active, steps.length).forEach((state, i) => {
    const step = steps[i];
    step.classList.remove("process__step--completed", "process__step--active", "process__step--upcoming");
    step.classList.add(`process__step--${state}`);
    if (state === "active") step.setAttribute("aria-current", "step");
    else step.removeAttribute("aria-current");
    const label = step.querySelector(".process__state");
    if (label) label.textContent = stateLabel(state);
  });
}

/** Advances the panel every `seconds`, looping; returns a function that stops it. With
 * prefers-reduced-motion the panel stays still on its first stage. */
export function runProcess(list: HTMLElement, seconds: number): () => void {
  const count = list.querySelectorAll(".process__step").length;
  let active = 0;
  showStep(list, active);
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return () => undefined;
  const timer = window.setInterval(() => {
    active = nextStep(active, count);
    showStep(list, active);
  }, seconds * 1000);
  return () => window.clearInterval(timer);
}
