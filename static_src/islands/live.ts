/** Live regions on a signed-in page (no React): the bell, and the panels marked data-live. */
import { whenReady } from "../lib/island";
import { startLive } from "../lib/live";

whenReady(() => {
  if (document.querySelector("[data-live]")) startLive();
});
