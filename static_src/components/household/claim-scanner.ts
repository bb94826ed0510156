/**
 * The claim scanner (plain TypeScript, no React): on the Redeem a claim page, scan the
 * resident's QR code with the phone's camera where the browser has BarcodeDetector, then fill the
 * code field and submit the form. Without BarcodeDetector, a camera or JavaScript the page stays a
 * plain form where staff type the code.
 */
import { t } from "../../lib/i18n";

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorClass = new (options?: { formats?: string[] }) => BarcodeDetectorLike;

const SCAN_INTERVAL_MS = 250;

function detectorClass(): BarcodeDetectorClass | undefined {
  return (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
}

/** A scanned text -> the claim code the form expects (the QR carries "SIBOL-" + code). */
export function codeFromScan(text: string): string | null {
  const match = /^(?:SIBOL-)?([A-Z2-9]{8})$/.exec(text.trim().toUpperCase());
  return match ? match[1] : null;
}

/** Shows the scanner in `host` and starts the camera, where the browser can scan a QR code. */
export async function startScanning(host: HTMLElement): Promise<void> {
  const Detector = detectorClass();
  const form = document.getElementById("redeem-form") as HTMLFormElement | null;
  const input = form?.querySelector<HTMLInputElement>("input[name=code]");
  const video = host.querySelector<HTMLVideoElement>("video");
  const status = host.querySelector<HTMLElement>("[role=status]");
  if (!Detector || !form || !input || !video || !navigator.mediaDevices?.getUserMedia) return;
  host.hidden = false;
  const say = (text: string) => {
    if (status) status.textContent = text;
  };
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
  } catch {
    say(t("The camera is not available: type the code below."));
    return;
  }
  video.srcObject = stream;
  await video.play();
  say(t("Point the camera at the resident's QR code."));
  const detector = new Detector({ formats: ["qr_code"] });
  const stop = () => {
    for (const track of stream.getTracks()) track.stop();
  };
  const tick = async () => {
    try {
      for (const found of await detector.detect(video)) {
        const code = codeFromScan(found.rawValue);
        if (code) {
          stop();
          input.value = code;
          say(t("Scanned {code}.", { code }));
          form.requestSubmit();
          return;
        }
      }
    } catch {
      // a frame the detector could not read: try the next one
    }
    window.setTimeout(tick, SCAN_INTERVAL_MS);
  };
  window.addEventListener("pagehide", stop, { once: true });
  void tick();
}
