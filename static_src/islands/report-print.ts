/**
 * /reports/monthly: the Print button (hidden until this runs, the page reads fine without it)
 * opens the browser's print dialog; the print stylesheet does the rest.
 */
import { whenReady } from "../lib/island";

whenReady(() => {
  for (const button of document.querySelectorAll<HTMLButtonElement>("[data-print]")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
});
