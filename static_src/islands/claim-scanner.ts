/**
 * Island "claim-scanner" (plain TypeScript, no React): on the Redeem a claim page, scan the
 * resident's QR code with the phone's camera where the browser has BarcodeDetector, then fill the
 * code field and submit the form. Without BarcodeDetector, a camera or JavaScript the page stays a
 * plain form where staff type the code.
 */
import { startScanning } from "../components/household/claim-scanner";
import { onIsland } from "../lib/island";

onIsland("claim-scanner", (host) => {
  void startScanning(host);
});
