/**
 * /reports/monthly: the Print button (hidden until this runs, the page reads fine without it)
 * opens the browser's print dialog; the print stylesheet does the rest.
 */
import { wirePrintButtons } from "../lib/forms";
import { whenReady } from "../lib/island";

whenReady(() => wirePrintButtons(document));
