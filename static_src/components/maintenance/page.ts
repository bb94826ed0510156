/**
 * Behaviour of the Maintenance page (no React): the server renders every dialog and form; this
 * opens the dialogs in place (the detail dialog is fetched as the server renders it), checks the
 * request form before it is sent, previews the chosen image, and tidies the address bar.
 */
import { api } from "../../lib/api";
import { openDialog, wireDialogs } from "../../lib/dialog";
import { t } from "../../lib/i18n";

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/** Query parameters that only open a dialog; removed from the address when it closes. */
export const DIALOG_PARAMS = ["new", "filters", "request"];

export interface PageProps {
  maxBytes?: number;
}

/** Why a chosen file cannot be uploaded, or null when it may be. */
export function imageProblem(
  file: { name: string; type: string; size: number },
  maxBytes: number,
): string | null {
  if (!IMAGE_TYPES.includes(file.type)) {
    return file.name
      ? t("{name} is not an image (PNG, JPEG, GIF or WebP).", { name: file.name })
      : t("The file is not an image (PNG, JPEG, GIF or WebP).");
  }
  if (file.size > maxBytes) return t("The image must be 10 MB or smaller.");
  if (file.size === 0)
    return file.name ? t("{name} is empty.", { name: file.name }) : t("The file is empty.");
  return null;
}

/** The address without the parameters that open a dialog. */
export function withoutDialogParams(href: string): string {
  const url = new URL(href);
  for (const name of DIALOG_PARAMS) url.searchParams.delete(name);
  return url.pathname + (url.search ? url.search : "") + url.hash;
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

/** The HTML of a response that api.ts wrapped as {raw} (the page routes answer HTML). */
function rawHtml(payload: unknown): string | null {
  if (payload && typeof payload === "object" && "raw" in payload) {
    const raw = (payload as { raw: unknown }).raw;
    return typeof raw === "string" ? raw : null;
  }
  return null;
}

let loadingDetail = false;

/**
 * Opens a row's detail dialog without leaving the page: the same server-rendered (escaped) HTML
 * as `?request=<id>`. Any failure falls back to loading that address.
 */
export async function openDetail(row: HTMLElement): Promise<void> {
  const href = row.dataset.href ?? "";
  const source = row.dataset.dialogUrl;
  if (!source) {
    window.location.assign(href);
    return;
  }
  if (loadingDetail) return;
  loadingDetail = true;
  row.setAttribute("aria-busy", "true");
  try {
    const html = rawHtml(await api.get(source));
    const template = document.createElement("template");
    template.innerHTML = (html ?? "").trim();
    const dialog = template.content.querySelector("dialog");
    if (!dialog) throw new Error("The detail dialog did not load");
    document.getElementById(dialog.id)?.remove();
    (document.querySelector("main") ?? document.body).append(dialog);
    tidyAddressOnClose(dialog);
    window.history.replaceState(null, "", href); // a reload shows the same dialog
    openDialog(dialog);
  } catch {
    window.location.assign(href);
  } finally {
    loadingDetail = false;
    row.removeAttribute("aria-busy");
  }
}

export interface RequestValues {
  assignedTo: string;
  issue: string;
  priority: string;
  dueDate: string;
}

/** The request form's field errors, as the server would word them (it checks again). */
export function requestFormErrors(values: RequestValues, today: string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.assignedTo) errors.assignedTo = t("Assigned to is required.");
  if (!values.issue.trim()) errors.issue = t("Issue is required.");
  if (!values.priority) errors.priority = t("Priority is required.");
  if (!values.dueDate) errors.dueDate = t("Due date is required.");
  else if (!/^\d{4}-\d{2}-\d{2}$/.test(values.dueDate))
    errors.dueDate = t("Due date must be a date (YYYY-MM-DD).");
  else if (values.dueDate < today) errors.dueDate = t("Due date cannot be in the past.");
  return errors;
}

function checkBeforeSending(form: HTMLFormElement): void {
  form.addEventListener("submit", (event) => {
    const submitter = (event as SubmitEvent).submitter;
    if (submitter?.getAttribute("formmethod") === "dialog") return; // Cancel
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? "";
    const due = form.querySelector<HTMLInputElement>('input[name="dueDate"]');
    const errors = requestFormErrors(
      {
        assignedTo: value("assignedTo"),
        issue: value("issue"),
        priority: value("priority"),
        dueDate: value("dueDate"),
      },
      due?.min ?? "",
    );
    for (const name of ["assignedTo", "issue", "priority", "dueDate"])
      setFieldError(form, name, errors[name] ?? null);
    const first = Object.keys(errors)[0];
    if (first) {
      event.preventDefault();
      (form.elements.namedItem(first) as HTMLElement | null)?.focus();
      return;
    }
    // One request per click: a second press while the upload is on its way would post it twice.
    if (submitter instanceof HTMLButtonElement) {
      submitter.disabled = true;
      submitter.textContent = t("Assigning…");
    }
  });
}

export function enhancePage(root: Document, props: PageProps): void {
  const maxBytes = props.maxBytes ?? 10 * 1024 * 1024;

  for (const dialog of root.querySelectorAll<HTMLDialogElement>("dialog.modal")) tidyAddressOnClose(dialog);
  wireDialogs(root);

  for (const row of root.querySelectorAll<HTMLTableRowElement>("tr[data-href]")) {
    row.addEventListener("click", (event) => {
      const target = event.target instanceof Element ? event.target : null;
      const ownLink = target?.closest(".mnt-row__link");
      if (ownLink && (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0)) return;
      if (!ownLink && isInteractive(target)) return; // the image link, say
      event.preventDefault();
      void openDetail(row);
    });
  }

  const form = root.querySelector<HTMLFormElement>("#mnt-request-form");
  if (form) {
    enhanceUpload(form, maxBytes);
    checkBeforeSending(form);
  }
}
