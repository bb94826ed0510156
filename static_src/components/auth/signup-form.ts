/**
 * The sign-up form (plain TypeScript): live name stripping, the derived username, spec section 5
 * messages, POST /api/auth/signup, and the 'Resend verification email' box.
 */
import { ApiError, api, errorText } from "../../lib/api";
import { followHandoff } from "./handoff";
import { resendVerification } from "./resend";
import {
  deriveUsername,
  disallowedIn,
  signupPayload,
  strippedMessage,
  stripName,
  validateSignup,
  type SignupValues,
} from "./signup";
import { showFieldError } from "./toggle";
import { t } from "../../lib/i18n";

interface SignupResponse {
  success?: boolean;
  message?: string;
  error?: string;
  username?: string;
  email?: string;
  pendingEmail?: string;
}

const FIELDS: Array<keyof SignupValues> = ["role", "firstName", "lastName", "email", "areaId"];
const NAME_FIELDS: Array<keyof SignupValues> = ["firstName", "lastName"];

export interface SignupFormProps {
  /** Signing up after Google sign-in: no e-mail verification, straight to pending approval. */
  sso?: boolean;
}

/** Sets up the sign-up form `el` (or follows a sign-in handoff). */
export function enhanceSignup(el: HTMLElement, props: SignupFormProps): void {
  if (followHandoff()) return;
  const form = el as HTMLFormElement;
  const input = (id: string) => form.querySelector<HTMLInputElement | HTMLSelectElement>(`#${id}`)!;
  const username = form.querySelector<HTMLInputElement>("#username")!;
  const banner = document.getElementById("signup-error")!;
  const resendBox = document.getElementById("resend-box")!;
  const submitButton = form.querySelector<HTMLButtonElement>("#sign-up")!;
  const touched = new Set<string>();
  let submitted = false;

  const values = (): SignupValues =>
    Object.fromEntries(FIELDS.map((f) => [f, input(f).value])) as unknown as SignupValues;

  function refresh() {
    const v = values();
    username.value = deriveUsername(v.email.trim(), v.firstName.trim(), v.lastName.trim());
    const errors = validateSignup(v);
    for (const f of FIELDS) {
      const shown = touched.has(f) || submitted ? errors[f] : undefined;
      const note = strippedNotes.get(f);
      // A field that said which characters it left out clears that note once nothing more is.
      if (touched.has(f) || submitted || noted.has(f)) showFieldError(input(f), shown ?? note ?? null);
    }
    return errors;
  }

  // Characters a name cannot hold are left out as they are typed, and the field says which.
  const strippedNotes = new Map<string, string>();
  const noted = new Set<string>();
  for (const name of NAME_FIELDS) {
    const field = input(name) as HTMLInputElement;
    field.addEventListener("input", () => {
      const removed = disallowedIn(field.value);
      if (removed.length === 0) {
        strippedNotes.delete(name);
        return;
      }
      const stripped = stripName(field.value);
      const pos = Math.max(
        0,
        (field.selectionStart ?? stripped.length) - (field.value.length - stripped.length),
      );
      field.value = stripped;
      field.setSelectionRange(pos, pos);
      strippedNotes.set(name, strippedMessage(removed));
      noted.add(name);
    });
  }
  for (const f of FIELDS) {
    const field = input(f);
    const mark = () => {
      touched.add(f);
      refresh();
    };
    field.addEventListener("input", refresh);
    field.addEventListener("change", mark);
    field.addEventListener("blur", mark);
  }

  // The barangay list from the server (spec section 7); the rendered options stay on failure.
  const select = input("areaId") as HTMLSelectElement;
  api
    .get<{ barangays?: Array<{ id: number; name: string }> }>("/api/auth/barangays")
    .then((res) => {
      // One barangay: a hidden input, no choice.
      if (!res?.barangays?.length || !(select instanceof HTMLSelectElement)) return;
      const chosen = select.value;
      select.replaceChildren(new Option(t("Select a barangay"), ""));
      for (const b of res.barangays)
        select.add(new Option(b.name, String(b.id), false, String(b.id) === chosen));
    })
    .catch(() => undefined);

  function fail(message: string, pendingEmail?: string) {
    banner.textContent = message;
    banner.hidden = false;
    if (pendingEmail) {
      (document.getElementById("resend-email") as HTMLInputElement).value = pendingEmail;
      document.getElementById("resend-email-text")!.textContent = pendingEmail;
      resendBox.hidden = false;
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submitted = true;
    const errors = refresh();
    if (Object.keys(errors).length) {
      input(Object.keys(errors)[0]).focus();
      return;
    }
    banner.hidden = true;
    resendBox.hidden = true;
    submitButton.disabled = true;
    const v = values();
    const isSSO = Boolean(props.sso);
    try {
      const res = await api.post<SignupResponse>("/api/auth/signup", signupPayload(v, username.value, isSSO));
      if (res?.success === false) {
        fail(res.message || res.error || t("Registration failed"), res.pendingEmail);
      } else {
        const query = new URLSearchParams({
          email: res?.email || v.email.trim(),
          username: res?.username || username.value,
        });
        if (isSSO) query.set("sso", "google");
        window.location.assign(`${isSSO ? "/pending-approval" : "/email-verification"}?${query}`);
        return;
      }
    } catch (err) {
      const payload = ((err instanceof ApiError ? err.payload : null) ?? {}) as SignupResponse;
      fail(errorText(err, t("Registration failed"), { offline: t("Network error") }), payload.pendingEmail);
    }
    submitButton.disabled = false;
  });

  // The resend box's form posts without JavaScript; with it, the API answers in place.
  const resendForm = resendBox.querySelector("form");
  resendForm?.addEventListener("submit", async (event) => {
    event.preventDefault();
    const email = (document.getElementById("resend-email") as HTMLInputElement).value;
    try {
      const message = await resendVerification(email);
      if (message === null) return;
      banner.hidden = true;
      resendBox.querySelector("span")!.textContent = message;
    } catch (err) {
      fail(errorText(err));
    }
  });

  refresh();
}
