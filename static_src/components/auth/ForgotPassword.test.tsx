import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { configure } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

configure({ asyncUtilTimeout: 5000 });
import { ForgotPassword } from "./ForgotPassword";

function respond(...bodies: Array<[number, unknown]>) {
  const fetchMock = vi.fn();
  for (const [status, body] of bodies) {
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status }));
  }
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe("Forgot Password dialog", () => {
  it("shows the debug code, falls back to 'Invalid code' and reaches done", async () => {
    const user = userEvent.setup();
    respond([200, { debugCode: "123456" }], [400, {}], [200, {}], [200, {}]);
    render(<ForgotPassword />);
    await user.type(screen.getByLabelText("Enter your account email"), "a@b.ph");
    await user.click(screen.getByRole("button", { name: "Send Reset Code" }));
    expect(await screen.findByText("Debug code: 123456")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Verify Code" }));
    expect(screen.getByRole("alert").textContent).toBe("Code must be a 6-digit number.");
    await user.type(screen.getByLabelText("Digit 1 of 6"), "123456");
    await user.click(screen.getByRole("button", { name: "Verify Code" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Invalid code");
    await user.click(screen.getByRole("button", { name: "Verify Code" }));
    expect(await screen.findByText("Code verified. Enter your new password.")).toBeTruthy();
    await user.type(screen.getByLabelText("New password"), "abcD1!xy");
    await user.type(screen.getByLabelText("Confirm password"), "abcD1!xy");
    expect(screen.getByText("Passwords match")).toBeTruthy();
    expect(screen.getByText("Very strong")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByText("Your password was reset successfully.")).toBeTruthy();
  }, 20_000); // many typed keys: slow on a loaded CI machine

  it("uses the fallback message when the request fails without one", async () => {
    const user = userEvent.setup();
    respond([500, {}]);
    render(<ForgotPassword />);
    await user.type(screen.getByLabelText("Enter your account email"), "a@b.ph");
    await user.click(screen.getByRole("button", { name: "Send Reset Code" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Failed to request reset");
  });

  it("refuses a bad e-mail without calling the server", async () => {
    const user = userEvent.setup();
    const fetchMock = respond();
    render(<ForgotPassword />);
    await user.type(screen.getByLabelText("Enter your account email"), "a b@c.ph");
    await user.click(screen.getByRole("button", { name: "Send Reset Code" }));
    expect(screen.getByRole("alert").textContent).toBe("Please enter a valid email.");
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
