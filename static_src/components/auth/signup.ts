/** Sign-up rules of spec section 5, shared by the island and its tests. */
import { t } from "../../lib/i18n";

/** Letters of any alphabet (ñ, é: Filipino names have them), spaces, period, apostrophe, hyphen. */
export const NAME_DISALLOWED = /[^\p{L}\p{M} .'-]/gu;
export const USERNAME_MAX = 30;

export function stripName(value: string): string {
  return value.replace(NAME_DISALLOWED, "");
}

/** The characters stripName() takes out of `value`, each once, in the order typed ("3", "@"). */
export function disallowedIn(value: string): string[] {
  return [...new Set(value.match(NAME_DISALLOWED) ?? [])];
}

/** What the name field says when it drops typed characters: which ones, and what a name may hold. */
export function strippedMessage(removed: string[]): string {
  const shown = removed.map((c) => (c === " " ? t("space") : `“${c}”`)).join(" ");
  return t(
    "Not allowed in a name, left out: {chars}. Use letters, spaces, hyphens, apostrophes and periods.",
    {
      chars: shown,
    },
  );
}

/** The e-mail's part before @ (letters, digits . _ -), else first+last (alphanumeric, lowercase). */
export function deriveUsername(email: string, first: string, last: string): string {
  const at = email.indexOf("@");
  if (email.trim() && at > 0) {
    const local = email
      .slice(0, at)
      .replace(/[^A-Za-z0-9._-]/g, "")
      .slice(0, USERNAME_MAX);
    if (local) return local;
  }
  return `${first}${last}`
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .slice(0, USERNAME_MAX);
}

/** check-status without a username: from the e-mail, letters and dots only, lowercase. */
export function usernameFromEmail(email: string): string {
  return email
    .split("@", 1)[0]
    .toLowerCase()
    .replace(/[^a-z.]/g, "");
}

export interface SignupValues {
  role: string;
  firstName: string;
  lastName: string;
  email: string;
  areaId: string;
}

export type SignupErrors = Partial<Record<keyof SignupValues, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NAME_OK = /^[\p{L}\p{M} .'-]+$/u;

export function validateSignup(v: SignupValues): SignupErrors {
  const errors: SignupErrors = {};
  if (!v.role) errors.role = t("Role is required");
  const first = v.firstName.trim();
  if (!first) errors.firstName = t("First name is required");
  else if (!NAME_OK.test(first))
    errors.firstName = t("First name can only contain letters, spaces, hyphens, apostrophes and periods");
  const last = v.lastName.trim();
  if (!last) errors.lastName = t("Last name is required");
  else if (!NAME_OK.test(last))
    errors.lastName = t("Last name can only contain letters, spaces, hyphens, apostrophes and periods");
  if (!v.email.trim()) errors.email = t("Email is required");
  else if (!EMAIL.test(v.email.trim())) errors.email = t("Enter a valid email");
  if (!v.areaId) errors.areaId = t("Barangay is required");
  else if (!/^\d+$/.test(v.areaId) || Number(v.areaId) <= 0)
    errors.areaId = t("Barangay must be a valid number");
  return errors;
}

/** The signup payload of spec section 3, with the capitalised copies. */
export function signupPayload(v: SignupValues, username: string, isSSO: boolean) {
  const role = Number(v.role);
  const areaId = Number(v.areaId);
  const firstName = v.firstName.trim();
  const lastName = v.lastName.trim();
  const email = v.email.trim();
  return {
    firstName,
    lastName,
    areaId,
    email,
    role,
    roleId: role,
    username,
    isSSO,
    FirstName: firstName,
    LastName: lastName,
    Area_id: areaId,
    Email: email,
    Roles: role,
    Username: username,
  };
}
