/**
 * Loaded on every signed-in page (no React).
 * - /dashboard: the sign-in handoff (spec "Dashboard"): token, access_token or auth_token, user and
 *   auth from the query or hash are stored, the URL is stripped; auth=fail goes to /login.
 * - Logout: revokes the stored bearer token (POST /api/auth/logout, failure ignored) and clears
 *   the stored token and user, then lets the form end the page session.
 */
import { api, clearSession, storedToken } from "../lib/api";
import { whenReady } from "../lib/island";
import { clearStaleErrors } from "../lib/fielderrors";
import { expireUndo, wireConfirmations } from "../lib/confirm";
import { readHandoff, storeHandoff, strippedUrl } from "../components/auth/handoff";

export function dashboardHandoff(): void {
  const handoff = readHandoff(window.location);
  if (!handoff.present) return;
  if (handoff.auth === "fail") {
    // Sign-in failed: end this page session too, or /login would send us back here.
    clearSession();
    const logout = document.querySelector<HTMLFormElement>("form[data-logout]");
    if (logout) whenReady(() => logout.submit());
    else window.location.replace("/login");
    return;
  }
  storeHandoff(handoff);
  window.history.replaceState(null, "", strippedUrl(window.location));
}

if (window.location.pathname === "/dashboard") dashboardHandoff();

clearStaleErrors(document);
wireConfirmations(document);
whenReady(() => expireUndo(document));

whenReady(() => {
  for (const form of document.querySelectorAll<HTMLFormElement>("form[data-logout]")) {
    let revoking = false;
    form.addEventListener("submit", (event) => {
      if (revoking) return; // second pass: let the form post end the page session
      const token = storedToken();
      if (!token) {
        clearSession();
        return;
      }
      event.preventDefault();
      revoking = true;
      const finish = () => {
        clearSession();
        form.submit();
      };
      api.post("/api/auth/logout").then(finish, finish);
    });
  }
});

// Shared: a <select data-autosubmit> (e.g. 'Records per page' in the pager macro) submits its
// form on change, so the page size applies at once; without JavaScript the form's button does it.
whenReady(() => {
  for (const select of document.querySelectorAll<HTMLSelectElement>("select[data-autosubmit]")) {
    if (select.dataset.autosubmitBound) continue;
    select.dataset.autosubmitBound = "1";
    select.addEventListener("change", () => select.form?.requestSubmit());
  }
});
