/**
 * Island "signup-pending" (plain TypeScript): /pending-approval's check-status (spec section 4):
 * active -> alert, /login; email_pending -> alert, /email-verification; else alert the message.
 */
import { enhancePending, type PendingProps } from "../components/auth/signup-pending";
import { onIsland } from "../lib/island";

onIsland<PendingProps>("signup-pending", enhancePending);
