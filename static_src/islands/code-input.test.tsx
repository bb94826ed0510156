import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";

/** Loads the island entry afresh, as a page's script tag would, after the server's HTML. */
async function loadIsland(html: string): Promise<HTMLElement> {
  document.body.innerHTML = html;
  await act(async () => {
    await import("./code-input");
  });
  return document.querySelector<HTMLElement>('[data-island="code-input"]')!;
}

const FORM = `
  <form>
    <div data-island="code-input" data-props='{"name": "code", "label": "Enter 6-digit code"}'>
      <input name="code" inputmode="numeric">
    </div>
  </form>`;

beforeEach(() => {
  vi.resetModules();
});

describe("code-input island", () => {
  it("replaces the fallback field with six boxes and a hidden input of the given name", async () => {
    await loadIsland(FORM);
    expect(screen.getByRole("group", { name: "Enter 6-digit code" })).toBeTruthy();
    expect(screen.getAllByLabelText(/Digit \d of 6/)).toHaveLength(6);
    const form = document.querySelector("form")!;
    expect(form.querySelectorAll('[name="code"]')).toHaveLength(1);
    expect(new FormData(form).get("code")).toBe("");
  });

  it("writes the code into the form and dispatches code-change on the host", async () => {
    const host = await loadIsland(FORM);
    const seen: Array<{ code: string; complete: boolean }> = [];
    document.addEventListener("code-change", (e) => seen.push((e as CustomEvent).detail));
    const user = userEvent.setup();
    await user.click(screen.getByLabelText("Digit 1 of 6"));
    await user.paste("482913");
    expect(new FormData(document.querySelector("form")!).get("code")).toBe("482913");
    expect(seen.at(-1)).toEqual({ code: "482913", complete: true });
    expect(host.querySelector<HTMLInputElement>('input[type="hidden"]')?.value).toBe("482913");
  });

  it("takes props from a JSON script and can be cleared with code-set", async () => {
    const host = await loadIsland(`
      <script type="application/json" id="code-props">{"name": "otp", "value": "12"}</script>
      <div data-island="code-input" data-props-id="code-props"></div>`);
    const hidden = host.querySelector<HTMLInputElement>('input[name="otp"]')!;
    expect(hidden.value).toBe("12");
    await act(async () => {
      host.dispatchEvent(new CustomEvent("code-set", { detail: { code: "" } }));
    });
    expect(hidden.value).toBe("");
    expect((screen.getByLabelText("Digit 1 of 6") as HTMLInputElement).value).toBe("");
  });
});
