/** The password rule of spec section 5, its checklist and the strength label (section 4). */
import { t } from "../../lib/i18n";

/** The error shown when a new password breaks the rule (the same text as the server's). */
export function passwordRuleMessage(): string {
  return t("Password must be at least 8 chars and include upper, lower, number, and symbol.");
}

export type RuleKey = "length" | "upper" | "lower" | "number" | "symbol";

export const RULES: ReadonlyArray<{ key: RuleKey; label: () => string; test: (p: string) => boolean }> = [
  { key: "length", label: () => t("At least 8 characters"), test: (p) => p.length >= 8 },
  { key: "upper", label: () => t("An uppercase letter"), test: (p) => /[A-Z]/.test(p) },
  { key: "lower", label: () => t("A lowercase letter"), test: (p) => /[a-z]/.test(p) },
  { key: "number", label: () => t("A number"), test: (p) => /\d/.test(p) },
  { key: "symbol", label: () => t("A symbol"), test: (p) => /[^A-Za-z0-9]/.test(p) },
];

/** The meter's verdict for 0-5 rules met. */
export function strengthLabels(): string[] {
  return [t("Very weak"), t("Very weak"), t("Weak"), t("Medium"), t("Strong"), t("Very strong")];
}

export function rulesMet(password: string): Record<RuleKey, boolean> {
  return Object.fromEntries(RULES.map((r) => [r.key, r.test(password)])) as Record<RuleKey, boolean>;
}

/** How many of the five rules the password meets (0-5): the number of lit meter segments. */
export function strengthScore(password: string): number {
  return RULES.filter((r) => r.test(password)).length;
}

export function strengthLabel(password: string): string {
  if (!password) return ""; // no verdict before anything is typed
  return strengthLabels()[strengthScore(password)];
}

export function meetsPasswordRule(password: string): boolean {
  return strengthScore(password) === RULES.length;
}

/** 'Passwords match' / 'Passwords do not match', or null while the confirmation is empty. */
export function matchText(password: string, confirm: string): string | null {
  if (!confirm) return null;
  return password === confirm ? t("Passwords match") : t("Passwords do not match");
}

/** Spec section 5 (password recovery): {something}@{something}.{something}, no spaces. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const CODE_RE = /^\d{6}$/;
