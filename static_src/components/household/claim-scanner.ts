/**
 * The claim scanner (plain TypeScript, no React): on the Redeem a claim page, scan the
 * resident's QR code with the phone's camera, then fill the code field and submit the form.
 * The browser's own BarcodeDetector reads the frames where it has one; elsewhere (Firefox, Safari
 * on older iPhones) jsQR does, loaded on demand as its own chunk so no other page pays for it.
 * Without a camera the scanner says to type the code; without JavaScript the page stays a plain
 * form where staff type the code.
 */
import { t } from "../../lib/i18n";

/** Reads a QR code's text from the current video frame, or null when the frame shows none. */
type FrameReader = (video: HTMLVideoElement) => Promise<string | null>;

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorClass = new (options?: { formats?: string[] }) => BarcodeDetectorLike;

const SCAN_INTERVAL_MS = 250;
/** The code this tab sent last: the page it opens restarts the camera, which may still see it. */
const LAST_SENT_KEY = "sibol-claim-scanner-sent";
/** Frames are scaled down to this width for jsQR: enough for a phone-held code, and quick. */
const DECODE_WIDTH = 640;

function detectorClass(): BarcodeDetectorClass | undefined {
  return (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
}

/** A scanned text -> the claim code the form expects (the QR carries "SIBOL-" + code). */
export function codeFromScan(text: string): string | null {
  const match = /^(?:SIBOL-)?([A-Z2-9]{8})$/.exec(text.trim().toUpperCase());
  return match ? match[1] : null;
}

/** The browser's BarcodeDetector as a frame reader (the first QR code's text). */
function nativeReader(Detector: BarcodeDetectorClass): FrameReader {
  const detector = new Detector({ formats: ["qr_code"] });
  return async (video) => {
    const found = await detector.detect(video);
    return found.length ? found[0].rawValue : null;
  };
}

/** jsQR as a frame reader: each frame is drawn on a canvas and its pixels decoded. */
async function decoderReader(): Promise<FrameReader> {
  const { default: jsQR } = await import("jsqr");
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  return (video) => {
    if (!context || !video.videoWidth) return Promise.resolve(null);
    const scale = Math.min(1, DECODE_WIDTH / video.videoWidth);
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const frame = context.getImageData(0, 0, canvas.width, canvas.height);
    const found = jsQR(frame.data, frame.width, frame.height, { inversionAttempts: "dontInvert" });
    return Promise.resolve(found ? found.data : null);
  };
}

function lastSent(): string | null {
  try {
    return sessionStorage.getItem(LAST_SENT_KEY);
  } catch {
    return null; // storage refused (private mode): a code seen again is sent again
  }
}

function remember(code: string): void {
  try {
    sessionStorage.setItem(LAST_SENT_KEY, code);
  } catch {
    // storage refused: nothing to remember with
  }
}

/** Says, in plain text beside the form, that this device has no camera to scan with. */
function showNoCamera(host: HTMLElement): void {
  const note = host.querySelector<HTMLElement>("[data-no-camera]");
  const video = host.querySelector<HTMLVideoElement>("video");
  if (video) video.hidden = true;
  if (note) {
    note.textContent = t("This device has no camera to scan with: type the code shown under the QR code.");
    note.hidden = false;
  }
  host.hidden = false;
}

/** Shows the scanner in `host` and starts the camera; with no camera, says to type the code. */
export async function startScanning(host: HTMLElement): Promise<void> {
  const form = document.getElementById("redeem-form") as HTMLFormElement | null;
  const input = form?.querySelector<HTMLInputElement>("input[name=code]");
  const video = host.querySelector<HTMLVideoElement>("video");
  const status = host.querySelector<HTMLElement>("[role=status]");
  if (!form || !input || !video) return;
  if (!navigator.mediaDevices?.getUserMedia) {
    showNoCamera(host);
    return;
  }
  const say = (text: string) => {
    if (status) status.textContent = text;
  };
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
  } catch (error) {
    if (error instanceof DOMException && ["NotFoundError", "OverconstrainedError"].includes(error.name)) {
      showNoCamera(host);
    } else {
      host.hidden = false;
      video.hidden = true;
      say(t("The camera is not available: type the code below."));
    }
    return;
  }
  host.hidden = false;
  const Detector = detectorClass();
  const read = Detector ? nativeReader(Detector) : await decoderReader();
  video.srcObject = stream;
  await video.play();
  say(t("Point the camera at the resident's QR code."));
  const stop = () => {
    for (const track of stream.getTracks()) track.stop();
  };
  const tick = async () => {
    try {
      const code = codeFromScan((await read(video)) ?? "");
      if (code && code !== lastSent()) {
        stop();
        remember(code);
        input.value = code;
        // No message here: the redeemed banner on the page the form opens is the one announcement.
        form.requestSubmit();
        return;
      }
    } catch {
      // a frame the reader could not read: try the next one
    }
    window.setTimeout(() => void tick(), SCAN_INTERVAL_MS);
  };
  window.addEventListener("pagehide", stop, { once: true });
  void tick();
}
