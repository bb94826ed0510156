/**
 * The Forgot Password dialog (spec sections 2, 4, 5, 8): steps email -> verify -> reset -> done.
 * Errors show in a red banner, information in a blue one. Closing or cancelling returns to the
 * email step; opening clears the confirm field and the visibility toggles.
 */
import { useEffect, useState, type FormEvent } from "react";
import { api, errorText } from "../../lib/api";
import { closeDialog } from "../../lib/dialog";
import { DialogActions } from "../Dialog";
import { Field } from "../Field";
import { CodeInput } from "../CodeInput";
import {
  CODE_RE,
  EMAIL_RE,
  RULES,
  matchText,
  meetsPasswordRule,
  passwordRuleMessage,
  rulesMet,
  strengthLabel,
  strengthScore,
} from "./password";
import { t } from "../../lib/i18n";

export type Step = "email" | "verify" | "reset" | "done";

interface Message {
  message?: string;
  debugCode?: string;
}

export function PasswordChecks({ password, confirm }: { password: string; confirm: string }) {
  const match = matchText(password, confirm);
  const met = rulesMet(password);
  return (
    <>
      {match ? (
        <p
          className={`pw-match ${password === confirm ? "pw-match--ok" : "pw-match--bad"}`}
          aria-live="polite"
        >
          {match}
        </p>
      ) : null}
      <div className="pw-meter" data-score={strengthScore(password)} aria-hidden="true">
        {RULES.map((r) => (
          <span key={r.key} className="pw-meter__seg" />
        ))}
      </div>
      <p className="pw-meter__label" aria-live="polite">
        {strengthLabel(password)}
      </p>
      <ul className="pw-rules">
        {RULES.map((r) => (
          <li key={r.key} data-rule={r.key} data-met={String(met[r.key])}>
            {r.label()}
          </li>
        ))}
      </ul>
    </>
  );
}

function PasswordInput(props: {
  id: string;
  label: string;
  /** The toggle's names for screen readers, e.g. "Show new password" / "Hide new password". */
  showLabel: string;
  hideLabel: string;
  value: string;
  shown: boolean;
  onChange: (v: string) => void;
  onToggle: () => void;
  /** A field error shown beside the box (e.g. the passwords do not match). */
  error?: string;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error}>
      <div className="input-group">
        <input
          id={props.id}
          type={props.shown ? "text" : "password"}
          autoComplete="new-password"
          maxLength={256}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? `${props.id}-error` : undefined}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
        <button
          type="button"
          className="btn btn--ghost input-group__btn"
          aria-pressed={props.shown}
          aria-label={props.shown ? props.hideLabel : props.showLabel}
          onClick={props.onToggle}
        >
          {props.shown ? t("Hide") : t("Show")}
        </button>
      </div>
    </Field>
  );
}

export function ForgotPassword({ host }: { host?: HTMLElement }) {
  const [step, setStep] = useState<Step>("email");
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [showNew, setShowNew] = useState(false);
  const [showConfirm, setShowConfirm] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState("");
  const [confirmError, setConfirmError] = useState("");
  const [info, setInfo] = useState("");

  function resetAll() {
    setStep("email");
    setEmail("");
    setCode("");
    setNewPassword("");
    setConfirm("");
    setShowNew(false);
    setShowConfirm(false);
    setLoading(false);
    setError("");
    setInfo("");
  }

  const dialog = host?.closest("dialog") ?? null;

  useEffect(() => {
    if (!host) return;
    const onOpen = () => resetAll();
    host.addEventListener("dialog-open", onOpen);
    dialog?.addEventListener("close", onOpen);
    return () => {
      host.removeEventListener("dialog-open", onOpen);
      dialog?.removeEventListener("close", onOpen);
    };
  }, [host, dialog]);

  function close() {
    if (dialog) closeDialog(dialog);
    resetAll();
  }

  async function requestCode() {
    setError("");
    setInfo("");
    if (!EMAIL_RE.test(email.trim())) {
      setError(t("Please enter a valid email."));
      return;
    }
    setLoading(true);
    try {
      const res = await api.post<Message>("/api/auth/forgot-password", { email: email.trim() });
      setInfo(
        res?.debugCode
          ? t("Debug code: {code}", { code: res.debugCode })
          : res?.message || t("Reset code sent. Check your email."),
      );
      setCode("");
      setStep("verify");
    } catch (err) {
      setError(errorText(err, t("Failed to request reset")));
    } finally {
      setLoading(false);
    }
  }

  async function verifyCode() {
    setError("");
    setInfo("");
    if (!CODE_RE.test(code)) {
      setError(t("Code must be a 6-digit number."));
      return;
    }
    setLoading(true);
    try {
      const res = await api.post<Message>("/api/auth/verify-reset-code", { email: email.trim(), code });
      setInfo(res?.message || t("Code verified. Enter your new password."));
      setStep("reset");
    } catch (err) {
      setError(errorText(err, t("Invalid code")));
    } finally {
      setLoading(false);
    }
  }

  async function resetPassword() {
    setError("");
    setInfo("");
    if (!meetsPasswordRule(newPassword)) {
      setError(passwordRuleMessage());
      return;
    }
    if (newPassword !== confirm) {
      setConfirmError(t("Passwords do not match"));
      document.getElementById("fp-confirm")?.focus();
      return;
    }
    setLoading(true);
    try {
      await api.post<Message>("/api/auth/reset-password", { email: email.trim(), code, newPassword });
      setStep("done");
    } catch (err) {
      setError(errorText(err, t("Failed to reset password")));
    } finally {
      setLoading(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (loading) return;
    if (step === "email") void requestCode();
    else if (step === "verify") void verifyCode();
    else if (step === "reset") void resetPassword();
  }

  return (
    <form className="stack forgot-password" data-step={step} onSubmit={submit} noValidate>
      {error ? (
        <p className="banner banner--error" role="alert">
          {error}
        </p>
      ) : null}
      {info ? (
        <p className="banner banner--info" role="status">
          {info}
        </p>
      ) : null}

      {step === "email" ? (
        <>
          <Field id="fp-email" label={t("Enter your account email")}>
            <input
              id="fp-email"
              type="email"
              autoComplete="email"
              maxLength={254}
              value={email}
              autoFocus
              onChange={(e) => setEmail(e.target.value)}
            />
          </Field>
          <DialogActions onCancel={close} busy={loading}>
            {loading ? t("Sending…") : t("Send Reset Code")}
          </DialogActions>
        </>
      ) : null}

      {step === "verify" ? (
        <>
          <p id="fp-code-label">{t("Enter 6-digit code")}</p>
          <CodeInput value={code} onChange={setCode} labelledBy="fp-code-label" autoFocus />
          <DialogActions
            cancel={t("Back")}
            onCancel={() => {
              setError("");
              setInfo("");
              setStep("email");
            }}
            busy={loading}
          >
            {t("Verify Code")}
          </DialogActions>
          <p className="fp-resend">
            {t("Didn't get an email?")}{" "}
            <button type="button" onClick={() => void requestCode()} disabled={loading}>
              {t("Resend code")}
            </button>
          </p>
        </>
      ) : null}

      {step === "reset" ? (
        <>
          <PasswordInput
            id="fp-new"
            label={t("New password")}
            showLabel={t("Show new password")}
            hideLabel={t("Hide new password")}
            value={newPassword}
            shown={showNew}
            onChange={setNewPassword}
            onToggle={() => setShowNew((s) => !s)}
          />
          <PasswordInput
            id="fp-confirm"
            label={t("Confirm password")}
            showLabel={t("Show confirm password")}
            hideLabel={t("Hide confirm password")}
            value={confirm}
            shown={showConfirm}
            error={confirmError}
            onChange={(value) => {
              setConfirm(value);
              setConfirmError("");
            }}
            onToggle={() => setShowConfirm((s) => !s)}
          />
          <PasswordChecks password={newPassword} confirm={confirm} />
          <DialogActions
            cancel={t("Back")}
            onCancel={() => {
              setError("");
              setInfo("");
              setStep("verify");
            }}
            busy={loading}
          >
            {t("Reset Password")}
          </DialogActions>
        </>
      ) : null}

      {step === "done" ? (
        <>
          <p className="banner banner--success" role="status">
            {t("Your password was reset successfully.")}
          </p>
          <div className="modal__actions">
            <button type="button" className="btn btn--primary" onClick={close}>
              {t("Close")}
            </button>
          </div>
        </>
      ) : null}
    </form>
  );
}

export default ForgotPassword;
