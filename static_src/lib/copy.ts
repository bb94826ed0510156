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
