/**
 * The e-mail verification page (plain TypeScript): /email-verification's states (spec section 2):
 * waiting, loading (verification starts after 0.5 s), success (3-second countdown, then
 * /pending-approval with e-mail and username) and error (Resend, Back to Login, the hint).
 */
import { ApiError, api, errorText } from "../../lib/api";
import { readHandoff, storeHandoff } from "./handoff";
import { resendVerification } from "./resend";
import { t } from "../../lib/i18n";

export const START_DELAY_MS = 500;
export const COUNTDOWN_S = 3;

export interface VerifyProps {
  token?: string;
  email?: string;
  username?: string;
}

interface VerifyResponse {
  success?: boolean;
  email?: string;
  username?: string;
  error?: string;
  message?: string;
}

/** Runs /email-verification in `el`: verifies the link's token, or offers to resend it. */
export function enhanceVerify(el: HTMLElement, props: VerifyProps): void {
  const handoff = readHandoff(window.location, ["token", "access_token"]);
  if (handoff.auth === "fail") {
    window.location.replace("/login");
    return;
  }
  // A sign-in handoff carries a user along with its token; a verification link does not.
  if (handoff.token && handoff.user !== undefined) {
    storeHandoff(handoff);
    window.location.replace("/dashboard");
    return;
  }
  document.documentElement.classList.add("js");
  const setState = (state: string) => (el.dataset.state = state);
  const errorBox = el.querySelector<HTMLElement>("#verify-error")!;
  const info = el.querySelector<HTMLElement>("#resend-info")!;
  let email = props.email ?? "";
  let username = props.username ?? "";

  function showError(message: string) {
    errorBox.textContent = message;
    setState("error");
  }

  async function verify(token: string) {
    try {
      const res = await api.get<VerifyResponse>(`/api/auth/verify-email/${encodeURIComponent(token)}`);
      if (res?.success === false) {
        showError(res.error || t("Email verification failed"));
        return;
      }
      email = res?.email || email;
      username = res?.username || username;
      window.history.replaceState(
        null,
        "",
        "/email-verification?" + new URLSearchParams({ email, username }),
      );
      setState("success");
      let left = COUNTDOWN_S;
      const counter = el.querySelector<HTMLElement>("[data-countdown]")!;
      counter.textContent = String(left);
      const timer = window.setInterval(() => {
        left -= 1;
        counter.textContent = String(Math.max(left, 0));
        if (left <= 0) {
          window.clearInterval(timer);
          window.location.assign("/pending-approval?" + new URLSearchParams({ email, username }));
        }
      }, 1000);
    } catch (err) {
      if (err instanceof ApiError) {
        const payload = (err.payload ?? {}) as VerifyResponse;
        showError(payload.error || errorText(err, t("Email verification failed")));
      } else {
        showError(t("Network error occurred while verifying email"));
      }
    }
  }

  if (props.token) {
    setState("loading");
    window.setTimeout(() => void verify(props.token!), START_DELAY_MS);
  }

  el.querySelector<HTMLFormElement>("#resend-form")?.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const message = await resendVerification(email);
      if (message === null) return;
      info.className = "banner banner--info";
      info.textContent = message;
    } catch (err) {
      info.className = "banner banner--error";
      info.textContent = errorText(err);
    }
    info.hidden = false;
  });
}
