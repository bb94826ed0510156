/**
 * Loaded on every signed-in page (no React): Logout clears the stored token and user
 * (spec section 2) before the form ends the page session.
 */
import { clearSession } from "../lib/api";
import { whenReady } from "../lib/island";

whenReady(() => {
  for (const form of document.querySelectorAll<HTMLFormElement>("form[data-logout]")) {
    form.addEventListener("submit", () => clearSession());
  }
});
