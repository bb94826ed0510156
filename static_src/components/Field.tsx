import type { ReactNode } from "react";

/** A form field as templates/macros/forms.html's field(): label, control, hint. */
export function Field({
  id,
  label,
  required = false,
  hint,
  children,
}: {
  id: string;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="field">
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
    </div>
  );
}
