/** Show/hide buttons for password inputs: <button data-toggle-password="input-id" hidden>. */
import { t } from "../../lib/i18n";
export function setupPasswordToggles(root: ParentNode = document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>("[data-toggle-password]")) {
    const input = document.getElementById(button.dataset.togglePassword ?? "") as HTMLInputElement | null;
    if (!input) continue;
    button.hidden = false;
    button.addEventListener("click", () => {
      const show = input.type === "password";
      input.type = show ? "text" : "password";
      button.textContent = show ? t("Hide") : t("Show");
      button.setAttribute("aria-pressed", String(show));
      button.setAttribute("aria-label", show ? t("Hide password") : t("Show password"));
    });
  }
}

/** Shows or hides a field's error paragraph (id `${input.id}-error`). */
export function showFieldError(input: HTMLElement, message: string | null): void {
  const el = document.getElementById(`${input.id}-error`);
  if (el) {
    el.textContent = message ?? "";
    el.hidden = !message;
  }
  input.closest(".field")?.classList.toggle("field--error", Boolean(message));
  if (message) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}
