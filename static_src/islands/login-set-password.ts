/**
 * Island "login-set-password" (plain TypeScript): the /set-password form's show/hide toggles,
 * 'Passwords match' indicator, five-segment meter and five-rule checklist (as the reset step).
 */
import { enhanceSetPassword } from "../components/auth/set-password";
import { onIsland } from "../lib/island";

onIsland("login-set-password", enhanceSetPassword);
