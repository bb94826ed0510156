/**
 * The add dialogs of the Chemical Additives and Waste Container tabs (no React): the add button
 * (`[data-opens=dialog-id]`) opens its <dialog> instead of following its ?add=1 link, Cancel
 * (`[data-close]`) closes it, and submitting shows the form's busy label ('Creating...').
 */
import { whenReady } from "../lib/island";

whenReady(() => {
  for (const opener of document.querySelectorAll<HTMLElement>("[data-opens]")) {
    const dialog = document.getElementById(opener.dataset.opens ?? "");
    if (!(dialog instanceof HTMLDialogElement)) continue;
    opener.addEventListener("click", (event) => {
      event.preventDefault();
      if (dialog.open) dialog.close();
      dialog.showModal();
      dialog.querySelector<HTMLElement>("select, input:not([type=hidden])")?.focus();
    });
    for (const closer of dialog.querySelectorAll<HTMLElement>("[data-close]")) {
      closer.addEventListener("click", (event) => {
        event.preventDefault();
        dialog.close();
      });
    }
  }
  for (const form of document.querySelectorAll<HTMLFormElement>("form[data-busy-label]")) {
    form.addEventListener("submit", () => {
      const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
      if (!button) return;
      button.textContent = form.dataset.busyLabel ?? "Creating...";
      // Disabled after the submit event is dispatched, so the form still sends.
      setTimeout(() => (button.disabled = true), 0);
    });
  }
});
