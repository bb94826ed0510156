/**
 * Island "signup" (plain TypeScript): live name stripping, the derived username, spec section 5
 * messages, POST /api/auth/signup, and the 'Resend verification email' box.
 */
import { enhanceSignup, type SignupFormProps } from "../components/auth/signup-form";
import { onIsland } from "../lib/island";

onIsland<SignupFormProps>("signup", enhanceSignup);
