/**
 * Island "household-page" (plain TypeScript, no React): the Household page's dialogs open in place,
 * the Edit Schedule area becomes chips, the Point System's Edit enables its inputs, and an image
 * over 10 MB is refused before it is sent, and without signal Record waste keeps its entry on the
 * phone until it can be sent. Everything also works without it (links and forms).
 */
import { offlineRecordWaste } from "../components/household/offline-entries";
import { areaChips, pointsEditor, previewEarnings, wirePageDialogs } from "../components/household/page";
import { onIsland, whenReady } from "../lib/island";

whenReady(() => {
  wirePageDialogs(document);
  previewEarnings(document);
  offlineRecordWaste(document);
});
onIsland("household-chips", areaChips);
onIsland("household-points", pointsEditor);
