import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";

/** Some of the Filipino catalogue (sibol/translations/fil/LC_MESSAGES/islands.po), as the server
 * embeds it on a Filipino sign-in page. */
const FILIPINO = {
  "Enter your account email": "Ilagay ang email ng iyong account",
  "Send Reset Code": "Ipadala ang Reset Code",
  Cancel: "Kanselahin",
  "Please enter a valid email.": "Pakilagay ang wastong email.",
};

/** The sign-in page's dialog host, with the server's messages block when given, then the entry. */
async function loadIsland(messages?: Record<string, string>): Promise<void> {
  const block = messages
    ? `<script type="application/json" data-island-messages lang="fil">${JSON.stringify(messages)}</script>`
    : "";
  document.body.innerHTML = `${block}<dialog open><div data-island="forgot-password"></div></dialog>`;
  await act(async () => {
    await import("./forgot-password");
  });
}

beforeEach(() => {
  vi.resetModules(); // a fresh lib/i18n too, as on a new page
});

describe("forgot-password island's language", () => {
  it("shows the Filipino texts the page embeds, English for any it lacks", async () => {
    await loadIsland(FILIPINO);
    expect(screen.getByLabelText("Ilagay ang email ng iyong account")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Ipadala ang Reset Code" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Kanselahin" })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole("button", { name: "Ipadala ang Reset Code" }));
    expect(screen.getByRole("alert").textContent).toBe("Pakilagay ang wastong email.");
    expect(screen.queryByText("Send Reset Code")).toBeNull();
  });

  it("shows the spec's English texts when the page embeds no messages", async () => {
    await loadIsland();
    expect(screen.getByLabelText("Enter your account email")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send Reset Code" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Cancel" })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole("button", { name: "Send Reset Code" }));
    expect(screen.getByRole("alert").textContent).toBe("Please enter a valid email.");
  });
});
