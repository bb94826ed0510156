/**
 * The one confirmation dialog and the one result message of the islands (no window.confirm,
 * window.alert or window.prompt anywhere).
 *
 * - `ask(message, options)` opens a styled, modal <dialog> (the look of templates/confirm.html,
 *   the no-JavaScript confirmation page): labelled by its title, described by its message, focus
 *   kept inside and given back on close, Escape cancels. It resolves true on yes; with a `field`
 *   `askText` resolves the typed text (null when cancelled).
 * - `flash(message, kind)` shows a message in the page's flash area, as the server's flash
 *   (templates/partials/flash.html) looks: role=status, or role=alert for an error.
 * - Destructive forms ask first: a submit button or form with data-confirm="<what will happen>"
 *   asks in place; yes adds confirmed=1 so the server does not ask again (without JavaScript the
 *   server answers a confirmation page instead, sibol/web/safe_actions.py).
 * - The Undo offer (#undo, data-undo-seconds) goes away when its time is up or once it is used.
 */
import { closeDialog, openDialog } from "./dialog";
import { t } from "./i18n";

export interface AskField {
  label: string;
  /** The answer must be this word (any case) before yes is accepted, e.g. "Admin". */
  mustBe?: string;
  maxLength?: number;
  value?: string;
}

export interface AskOptions {
  title?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** A red yes button, for actions that take something away. */
  danger?: boolean;
  /** A text box answered with the yes (see askText). */
  field?: AskField;
}

const DIALOG_ID = "confirm-dialog";

function element<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attrs: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Builds the dialog afresh for one question (the previous one, if any, is replaced). */
function build(doc: Document, message: string, options: AskOptions): HTMLDialogElement {
  doc.getElementById(DIALOG_ID)?.remove();
  const dialog = element(doc, "dialog", {
    id: DIALOG_ID,
    class: "modal confirm-dialog",
    role: "alertdialog",
    "aria-labelledby": `${DIALOG_ID}-title`,
    "aria-describedby": `${DIALOG_ID}-message`,
  });
  const head = element(doc, "div", { class: "modal__head" });
  head.append(element(doc, "h2", { id: `${DIALOG_ID}-title` }, options.title ?? t("Please confirm")));
  const form = element(doc, "form", { class: "modal__body", novalidate: "" });
  form.append(element(doc, "p", { id: `${DIALOG_ID}-message` }, message));
  if (options.field) {
    const field = options.field;
    const wrap = element(doc, "div", { class: "field" });
    wrap.append(element(doc, "label", { for: `${DIALOG_ID}-input` }, field.label));
    const input = element(doc, "input", {
      id: `${DIALOG_ID}-input`,
      autocomplete: "off",
      maxlength: String(field.maxLength ?? 500),
      "aria-describedby": `${DIALOG_ID}-error`,
    });
    input.value = field.value ?? "";
    wrap.append(input, element(doc, "p", { id: `${DIALOG_ID}-error`, class: "field__error", hidden: "" }));
    form.append(wrap);
  }
  const actions = element(doc, "div", { class: "modal__actions" });
  actions.append(
    element(
      doc,
      "button",
      { type: "button", class: "btn", id: `${DIALOG_ID}-cancel` },
      options.cancelLabel ?? t("Cancel"),
    ),
    element(
      doc,
      "button",
      {
        type: "submit",
        class: `btn ${options.danger ? "btn--danger" : "btn--primary"}`,
        id: `${DIALOG_ID}-yes`,
      },
      options.confirmLabel ?? t("Confirm"),
    ),
  );
  form.append(actions);
  dialog.append(head, form);
  doc.body.append(dialog);
  return dialog;
}

/**
 * Asks `message` in the styled dialog; resolves the text typed into `options.field` (or "" when
 * there is no field) on yes, null on Cancel or Escape.
 */
export function askText(
  message: string,
  options: AskOptions = {},
  doc: Document = document,
): Promise<string | null> {
  const dialog = build(doc, message, options);
  const form = dialog.querySelector("form")!;
  const input = dialog.querySelector<HTMLInputElement>("input");
  const error = dialog.querySelector<HTMLElement>(".field__error");
  return new Promise((resolve) => {
    let answer: string | null = null;
    const finish = () => {
      closeDialog(dialog);
      dialog.remove();
      resolve(answer);
    };
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const typed = input?.value.trim() ?? "";
      const mustBe = options.field?.mustBe;
      if (input && error && mustBe && typed.toLowerCase() !== mustBe.toLowerCase()) {
        // A wrong word is said beside the box; the dialog stays open.
        error.textContent = t('Type "{word}" to go on.', { word: mustBe });
        error.hidden = false;
        input.setAttribute("aria-invalid", "true");
        input.focus();
        return;
      }
      answer = typed;
      finish();
    });
    dialog.querySelector(`#${DIALOG_ID}-cancel`)!.addEventListener("click", finish);
    // Escape (the browser's cancel) closes without an answer.
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      finish();
    });
    openDialog(dialog);
    (input ?? dialog.querySelector<HTMLElement>(`#${DIALOG_ID}-yes`))?.focus();
  });
}

/** Asks `message` in the styled dialog; true on yes. */
export async function ask(
  message: string,
  options: AskOptions = {},
  doc: Document = document,
): Promise<boolean> {
  return (await askText(message, { ...options, field: undefined }, doc)) !== null;
}

export type FlashKind = "success" | "info" | "error";

/**
 * Shows `message` at the top of the page's content, as a server flash looks, and brings it into
 * view; errors are announced at once (role=alert), the rest politely (role=status).
 */
export function flash(
  message: string,
  kind: FlashKind = "success",
  doc: Document = document,
  link?: { href: string; label: string },
): HTMLElement {
  let area = doc.querySelector<HTMLElement>("main .flashes");
  if (!area) {
    area = element(doc, "div", { class: "flashes" });
    const main = doc.querySelector("main") ?? doc.body;
    main.prepend(area);
  }
  const banner = element(
    doc,
    "p",
    { class: `banner banner--${kind}`, role: kind === "error" ? "alert" : "status", "data-flash": "" },
    message,
  );
  if (link) banner.append(" ", element(doc, "a", { href: link.href }, link.label));
  area.append(banner);
  banner.scrollIntoView?.({ block: "nearest" });
  return banner;
}

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
export async function confirmAction(
  form: HTMLFormElement,
  message: string,
  options: AskOptions = {},
): Promise<boolean> {
  if (!(await ask(message, { danger: true, ...options }, form.ownerDocument))) return false;
  markConfirmed(form);
  return true;
}

/** Forms let through once after a yes (their second submit event is the real one). */
const agreed = new WeakSet<HTMLFormElement>();

export function wireConfirmations(doc: Document = document): void {
  doc.addEventListener("submit", (event) => {
    if (event.defaultPrevented) return; // an island handles this form itself
    const form = event.target as HTMLFormElement;
    if (agreed.has(form)) {
      agreed.delete(form);
      return;
    }
    const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
    const message = submitter?.dataset.confirm ?? form.dataset?.confirm;
    if (!message || submitter?.getAttribute("formmethod") === "dialog") return;
    event.preventDefault();
    void confirmAction(form, message, { confirmLabel: submitter?.textContent?.trim() || undefined }).then(
      (yes) => {
        if (!yes) return;
        agreed.add(form);
        form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined);
      },
    );
  });
}

/** The Undo offer goes when its time is up, and as soon as it is used (its post is on its way). */
export function expireUndo(doc: Document = document): void {
  const offer = doc.getElementById("undo");
  const seconds = Number(offer?.dataset.undoSeconds ?? 0);
  if (offer && seconds > 0) window.setTimeout(() => offer.remove(), seconds * 1000);
  offer?.addEventListener("submit", () => {
    offer.hidden = true;
  });
}
