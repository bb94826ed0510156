/**
 * Island "signup-verify" (plain TypeScript): /email-verification's states (spec section 2):
 * waiting, loading (verification starts after 0.5 s), success (3-second countdown, then
 * /pending-approval with e-mail and username) and error (Resend, Back to Login, the hint).
 */
import { enhanceVerify, type VerifyProps } from "../components/auth/signup-verify";
import { onIsland } from "../lib/island";

onIsland<VerifyProps>("signup-verify", enhanceVerify);
