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
  PASSWORD_RULE_MESSAGE,
  RULES,
  matchText,
  meetsPasswordRule,
  rulesMet,
  strengthLabel,
  strengthScore,
} from "./password";

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
        <p className={`pw-match ${match === "Passwords match" ? "pw-match--ok" : "pw-match--bad"}`} aria-live="polite">
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
            {r.label}
          </li>
        ))}
      </ul>
    </>
  );
}

function PasswordInput(props: {
  id: string;
  label: string;
  value: string;
  shown: boolean;
  onChange: (v: string) => void;
  onToggle: () => void;
}) {
  return (
    <Field id={props.id} label={props.label}>
      <div className="input-group">
        <input
          id={props.id}
          type={props.shown ? "text" : "password"}
          autoComplete="new-password"
          maxLength={256}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
        <button
          type="button"
          className="btn btn--ghost input-group__btn"
          aria-pressed={props.shown}
          aria-label={props.shown ? `Hide ${props.label.toLowerCase()}` : `Show ${props.label.toLowerCase()}`}
          onClick={props.onToggle}
        >
          {props.shown ? "Hide" : "Show"}
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
      setError("Please enter a valid email.");
      return;
    }
    setLoading(true);
    try {
      const res = await api.post<Message>("/api/auth/forgot-password", { email: email.trim() });
      setInfo(res?.debugCode ? `Debug code: ${res.debugCode}` : res?.message || "Reset code sent. Check your email.");
      setCode("");
      setStep("verify");
    } catch (err) {
      setError(errorText(err, "Failed to request reset"));
    } finally {
      setLoading(false);
    }
  }

  async function verifyCode() {
    setError("");
    setInfo("");
    if (!CODE_RE.test(code)) {
      setError("Code must be a 6-digit number.");
      return;
    }
    setLoading(true);
    try {
      const res = await api.post<Message>("/api/auth/verify-reset-code", { email: email.trim(), code });
      setInfo(res?.message || "Code verified. Enter your new password.");
      setStep("reset");
    } catch (err) {
      setError(errorText(err, "Invalid code"));
    } finally {
      setLoading(false);
    }
  }

  async function resetPassword() {
    setError("");
    setInfo("");
    if (!meetsPasswordRule(newPassword)) {
      setError(PASSWORD_RULE_MESSAGE);
      return;
    }
    if (newPassword !== confirm) {
      window.alert("Passwords do not match");
      return;
    }
    setLoading(true);
    try {
      await api.post<Message>("/api/auth/reset-password", { email: email.trim(), code, newPassword });
      setStep("done");
    } catch (err) {
      setError(errorText(err, "Failed to reset password"));
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
          <Field id="fp-email" label="Enter your account email">
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
            {loading ? "Sending…" : "Send Reset Code"}
          </DialogActions>
        </>
      ) : null}

      {step === "verify" ? (
        <>
          <p id="fp-code-label">Enter 6-digit code</p>
          <CodeInput value={code} onChange={setCode} labelledBy="fp-code-label" autoFocus />
          <DialogActions cancel="Back" onCancel={() => { setError(""); setInfo(""); setStep("email"); }} busy={loading}>
            Verify Code
          </DialogActions>
          <p className="fp-resend">
            Didn't get an email?{" "}
            <button type="button" onClick={() => void requestCode()} disabled={loading}>
              Resend code
            </button>
          </p>
        </>
      ) : null}

      {step === "reset" ? (
        <>
          <PasswordInput id="fp-new" label="New password" value={newPassword} shown={showNew}
            onChange={setNewPassword} onToggle={() => setShowNew((s) => !s)} />
          <PasswordInput id="fp-confirm" label="Confirm password" value={confirm} shown={showConfirm}
            onChange={setConfirm} onToggle={() => setShowConfirm((s) => !s)} />
          <PasswordChecks password={newPassword} confirm={confirm} />
          <DialogActions cancel="Back" onCancel={() => { setError(""); setInfo(""); setStep("verify"); }} busy={loading}>
            Reset Password
          </DialogActions>
        </>
      ) : null}

      {step === "done" ? (
        <>
          <p className="banner banner--success" role="status">Your password was reset successfully.</p>
          <div className="modal__actions">
            <button type="button" className="btn btn--primary" onClick={close}>
              Close
            </button>
          </div>
        </>
      ) : null}
    </form>
  );
}

export default ForgotPassword;
