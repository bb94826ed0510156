/**
 * The add dialogs of the Chemical Additives and Waste Container tabs (no React): the add button
 * (`[data-open-dialog=dialog-id]`) opens its <dialog> instead of following its ?add=1 link,
 * Cancel (`[data-close-dialog]`) closes it, and submitting shows the form's busy label ('Creating...').
 */
import { wireDialogs } from "../../lib/dialog";
import { t } from "../../lib/i18n";

export function wireAddDialogs(root: Document): void {
  wireDialogs(root, { focusField: true });
  wireBusyLabels(root);
}

/** A `form[data-busy-label]`'s submit button shows that label ('Creating...') and turns off once sent. */
function wireBusyLabels(root: ParentNode = document): void {
  for (const form of root.querySelectorAll<HTMLFormElement>("form[data-busy-label]")) {
    form.addEventListener("submit", () => {
      const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
      if (!button) return;
      button.textContent = form.dataset.busyLabel ?? t("Creating...");
      // Disabled after the submit event is dispatched, so the form still sends.
      setTimeout(() => (button.disabled = true), 0);
    });
  }
}
