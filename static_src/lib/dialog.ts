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

/** Opens a dialog modally (again if it was open, so it becomes modal); jsdom gets `open`. */
export function openDialog(dialog: HTMLDialogElement, { focusField = false }: OpenOptions = {}): void {
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
