/**
 * Island "maintenance-page" (plain TypeScript, no React): opens the Request Maintenance, Filter
 * by and detail dialogs in place, previews and checks the image, auto-submits the page size, and
 * without signal keeps an Add Remark on the phone until it can be sent.
 *
 *   <div data-island="maintenance-page" data-props='{"maxBytes": 10485760}' hidden></div>
 */
import { offlineRemarks } from "../components/household/offline-entries";
import { enhancePage, type PageProps } from "../components/maintenance/page";
import { onIsland } from "../lib/island";

onIsland<PageProps>("maintenance-page", (_el, props) => {
  enhancePage(document, props);
  offlineRemarks(document);
});
