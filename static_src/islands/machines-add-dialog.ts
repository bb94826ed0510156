/**
 * The add dialogs of the Chemical Additives and Waste Container tabs (no React): the add button
 * (`[data-open-dialog=dialog-id]`) opens its <dialog> instead of following its ?add=1 link,
 * Cancel (`[data-close-dialog]`) closes it, and submitting shows the form's busy label ('Creating...').
 */
import { wireDialogs } from "../lib/dialog";
import { whenReady } from "../lib/island";
import { t } from "../lib/i18n";

whenReady(() => {
  wireDialogs(document, { focusField: true });
  for (const form of document.querySelectorAll<HTMLFormElement>("form[data-busy-label]")) {
    form.addEventListener("submit", () => {
      const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
      if (!button) return;
      button.textContent = form.dataset.busyLabel ?? t("Creating...");
      // Disabled after the submit event is dispatched, so the form still sends.
      setTimeout(() => (button.disabled = true), 0);
    });
  }
});
