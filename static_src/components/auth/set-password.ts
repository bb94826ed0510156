/**
 * The set-password form (plain TypeScript): the /set-password form's show/hide toggles,
 * 'Passwords match' indicator, five-segment meter and five-rule checklist (as the reset step);
 * a submit with different passwords is stopped with the error beside the confirm field.
 */
import {
  passwordRuleMessage,
  matchText,
  meetsPasswordRule,
  rulesMet,
  strengthLabel,
  strengthScore,
} from "./password";
import { setupPasswordToggles } from "./toggle";
import { showFieldError } from "../../lib/fielderrors";
import { t } from "../../lib/i18n";

/** Sets up the /set-password form `el`: toggles, match indicator, meter, checklist, submit checks. */
export function enhanceSetPassword(el: HTMLElement): void {
  const form = el as HTMLFormElement;
  const password = form.querySelector<HTMLInputElement>("#newPassword")!;
  const confirm = form.querySelector<HTMLInputElement>("#confirmPassword")!;
  const match = form.querySelector<HTMLElement>("[data-pw-match]")!;
  const meter = form.querySelector<HTMLElement>("[data-pw-meter]")!;
  const label = form.querySelector<HTMLElement>("[data-pw-label]")!;
  const error = form.querySelector<HTMLElement>("[data-form-error]")!;
  setupPasswordToggles(form);

  function refresh() {
    const text = matchText(password.value, confirm.value);
    match.hidden = !text;
    match.textContent = text ?? "";
    match.className = `pw-match ${password.value === confirm.value ? "pw-match--ok" : "pw-match--bad"}`;
    meter.dataset.score = String(strengthScore(password.value));
    label.textContent = strengthLabel(password.value);
    const met = rulesMet(password.value);
    for (const li of form.querySelectorAll<HTMLElement>("[data-rule]")) {
      li.dataset.met = String(met[li.dataset.rule as keyof typeof met]);
    }
  }
  password.addEventListener("input", refresh);
  confirm.addEventListener("input", refresh);
  form.addEventListener("submit", (event) => {
    error.hidden = true;
    if (!meetsPasswordRule(password.value)) {
      event.preventDefault();
      error.textContent = passwordRuleMessage();
      error.hidden = false;
    } else if (password.value !== confirm.value) {
      event.preventDefault();
      showFieldError(confirm, t("Passwords do not match"));
    }
  });
  refresh();
}
