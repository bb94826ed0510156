/**
 * Island "collection-day" (plain TypeScript, no React): the running total of the kilograms typed
 * and the points they earn. The form works without it (one Save for the lot).
 */
import { runningTotal } from "../components/household/collection-day";
import { onIsland } from "../lib/island";

onIsland("collection-day", (form) => runningTotal(form as HTMLFormElement));
