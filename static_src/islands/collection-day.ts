/**
 * Island "collection-day" (plain TypeScript, no React): the running total of the kilograms typed,
 * and the offline part of the installable console (components/household/offline.ts). The form
 * works without it (one Save for the lot).
 */
import { collectionDay } from "../components/household/offline";
import { onIsland } from "../lib/island";

onIsland("collection-day", (form) => collectionDay(form as HTMLFormElement));
