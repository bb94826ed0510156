import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api";
import { resendVerification } from "./resend";

function answer(status: number, body: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("resendVerification", () => {
  it("asks for an address before it calls the server", async () => {
    const fetch = answer(200, {});
    await expect(resendVerification("")).rejects.toThrow("Email address is required to resend verification");
    expect(fetch).not.toHaveBeenCalled();
  });

  it("returns the server's message, or says the e-mail went out", async () => {
    const fetch = answer(200, { message: "Sent again to ana@x.ph." });
    expect(await resendVerification("ana@x.ph")).toBe("Sent again to ana@x.ph.");
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/auth/resend-verification");
    expect(JSON.parse(String(init.body))).toEqual({ email: "ana@x.ph" });
    answer(200, {});
    expect(await resendVerification("ana@x.ph")).toBe("Verification email resent. Check your inbox.");
  });

  it("throws the server's refusal for the page to show", async () => {
    answer(429, { message: "Too many requests" });
    await expect(resendVerification("ana@x.ph")).rejects.toBeInstanceOf(ApiError);
  });
});
