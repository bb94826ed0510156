/** Small behaviours of server-rendered pages, shared by several of them (no React). */

/**
 * A `<select data-autosubmit>` (e.g. 'Records per page' in the pager macro) submits its form on
 * change, so the page size applies at once; without JavaScript the form's button does it.
 */
export function wireAutosubmit(root: ParentNode = document): void {
  for (const select of root.querySelectorAll<HTMLSelectElement>("select[data-autosubmit]")) {
    if (select.dataset.autosubmitBound) continue;
    select.dataset.autosubmitBound = "1";
    select.addEventListener("change", () => select.form?.requestSubmit());
  }
}

/** `[data-print]` buttons (hidden until this runs) open the browser's print dialog. */
export function wirePrintButtons(root: ParentNode = document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>("[data-print]")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
}

/**
 * Copy buttons: `<button data-copy="<element id>" data-copied="Copied" hidden>` copies that
 * element's text to the clipboard. The server renders them hidden (nothing to do without
 * JavaScript); here they are shown where the browser offers a clipboard.
 */
export function wireCopyButtons(doc: Document = document): void {
  if (!navigator.clipboard) return;
  for (const button of doc.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    const label = button.textContent ?? "";
    button.hidden = false;
    button.addEventListener("click", async () => {
      const text = doc.getElementById(button.dataset.copy ?? "")?.textContent ?? "";
      try {
        await navigator.clipboard.writeText(text.trim());
        button.textContent = button.dataset.copied || label;
      } catch {
        button.textContent = label; // refused (no permission): the text stays there to select
      }
    });
  }
}

/**
 * `<details data-dropdown>` menus (the City Admin's barangay switcher) close on Escape, giving
 * focus back to their summary, and when a click lands outside them; without JavaScript the
 * summary closes them.
 */
export function wireDropdowns(root: Document = document): void {
  const open = () => [...root.querySelectorAll<HTMLDetailsElement>("details[data-dropdown][open]")];
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    for (const menu of open()) {
      menu.open = false;
      menu.querySelector("summary")?.focus();
    }
  });
  root.addEventListener("click", (event) => {
    for (const menu of open()) if (!menu.contains(event.target as Node)) menu.open = false;
  });
}

/** The form helpers every signed-in page gets: auto-submitting selects, Copy buttons, dropdowns. */
export function wireForms(doc: Document = document): void {
  wireAutosubmit(doc);
  wireCopyButtons(doc);
  wireDropdowns(doc);
}
