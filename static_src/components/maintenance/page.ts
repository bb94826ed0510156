/**
 * Behaviour of the Maintenance page (no React): the server renders every dialog and form; this
 * opens the dialogs in place, previews and checks the chosen image, and tidies the address bar.
 */

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/** Query parameters that only open a dialog; removed from the address when it closes. */
export const DIALOG_PARAMS = ["new", "filters", "request"];

export interface PageProps {
  maxBytes?: number;
}

/** Why a chosen file cannot be uploaded, or null when it may be. */
export function imageProblem(file: { name: string; type: string; size: number }, maxBytes: number): string | null {
  if (!IMAGE_TYPES.includes(file.type)) {
    return `${file.name || "The file"} is not an image (PNG, JPEG, GIF or WebP).`;
  }
  if (file.size > maxBytes) return "The image must be 10 MB or smaller.";
  if (file.size === 0) return `${file.name || "The file"} is empty.`;
  return null;
}

/** The address without the parameters that open a dialog. */
export function withoutDialogParams(href: string): string {
  const url = new URL(href);
  for (const name of DIALOG_PARAMS) url.searchParams.delete(name);
  return url.pathname + (url.search ? url.search : "") + url.hash;
}

function openModal(dialog: HTMLDialogElement): void {
  if (dialog.open) dialog.close();
  dialog.showModal();
}

function tidyAddressOnClose(dialog: HTMLDialogElement): void {
  dialog.addEventListener("close", () => {
    const clean = withoutDialogParams(window.location.href);
    const current = window.location.pathname + window.location.search + window.location.hash;
    if (clean !== current) window.history.replaceState(null, "", clean);
  });
}

function setFieldError(form: HTMLElement, name: string, message: string | null): void {
  const error = form.querySelector<HTMLElement>(`[data-error-for="${name}"]`);
  if (!error) return;
  error.textContent = message ?? "";
  error.hidden = !message;
  error.closest(".field")?.classList.toggle("field--error", Boolean(message));
}

function enhanceUpload(form: HTMLFormElement, maxBytes: number): void {
  const input = form.querySelector<HTMLInputElement>('input[type="file"][name="file"]');
  const preview = form.querySelector<HTMLElement>("#mnt-preview");
  const img = form.querySelector<HTMLImageElement>("#mnt-preview-img");
  const name = form.querySelector<HTMLElement>("#mnt-preview-name");
  const remove = form.querySelector<HTMLButtonElement>("#mnt-file-remove");
  if (!input || !preview || !img || !name || !remove) return;
  let objectUrl: string | null = null;

  const clear = () => {
    input.value = "";
    preview.hidden = true;
    img.removeAttribute("src");
    if (objectUrl) URL.revokeObjectURL(objectUrl);
    objectUrl = null;
  };

  input.addEventListener("change", () => {
    const file = input.files?.[0];
    if (!file) return clear();
    const problem = imageProblem(file, maxBytes);
    setFieldError(form, "file", problem);
    if (problem) return clear();
    if (objectUrl) URL.revokeObjectURL(objectUrl);
    objectUrl = URL.createObjectURL(file);
    img.src = objectUrl;
    name.textContent = file.name;
    preview.hidden = false;
  });
  remove.addEventListener("click", () => {
    clear();
    setFieldError(form, "file", null);
    input.focus();
  });
}

function isInteractive(target: EventTarget | null): boolean {
  return target instanceof Element && Boolean(target.closest("a, button, input, select, textarea, label"));
}

export function enhancePage(root: Document, props: PageProps): void {
  const maxBytes = props.maxBytes ?? 10 * 1024 * 1024;

  for (const dialog of root.querySelectorAll<HTMLDialogElement>("dialog.modal")) {
    tidyAddressOnClose(dialog);
    if (dialog.hasAttribute("open")) openModal(dialog); // opened by the server: make it modal
  }

  for (const link of root.querySelectorAll<HTMLElement>("[data-open-dialog]")) {
    link.addEventListener("click", (event) => {
      const dialog = root.getElementById(link.dataset.openDialog ?? "");
      if (!(dialog instanceof HTMLDialogElement)) return; // let the link load the page
      event.preventDefault();
      openModal(dialog);
    });
  }

  for (const row of root.querySelectorAll<HTMLTableRowElement>("tr[data-href]")) {
    row.addEventListener("click", (event) => {
      if (isInteractive(event.target)) return;
      window.location.assign(row.dataset.href ?? "");
    });
  }

  for (const select of root.querySelectorAll<HTMLSelectElement>("select[data-autosubmit]")) {
    select.addEventListener("change", () => select.form?.requestSubmit());
  }

  for (const button of root.querySelectorAll<HTMLButtonElement>("button[data-confirm]")) {
    button.addEventListener("click", (event) => {
      if (!window.confirm(button.dataset.confirm ?? "Are you sure?")) event.preventDefault();
    });
  }

  const form = root.querySelector<HTMLFormElement>("#mnt-request-form");
  if (form) enhanceUpload(form, maxBytes);
}
