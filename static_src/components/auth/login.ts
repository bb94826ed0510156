/**
 * The sign-in form (plain TypeScript, no React): the sign-in form of spec section 2. Validates on
 * touch and submit, keeps the button disabled while a field is empty or a request is in flight,
 * signs in through POST /api/auth/login and stores token and user; with an administrator's
 * temporary password it goes on to /choose-password first. An account with two-step sign-in
 * (the API answers `totpRequired`) continues with the page's own form, whose server-side second
 * step asks for the code; one that must still set it up goes to /profile/two-factor. The Forgot Password dialog's
 * React island loads only when the dialog opens (the sign-in page stays under 30 KB).
 */
import { ApiError, api, errorText, storeSession } from "../../lib/api";
import { openDialog } from "../../lib/dialog";
import { setupPasswordToggles, showFieldError } from "./toggle";
import { t } from "../../lib/i18n";

interface LoginResponse {
  token?: string;
  accessToken?: string;
  user?: unknown;
  message?: string;
  /** An administrator's temporary password: the account chooses its own before going on. */
  passwordTemporary?: boolean;
  /** SIBOL_REQUIRE_2FA: the account sets up its authenticator app before anything else. */
  totpEnrollmentRequired?: boolean;
}

/** The API asks for the authenticator's code: the page's second step takes over. */
export function needsSecondStep(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 401) return false;
  const payload = err.payload as { totpRequired?: unknown } | null;
  return payload?.totpRequired === true;
}

/** A local path, else "/", which the server sends on to the account's own home page. */
function safeNext(next: string): string {
  return next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

export interface LoginProps {
  next?: string;
}

/** Where a signed-in user goes: `next` (a local path) or their home page, by way of the set-your-password
 * form when the password was a temporary one (as the page form's sign-in does). */
export function afterSignIn(next: string, passwordTemporary: boolean, enrol = false): string {
  if (enrol) return "/profile/two-factor";
  const target = safeNext(next);
  return passwordTemporary ? "/choose-password?" + new URLSearchParams({ next: target }).toString() : target;
}

/** Sets up the sign-in form `el`; a signed-in user goes on to `props.next` (a local path) or their home page. */
export function enhanceLogin(el: HTMLElement, props: LoginProps): void {
  const form = el as HTMLFormElement;
  const username = form.querySelector<HTMLInputElement>("#username")!;
  const password = form.querySelector<HTMLInputElement>("#password")!;
  const button = form.querySelector<HTMLButtonElement>("#sign-in")!;
  const banner = document.getElementById("login-error")!;
  const touched = new Set<HTMLInputElement>();
  let submitted = false;
  let busy = false;

  setupPasswordToggles(form);

  function refresh() {
    for (const input of [username, password]) {
      const blank = input.value.trim() === "";
      if (touched.has(input) || submitted) showFieldError(input, blank ? t("This field is required") : null);
    }
    button.disabled = busy || username.value.trim() === "" || password.value.trim() === "";
  }

  for (const input of [username, password]) {
    input.addEventListener("input", () => {
      touched.add(input);
      refresh();
    });
    input.addEventListener("blur", () => {
      touched.add(input);
      refresh();
    });
  }

  function fail(message: string) {
    banner.textContent = message;
    banner.hidden = false;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submitted = true;
    refresh();
    if (busy || username.value.trim() === "" || password.value.trim() === "") return;
    busy = true;
    banner.hidden = true;
    refresh();
    try {
      const res = await api.post<LoginResponse>("/api/auth/login", {
        username: username.value.trim(),
        password: password.value,
      });
      const token = res?.token ?? res?.accessToken;
      if (!res || !res.user) {
        fail(t("Invalid response from server"));
      } else {
        storeSession(token ?? "", res.user);
        window.location.assign(
          afterSignIn(props.next ?? "", res.passwordTemporary === true, res.totpEnrollmentRequired === true),
        );
        return;
      }
    } catch (err) {
      if (needsSecondStep(err)) {
        // The form itself posts the password once more and the server shows the code step; the
        // password is never kept or carried to that step.
        HTMLFormElement.prototype.submit.call(form);
        return;
      }
      fail(errorText(err, t("Login failed")));
    }
    busy = false;
    refresh();
  });

  refresh();
}

/** The Forgot Password dialog: its link opens it (as does ?forgot), and loads its island the first time. */
export function wireForgotPassword(): void {
  const dialog = document.getElementById("forgot-password") as HTMLDialogElement | null;
  const link = document.querySelector<HTMLAnchorElement>('[data-open-dialog="forgot-password"]');
  const host = dialog?.querySelector<HTMLElement>('[data-island="forgot-password"]');
  if (!dialog || !link || !host) return;
  let loaded: Promise<unknown> | null = null;

  function load() {
    loaded ??= import(/* @vite-ignore */ host!.dataset.src ?? "");
    return loaded;
  }

  function open() {
    openDialog(dialog!);
    void load().then(() => host!.dispatchEvent(new CustomEvent("dialog-open")));
  }

  link.addEventListener("click", (event) => {
    event.preventDefault();
    open();
  });
  if (new URLSearchParams(window.location.search).has("forgot")) open();
}
