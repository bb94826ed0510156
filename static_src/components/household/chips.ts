/**
 * A chip editor without React: type an area and press Enter to add it, × removes it. Each chip
 * is a hidden input named `name`, so the surrounding form posts one value per chip.
 */
import { t } from "../../lib/i18n";

export interface ChipEditorOptions {
  name: string;
  areas: string[];
  inputId?: string;
  maxLength?: number;
}

/** Adds `value` to `list` (trimmed, spaces collapsed, case-insensitive duplicates skipped). */
export function addChip(list: string[], value: string, maxLength = 100): string[] {
  const clean = value.split(/\s+/).filter(Boolean).join(" ").slice(0, maxLength);
  if (!clean || list.some((item) => item.toLowerCase() === clean.toLowerCase())) return list;
  return [...list, clean];
}

export interface ChipEditor {
  values(): string[];
  /** Turns text still in the box into a chip (the form calls this before it submits). */
  commit(): void;
}

export function createChipEditor(host: HTMLElement, options: ChipEditorOptions): ChipEditor {
  const old = host.querySelector<HTMLInputElement>("input");
  const inputId = options.inputId ?? old?.id ?? `${options.name}-chips`;
  const describedBy = old?.getAttribute("aria-describedby");
  let chips = options.areas.reduce<string[]>((list, area) => addChip(list, area), []);

  host.replaceChildren();
  const list = document.createElement("ul");
  list.className = "chips";
  list.setAttribute("aria-label", t("Areas"));
  const input = document.createElement("input");
  input.type = "text";
  input.id = inputId;
  input.maxLength = options.maxLength ?? 100;
  input.placeholder = t("Type an area, press Enter");
  input.setAttribute("enterkeyhint", "enter");
  if (describedBy) input.setAttribute("aria-describedby", describedBy);
  const hidden = document.createElement("div");
  hidden.hidden = true;
  host.append(list, input, hidden);

  function render() {
    list.replaceChildren(
      ...chips.map((area, index) => {
        const item = document.createElement("li");
        item.className = "chip";
        const label = document.createElement("span");
        label.textContent = area;
        const remove = document.createElement("button");
        remove.type = "button";
        remove.textContent = "×";
        remove.setAttribute("aria-label", t("Remove {area}", { area }));
        remove.addEventListener("click", () => {
          chips = chips.filter((_, i) => i !== index);
          render();
          input.focus();
        });
        item.append(label, remove);
        return item;
      }),
    );
    hidden.replaceChildren(
      ...chips.map((area) => {
        const field = document.createElement("input");
        field.type = "hidden";
        field.name = options.name;
        field.value = area;
        return field;
      }),
    );
  }

  function commit() {
    if (input.value.trim()) {
      chips = addChip(chips, input.value, input.maxLength);
      input.value = "";
      render();
    }
  }

  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault(); // Enter adds a chip; it must not submit the form
      commit();
    } else if (event.key === "Backspace" && input.value === "" && chips.length > 0) {
      chips = chips.slice(0, -1);
      render();
    }
  });
  render();
  return { values: () => [...chips], commit };
}
