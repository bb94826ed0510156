/**
 * Destructive actions ask first: a submit button or form with data-confirm="<what will
 * happen>" asks in place; yes adds confirmed=1 so the server does not ask again (without
 * JavaScript the server answers a confirmation page instead, sibol/safe_actions.py).
 * The Undo offer (#undo, data-undo-seconds) goes away when its time is up.
 */
export function markConfirmed(form: HTMLFormElement): void {
  let flag = form.querySelector<HTMLInputElement>("input[name=confirmed]");
  if (!flag) {
    flag = form.ownerDocument.createElement("input");
    flag.type = "hidden";
    flag.name = "confirmed";
    form.append(flag);
  }
  flag.value = "1";
}

/** Asks with `message`; true (and the form marked confirmed) when the person agrees. */
export function confirmAction(form: HTMLFormElement, message: string): boolean {
  if (!window.confirm(message)) return false;
  markConfirmed(form);
  return true;
}

export function wireConfirmations(doc: Document = document): void {
  doc.addEventListener("submit", (event) => {
    if (event.defaultPrevented) return; // an island handles this form itself
    const form = event.target as HTMLFormElement;
    const submitter = (event as SubmitEvent).submitter;
    const message = submitter?.dataset.confirm ?? form.dataset?.confirm;
    if (!message || submitter?.getAttribute("formmethod") === "dialog") return;
    if (!confirmAction(form, message)) event.preventDefault();
  });
}

export function expireUndo(doc: Document = document): void {
  const offer = doc.getElementById("undo");
  const seconds = Number(offer?.dataset.undoSeconds ?? 0);
  if (offer && seconds > 0) window.setTimeout(() => offer.remove(), seconds * 1000);
}
