/**
 * Logout: revokes the stored bearer token (POST /api/auth/logout, failure ignored) and clears the
 * stored token and user, then lets the form end the page session.
 */
import { api, clearSession, storedToken } from "../../lib/api";

export function wireLogout(root: ParentNode = document): void {
  for (const form of root.querySelectorAll<HTMLFormElement>("form[data-logout]")) {
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
}
