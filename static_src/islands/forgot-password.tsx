/**
 * Island "forgot-password": the Forgot Password dialog's steps (spec section 2), loaded by the
 * login island when the dialog first opens.
 */
import { ForgotPassword } from "../components/auth/ForgotPassword";
import { mountIsland } from "../lib/mount";

mountIsland("forgot-password", ForgotPassword, (_props, host) => ({ host }));
