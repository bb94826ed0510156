/**
 * The collection day form's running total: kilograms typed in every household's field and the
 * points they earn under the Point System (a preview; the server converts again on save).
 */
import { pointsForKg } from "./points";
import { formatNumber, t } from "../../lib/i18n";

export function runningTotal(form: HTMLFormElement): void {
  const total = form.querySelector<HTMLElement>("[data-total]");
  if (!total) return;
  const ruleG = Number(form.dataset.ruleG);
  const rulePoints = Number(form.dataset.rulePoints);
  const update = () => {
    let grams = 0;
    let points = 0;
    let households = 0;
    for (const input of form.querySelectorAll<HTMLInputElement>("input[name^='kg-']:not([disabled])")) {
      const earned = pointsForKg(input.value, ruleG, rulePoints);
      if (earned === null) continue;
      households += 1;
      grams += Math.round(Number(input.value.trim()) * 1000);
      points += earned;
    }
    total.hidden = households === 0;
    total.textContent = t("Total: {households} households, {kg} kg, {points} points", {
      households: formatNumber(households),
      kg: formatNumber(grams / 1000),
      points: formatNumber(points),
    });
  };
  form.addEventListener("input", update);
  update();
}
