/**
 * The pending-approval page (plain TypeScript): /pending-approval's check-status (spec section 4):
 * active -> alert, /login; email_pending -> alert, /email-verification; else alert the message.
 */
import { api, errorText } from "../../lib/api";
import { followHandoff } from "./handoff";
import { usernameFromEmail } from "./signup";
import { t } from "../../lib/i18n";

interface StatusResponse {
  status?: string;
  message?: string;
}

export interface PendingProps {
  email?: string;
  username?: string;
  /** Where "approved" leads: our /login, or the spec's client's when the server names one. */
  signInUrl?: string;
}

/** Sets up /pending-approval's Check status button in `el` (or follows a sign-in handoff). */
export function enhancePending(el: HTMLElement, props: PendingProps): void {
  if (followHandoff()) return;
  const email = props.email ?? "";
  const button = el.querySelector<HTMLButtonElement>("#check-status")!;
  button.addEventListener("click", async (event) => {
    event.preventDefault();
    const username = props.username || (email ? usernameFromEmail(email) : "");
    if (!username) {
      window.alert(t("Username or email is required to check status"));
      return;
    }
    button.disabled = true;
    try {
      const res = await api.get<StatusResponse>(`/api/auth/check-status/${encodeURIComponent(username)}`);
      if (res?.status === "active") {
        window.alert(res.message || t("Your account has been approved. You can now sign in."));
        window.location.assign(props.signInUrl || "/login");
        return;
      }
      if (res?.status === "email_pending") {
        window.alert(res.message || t("Please verify your email address first."));
        window.location.assign("/email-verification?" + new URLSearchParams({ email, username }));
        return;
      }
      window.alert(res?.message || res?.status || "");
    } catch (err) {
      window.alert(errorText(err, t("Error checking account status. Please try again later.")));
    }
    button.disabled = false;
  });
}
