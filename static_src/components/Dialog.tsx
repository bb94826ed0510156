/**
 * The one dialog component: the same <dialog class="modal"> markup as templates/macros/modal.html,
 * shown modally while mounted through lib/dialog.ts. Escape or the close button call onClose.
 */
import { useEffect, useRef, type ReactNode } from "react";
import { closeDialog, openDialog } from "../lib/dialog";
import { t } from "../lib/i18n";

export function Dialog({
  id,
  title,
  onClose,
  className,
  closeOnBackdrop = false,
  children,
}: {
  id: string;
  title: ReactNode;
  onClose: () => void;
  className?: string;
  /** A press on the backdrop (outside the dialog's box) closes it too. */
  closeOnBackdrop?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) openDialog(dialog);
    return () => closeDialog(dialog);
  }, []);

  return (
    <dialog
      ref={ref}
      id={id}
      className={className ? `modal ${className}` : "modal"}
      role="dialog" // the implicit role, spelled out for selectors such as [role=dialog]
      aria-labelledby={`${id}-title`}
      onMouseDown={(event) => {
        if (closeOnBackdrop && event.target === event.currentTarget) onClose();
      }}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="modal__head">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" className="modal__close" aria-label={t("Close")} onClick={onClose}>
          &times;
        </button>
      </div>
      <div className="modal__body">{children}</div>
    </dialog>
  );
}

/** A dialog form's buttons: Cancel (or Back) and the submit button, both off while `busy`. */
export function DialogActions({
  cancel = t("Cancel"),
  onCancel,
  cancelDisabled,
  busy,
  children,
}: {
  cancel?: string;
  onCancel: () => void;
  cancelDisabled?: boolean;
  busy: boolean;
  children: ReactNode;
}) {
  return (
    <div className="modal__actions">
      <button type="button" className="btn" onClick={onCancel} disabled={cancelDisabled}>
        {cancel}
      </button>
      <button type="submit" className="btn btn--primary" disabled={busy}>
        {children}
      </button>
    </div>
  );
}
