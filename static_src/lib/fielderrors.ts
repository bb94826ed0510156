/**
 * Stale field errors clear as the field is corrected: when a field showing an error
 * (`.field--error`, from the server or an island) is edited and now has a value, its message is
 * hidden and aria-invalid dropped. The server checks again on submit.
 */
function fieldHasValue(control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): boolean {
  if (control instanceof HTMLInputElement && control.type === "file") return (control.files?.length ?? 0) > 0;
  return control.value.trim() !== "";
}

export function clearFieldError(control: Element): void {
  if (!(
    control instanceof HTMLInputElement ||
    control instanceof HTMLSelectElement ||
    control instanceof HTMLTextAreaElement
  ))
    return;
  const field = control.closest(".field");
  if (!field?.classList.contains("field--error") || !fieldHasValue(control)) return;
  field.classList.remove("field--error");
  for (const message of field.querySelectorAll<HTMLElement>(".field__error")) {
    message.textContent = "";
    message.hidden = true;
  }
  control.removeAttribute("aria-invalid");
}

/** Listens once on `root` for every form's input and change events. */
export function clearStaleErrors(root: Document | HTMLElement = document): void {
  const handler = (event: Event) => {
    if (event.target instanceof Element) clearFieldError(event.target);
  };
  root.addEventListener("input", handler);
  root.addEventListener("change", handler);
}

/**
 * Shows `message` as the field error of `control` (beside it, as the server's field macro does:
 * `.field--error`, `<p class="field__error" id="<id>-error">`, aria-invalid) and focuses it.
 */
export function showFieldError(control: HTMLElement, message: string): void {
  const field = control.closest(".field");
  if (!field) return;
  field.classList.add("field--error");
  const id = `${control.id}-error`;
  let note = field.querySelector<HTMLElement>(".field__error");
  if (!note) {
    note = control.ownerDocument.createElement("p");
    note.className = "field__error";
    note.id = id;
    field.append(note);
  }
  note.textContent = message;
  note.hidden = false;
  control.setAttribute("aria-invalid", "true");
  const described = (control.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  if (note.id && !described.includes(note.id))
    control.setAttribute("aria-describedby", [...described, note.id].join(" "));
  control.focus();
}
