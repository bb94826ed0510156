import { ApiError } from "../../lib/api";

/**
 * The server's message (or 'Request timed out'), else the screen's fallback of spec section 8:
 * a refusal without a message or error, or a network failure, shows the fallback.
 */
export function messageOr(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.message && err.message !== `HTTP ${err.status}`) return err.message;
  return fallback;
}
