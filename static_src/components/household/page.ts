/**
 * The Household page's behaviours (plain TypeScript, no React): dialogs that open in place, the
 * image size check, the points preview of Record waste, the area chips and the Point System's Edit.
 */
import { createChipEditor } from "./chips";
import { pointsForKg } from "./points";
import { wireDialogs } from "../../lib/dialog";
import { formatNumber, t } from "../../lib/i18n";

export interface ChipsProps {
  name?: string;
  areas?: string[];
}

/** After Cancel: the server opened this dialog from the address (?modal=, ?edit=, ?record=,
 * ?claim=), so the address becomes the Cancel link's. */
function dropDialogAddress(_dialog: HTMLDialogElement, cancel: HTMLElement) {
  const href = cancel.getAttribute("href");
  if (href && location.search.match(/[?&](modal|edit|record|claim)=/)) history.replaceState(null, "", href);
}

/** The page's dialogs open in place; an image over its `data-max-bytes` is refused before it is sent. */
export function wirePageDialogs(root: Document): void {
  wireDialogs(root, { focusField: true, onClose: dropDialogAddress });
  for (const file of root.querySelectorAll<HTMLInputElement>("input[type=file][data-max-bytes]")) {
    file.addEventListener("change", () => {
      const max = Number(file.dataset.maxBytes);
      const error = root.getElementById(`${file.id}-error`);
      const tooBig = Array.from(file.files ?? []).some((f) => f.size > max);
      const message = tooBig ? t("The image is larger than 10 MB. Choose a smaller image.") : "";
      file.setCustomValidity(message);
      if (error) {
        error.textContent = message;
        error.hidden = !tooBig;
      }
      file.closest(".field")?.classList.toggle("field--error", tooBig);
      if (tooBig) file.value = "";
    });
  }
}

/**
 * Record waste: shows the points the typed kilograms earn under the saved Point System rule
 * (the server converts again on save; this is only a preview).
 */
export function previewEarnings(root: ParentNode): void {
  const form = root.querySelector<HTMLFormElement>("form[data-rule-g][data-rule-points]");
  const input = form?.querySelector<HTMLInputElement>("input[name=wasteKg]");
  const preview = form?.querySelector<HTMLElement>("[data-earn-preview]");
  if (!form || !input || !preview) return;
  const update = () => {
    const earned = pointsForKg(input.value, Number(form.dataset.ruleG), Number(form.dataset.rulePoints));
    preview.hidden = earned === null;
    preview.textContent = earned === null ? "" : t("Earns {points} points", { points: formatNumber(earned) });
  };
  input.addEventListener("input", update);
  update();
}

/** The Edit Schedule's area field becomes chips; the form's submit writes them back first. */
export function areaChips(host: HTMLElement, props: ChipsProps): void {
  const editor = createChipEditor(host, { name: props.name ?? "area", areas: props.areas ?? [] });
  host.closest("form")?.addEventListener("submit", () => editor.commit());
}

/** The Point System form: Edit enables its inputs, Save sends them and disables them again. */
export function pointsEditor(form: HTMLElement): void {
  const edit = form.querySelector<HTMLAnchorElement>("[data-points-edit]");
  const save = form.querySelector<HTMLButtonElement>("[data-points-save]");
  const inputs = Array.from(form.querySelectorAll<HTMLInputElement>("input:not([type=hidden])"));
  if (!edit || !save) return;
  edit.addEventListener("click", (event) => {
    event.preventDefault();
    for (const input of inputs) input.disabled = false;
    edit.hidden = true;
    save.hidden = false;
    inputs[0]?.focus();
  });
  form.addEventListener("submit", () => {
    // Save disables the inputs again; their values travel in hidden copies.
    for (const input of inputs) {
      const copy = document.createElement("input");
      copy.type = "hidden";
      copy.name = input.name;
      copy.value = input.value;
      form.append(copy);
      input.disabled = true;
    }
    save.disabled = true;
  });
}
