/**
 * The pending-approval page (plain TypeScript): /pending-approval's check-status (spec section 4):
 * active -> the message in the page's flash, then /login; email_pending -> the message, then
 * /email-verification; else the message. The flash carries the link for those who go at once.
 */
import { api, errorText } from "../../lib/api";
import { followHandoff } from "./handoff";
import { usernameFromEmail } from "./signup";
import { flash } from "../../lib/confirm";
import { t } from "../../lib/i18n";

/** How long the approved/verify message shows before the next page loads by itself. */
const FOLLOW_MS = 2500;

function followAfter(message: string, href: string, label: string): void {
  flash(message, "success", document, { href, label });
  window.setTimeout(() => window.location.assign(href), FOLLOW_MS);
}

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
      flash(t("Username or email is required to check status"), "error");
      return;
    }
    button.disabled = true;
    try {
      const res = await api.get<StatusResponse>(`/api/auth/check-status/${encodeURIComponent(username)}`);
      if (res?.status === "active") {
        followAfter(
          res.message || t("Your account has been approved. You can now sign in."),
          props.signInUrl || "/login",
          t("Sign in"),
        );
        return;
      }
      if (res?.status === "email_pending") {
        followAfter(
          res.message || t("Please verify your email address first."),
          "/email-verification?" + new URLSearchParams({ email, username }),
          t("Verify email"),
        );
        return;
      }
      flash(res?.message || res?.status || "", "info");
    } catch (err) {
      flash(errorText(err, t("Error checking account status. Please try again later.")), "error");
    }
    button.disabled = false;
  });
}
