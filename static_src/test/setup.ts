// Shared vitest setup: unmount what each test rendered and start every test with empty storage,
// an empty page and the page's own (English, unless a test embeds a block) island texts.
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";
import { setMessages } from "../lib/i18n";

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.head.innerHTML = "";
  document.body.innerHTML = "";
  document.documentElement.lang = "";
  setMessages(null);
});
