// Shared vitest setup: unmount what each test rendered and start every test with empty storage.
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.head.innerHTML = "";
  document.body.innerHTML = "";
});
