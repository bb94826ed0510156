/**
 * Island "login" (plain TypeScript, no React): the sign-in form of spec section 2. Validates on
 * touch and submit, keeps the button disabled while a field is empty or a request is in flight,
 * signs in through POST /api/auth/login and stores token and user. The Forgot Password dialog's
 * React island loads only when the dialog opens (the sign-in page stays under 30 KB).
 */
import { enhanceLogin, wireForgotPassword, type LoginProps } from "../components/auth/login";
import { onIsland, whenReady } from "../lib/island";

onIsland<LoginProps>("login", enhanceLogin);
whenReady(wireForgotPassword);
