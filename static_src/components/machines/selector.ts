/**
 * The machine selector: a type-ahead combobox over /api/machines (no React). Typing asks for the
 * first matches (`q`, `per_page`, `count=0`: no total needed); choosing one calls `onChoose`.
 * Arrow keys move through the options, Enter chooses, Escape closes the list.
 */
import { api, errorText } from "../../lib/api";
import { listOf, type Machine } from "./types";
import { t } from "../../lib/i18n";

export const SELECTOR_LIMIT = 8;
export const DEBOUNCE_MS = 150;

export interface SelectorOptions {
  current: { id: number; name: string } | null;
  onChoose: (machine: Machine) => void;
}

let counter = 0;

export function createSelector(host: HTMLElement, { current, onChoose }: SelectorOptions): HTMLInputElement {
  const id = `machine-combo-${++counter}`;
  host.replaceChildren();
  const wrap = document.createElement("div");
  wrap.className = "combo";
  const label = document.createElement("label");
  label.className = "sr-only";
  label.htmlFor = `${id}-input`;
  label.textContent = t("Machine");
  const input = document.createElement("input");
  input.id = `${id}-input`;
  input.type = "text";
  input.autocomplete = "off";
  input.placeholder = t("Type a machine name");
  input.value = current?.name ?? "";
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("aria-controls", `${id}-list`);
  const list = document.createElement("ul");
  list.id = `${id}-list`;
  list.className = "combo__list";
  list.setAttribute("role", "listbox");
  list.hidden = true;
  wrap.append(label, input, list);
  host.append(wrap);

  let results: Machine[] = [];
  let active = -1;
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function close() {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  }

  function note(text: string) {
    const li = document.createElement("li");
    li.className = "combo__note";
    li.textContent = text;
    list.replaceChildren(li);
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
  }

  function render() {
    if (results.length === 0) return note(t("No machines found"));
    list.replaceChildren(
      ...results.map((m, i) => {
        const li = document.createElement("li");
        li.id = `${id}-opt-${i}`;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", String(i === active));
        li.dataset.machineId = String(m.machine_id);
        li.textContent = m.Name;
        li.addEventListener("mousedown", (event) => {
          event.preventDefault(); // keep focus in the input until chosen
          choose(i);
        });
        return li;
      }),
    );
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    if (active >= 0) input.setAttribute("aria-activedescendant", `${id}-opt-${active}`);
  }

  function choose(i: number) {
    const machine = results[i];
    if (!machine) return;
    input.value = machine.Name;
    close();
    onChoose(machine);
  }

  async function search(q: string) {
    const mine = ++seq;
    const params = new URLSearchParams({ q, page: "1", per_page: String(SELECTOR_LIMIT), count: "0" });
    try {
      const payload = await api.get(`/api/machines?${params.toString()}`);
      if (mine !== seq) return; // a later keystroke answered first
      results = listOf<Machine>(payload);
      active = results.length ? 0 : -1;
      render();
    } catch (err) {
      if (mine !== seq) return;
      results = [];
      note(errorText(err, t("Failed to load machine data"), { showStatus: true }));
    }
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(() => void search(input.value.trim()), DEBOUNCE_MS);
  }

  input.addEventListener("input", schedule);
  input.addEventListener("focus", () => {
    input.select();
    void search(input.value.trim() === current?.name ? "" : input.value.trim());
  });
  input.addEventListener("blur", () => {
    close();
    if (current && input.value.trim() === "") input.value = current.name;
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (list.hidden) return void search(input.value.trim());
      const step = event.key === "ArrowDown" ? 1 : -1;
      active = results.length ? (active + step + results.length) % results.length : -1;
      render();
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (!list.hidden && active >= 0) choose(active);
    } else if (event.key === "Escape") {
      close();
    }
  });
  return input;
}

export interface SelectorIslandProps {
  machine: { id: number; name: string } | null;
  tab: string;
  q: string;
}

/** The machines tab's selector: choosing a machine reloads the tab for it (?machine=ID, the search kept). */
export function machineTabSelector(el: HTMLElement, props: SelectorIslandProps): void {
  createSelector(el, {
    current: props.machine,
    onChoose: (machine) => {
      const params = new URLSearchParams({ tab: props.tab, machine: String(machine.machine_id) });
      if (props.q) params.set("q", props.q);
      window.location.assign(`${window.location.pathname}?${params.toString()}`);
    },
  });
}
