/**
 * Loaded on every signed-in page (no React).
 * - /dashboard: the sign-in handoff (spec "Dashboard"): token, access_token or auth_token, user and
 *   auth from the query or hash are stored, the URL is stripped; auth=fail goes to /login.
 * - Confirmations in the styled dialog, Undo offers that expire, Copy buttons.
 * - Logout: revokes the stored bearer token (POST /api/auth/logout, failure ignored) and clears
 *   the stored token and user, then lets the form end the page session.
 */
import { dashboardHandoff } from "../components/auth/handoff";
import { wireLogout } from "../components/auth/logout";
import { expireUndo, wireConfirmations } from "../lib/confirm";
import { clearStaleErrors } from "../lib/fielderrors";
import { wireForms } from "../lib/forms";
import { whenReady } from "../lib/island";

if (window.location.pathname === "/dashboard") dashboardHandoff();
clearStaleErrors(document);
wireConfirmations(document);
whenReady(() => {
  expireUndo(document);
  wireLogout(document);
  wireForms(document);
});
