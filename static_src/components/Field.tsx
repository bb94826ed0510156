import type { ReactNode } from "react";

/** A form field as templates/macros/forms.html's field(): label, control, hint. */
export function Field({
  id,
  label,
  required = false,
  hint,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  /** A field error shown under the control (id "<id>-error", for its aria-describedby). */
  error?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={error ? "field field--error" : "field"}>
      <label htmlFor={id}>
        {label}
        {required && (
          <>
            {" "}
            <span className="req" aria-hidden="true">
              *
            </span>
          </>
        )}
      </label>
      {children}
      {hint && (
        <small className="field__hint" id={`${id}-hint`}>
          {hint}
        </small>
      )}
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
