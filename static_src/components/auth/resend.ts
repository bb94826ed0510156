/** The 'Resend verification email' step, shared by the sign-up form and /email-verification. */
import { api, ApiError } from "../../lib/api";
import { t } from "../../lib/i18n";

interface ResendResponse {
  message?: string;
  token?: string;
  user?: unknown;
}

/**
 * Asks the server to send the verification e-mail to `email` again and returns the message to
 * show. Returns null when an answer carries a sign-in token, which goes on to /email-verification
 * with it. An empty address (refused before asking, as the server would with 400), a refused or
 * failed request throws, for the caller to show where it shows errors.
 */
export async function resendVerification(email: string): Promise<string | null> {
  if (!email) {
    const message = t("Email address is required to resend verification");
    throw new ApiError(message, 400, { message, field: "email" });
  }
  const res = await api.post<ResendResponse>("/api/auth/resend-verification", { email });
  if (res?.token) {
    const query = new URLSearchParams({ token: res.token, user: JSON.stringify(res.user ?? null) });
    window.location.assign(`/email-verification?${query}`);
    return null;
  }
  return res?.message || t("Verification email resent. Check your inbox.");
}
