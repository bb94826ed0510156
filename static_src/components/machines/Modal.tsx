/** A <dialog> shown modally while mounted; Escape or the close button call onClose. */
import { useEffect, useRef, type ReactNode } from "react";

export function Modal({ id, title, onClose, children }: {
  id: string;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (typeof dialog.showModal === "function") {
      if (!dialog.open) dialog.showModal();
    } else {
      dialog.setAttribute("open", ""); // jsdom and old browsers
    }
    return () => {
      if (dialog.open && typeof dialog.close === "function") dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      id={id}
      className="modal"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="modal__head">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" className="modal__close" aria-label="Close" onClick={onClose}>
          &times;
        </button>
      </div>
      <div className="modal__body">{children}</div>
    </dialog>
  );
}
