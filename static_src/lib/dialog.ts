/**
 * The one way to open and close a dialog, for plain-TypeScript pages and React islands alike.
 * Dialogs are <dialog class="modal"> elements (templates/macros/modal.html, or the Dialog
 * component); without JavaScript the server renders them open from a link's address.
 *
 *   <a href="?modal=add" data-open-dialog="add-dialog">Add</a>      opens #add-dialog in place
 *   <a href="?" data-close-dialog>Cancel</a>                         closes the dialog it is in
 */

export interface OpenOptions {
  /** Focus the dialog's first field (else the browser focuses its first focusable element). */
  focusField?: boolean;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
const returnTo = new WeakMap<HTMLDialogElement, HTMLElement>();

/** The elements Tab can reach inside `dialog`, in order (hidden ones left out). */
export function focusables(dialog: HTMLElement): HTMLElement[] {
  return Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) =>
      !el.closest("[hidden]") &&
      getComputedStyle(el).display !== "none" &&
      getComputedStyle(el).visibility !== "hidden",
  );
}

/** Tab and Shift+Tab cycle inside the dialog: focus never leaves it while open. */
function trapFocus(dialog: HTMLDialogElement): void {
  if (dialog.dataset.focusTrap) return;
  dialog.dataset.focusTrap = "1";
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const items = focusables(dialog);
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    const active = dialog.ownerDocument.activeElement;
    if (event.shiftKey && (active === first || !dialog.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  });
  dialog.addEventListener("close", () => restoreFocus(dialog));
}

/** Focus goes back to what had it before the dialog opened (once). */
function restoreFocus(dialog: HTMLDialogElement): void {
  const target = returnTo.get(dialog);
  returnTo.delete(dialog);
  if (target?.isConnected) target.focus();
}

/** Opens a dialog modally (again if it was open, so it becomes modal); jsdom gets `open`. */
export function openDialog(dialog: HTMLDialogElement, { focusField = false }: OpenOptions = {}): void {
  const active = dialog.ownerDocument.activeElement;
  if (active instanceof HTMLElement && active !== dialog.ownerDocument.body && !dialog.contains(active)) {
    returnTo.set(dialog, active);
  }
  trapFocus(dialog);
  if (typeof dialog.showModal === "function") {
    if (dialog.open) dialog.close();
    dialog.showModal();
  } else {
    dialog.setAttribute("open", ""); // jsdom and old browsers
  }
  if (focusField) dialog.querySelector<HTMLElement>("input:not([type=hidden]), select, textarea")?.focus();
}

export function closeDialog(dialog: HTMLDialogElement): void {
  if (typeof dialog.close === "function") {
    if (dialog.open) dialog.close();
  } else {
    dialog.removeAttribute("open");
  }
  restoreFocus(dialog);
}

export interface WireOptions extends OpenOptions {
  /** Runs after a `[data-close-dialog]` element closed its dialog (the element is passed). */
  onClose?: (dialog: HTMLDialogElement, closer: HTMLElement) => void;
}

/**
 * Wires a page's dialogs: `[data-open-dialog=id]` opens that dialog instead of following its link,
 * `[data-close-dialog]` closes the dialog it is in instead of following its link, and a dialog
 * the server rendered open becomes modal.
 */
export function wireDialogs(root: Document | HTMLElement = document, options: WireOptions = {}): void {
  const doc = root instanceof Document ? root : root.ownerDocument;
  for (const opener of root.querySelectorAll<HTMLElement>("[data-open-dialog]")) {
    opener.addEventListener("click", (event) => {
      const dialog = doc.getElementById(opener.dataset.openDialog ?? "");
      if (!(dialog instanceof HTMLDialogElement)) return; // let the link load the page
      event.preventDefault();
      openDialog(dialog, options);
    });
  }
  for (const dialog of root.querySelectorAll<HTMLDialogElement>("dialog.modal")) {
    wireClosers(dialog, options);
    if (dialog.hasAttribute("open")) openDialog(dialog, options); // opened by the server
  }
}

/** `[data-close-dialog]` elements inside `dialog` close it (for dialogs added later). */
function wireClosers(dialog: HTMLDialogElement, options: WireOptions = {}): void {
  for (const closer of dialog.querySelectorAll<HTMLElement>("[data-close-dialog]")) {
    closer.addEventListener("click", (event) => {
      event.preventDefault();
      closeDialog(dialog);
      options.onClose?.(dialog, closer);
    });
  }
}
