import { afterEach, describe, expect, it, vi } from "vitest";
import {
  API_TIMEOUT_MS,
  ApiError,
  api,
  clearSession,
  errorText,
  storeSession,
  storedToken,
  storedUser,
} from "./api";

type Call = { url: string; init: RequestInit; headers: Record<string, string> };

/** Stubs global fetch with one canned response; returns the calls it saw. */
function stubFetch(body: string, status = 200): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init, headers: { ...(init.headers as Record<string, string>) } });
      return new Response(body === "" && status === 204 ? null : body, { status });
    }),
  );
  return calls;
}

function addCsrfMeta(token: string) {
  const meta = document.createElement("meta");
  meta.name = "csrf-token";
  meta.content = token;
  document.head.append(meta);
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error("expected the request to fail");
}

afterEach(() => {
  vi.useRealTimers();
});

describe("api requests", () => {
  it("sends the stored token as a bearer Authorization header", async () => {
    localStorage.setItem("token", "tok-123");
    const calls = stubFetch('{"ok": true}');
    await api.get("/api/machines");
    expect(calls[0].headers.Authorization).toBe("Bearer tok-123");
  });

  it("sends no Authorization header without a stored token", async () => {
    const calls = stubFetch("{}");
    await api.get("/api/machines");
    expect(calls[0].headers).not.toHaveProperty("Authorization");
  });

  it("includes credentials and uses the method and path given", async () => {
    const calls = stubFetch("{}");
    await api.patch("/api/admin/7/active", { isActive: false });
    expect(calls[0].url).toBe("/api/admin/7/active");
    expect(calls[0].init.method).toBe("PATCH");
    expect(calls[0].init.credentials).toBe("include");
    expect(calls[0].init.body).toBe('{"isActive":false}');
  });

  it("sets Content-Type JSON only when a non-GET request has a body", async () => {
    const calls = stubFetch("{}");
    await api.post("/api/auth/forgot-password", { email: "a@b.ph" });
    await api.post("/api/machines/1/approve");
    await api.get("/api/machines", { ignored: true });
    await api.delete("/api/things/1");
    await api.put("/api/machines/1", { name: "M1" });
    expect(calls.map((c) => c.headers["Content-Type"])).toEqual([
      "application/json",
      undefined,
      undefined,
      undefined,
      "application/json",
    ]);
    expect(calls[1].init.body).toBeUndefined();
    expect(calls[2].init.body).toBeUndefined();
  });

  it("sends FormData as is, without a JSON Content-Type", async () => {
    const calls = stubFetch("{}");
    const form = new FormData();
    form.append("photo", "x");
    await api.post("/api/uploads", form);
    expect(calls[0].init.body).toBe(form);
    expect(calls[0].headers).not.toHaveProperty("Content-Type");
  });

  it("sends the CSRF token from the meta tag on non-GET requests only", async () => {
    addCsrfMeta("csrf-abc");
    const calls = stubFetch("{}");
    await api.post("/api/auth/logout");
    await api.get("/api/machines");
    await api.put("/api/machines/2", { name: "M2" });
    expect(calls[0].headers["X-CSRFToken"]).toBe("csrf-abc");
    expect(calls[1].headers).not.toHaveProperty("X-CSRFToken");
    expect(calls[2].headers["X-CSRFToken"]).toBe("csrf-abc");
  });

  it("sends no CSRF header when the page has no csrf-token meta", async () => {
    const calls = stubFetch("{}");
    await api.post("/api/auth/logout");
    expect(calls[0].headers).not.toHaveProperty("X-CSRFToken");
  });
});

describe("api responses", () => {
  it("returns the parsed JSON body", async () => {
    stubFetch('{"success": true, "barangays": [{"id": 1, "name": "Poblacion"}]}');
    await expect(api.get("/api/auth/barangays")).resolves.toEqual({
      success: true,
      barangays: [{ id: 1, name: "Poblacion" }],
    });
  });

  it("wraps a non-JSON body as {raw: text}", async () => {
    stubFetch("Machine saved");
    await expect(api.post("/api/machines", { areaId: 1 })).resolves.toEqual({
      raw: "Machine saved",
    });
  });

  it("returns {} for an empty body", async () => {
    stubFetch("", 204);
    await expect(api.delete("/api/things/1")).resolves.toEqual({});
  });
});

describe("api errors", () => {
  it("uses the payload's message first", async () => {
    stubFetch('{"message": "Invalid code", "error": "invalid_code"}', 400);
    const err = await failure(api.post("/api/auth/verify-reset-code", { code: "1" }));
    expect(err.message).toBe("Invalid code");
    expect(err.status).toBe(400);
    expect(err.payload).toEqual({ message: "Invalid code", error: "invalid_code" });
  });

  it("falls back to the payload's error", async () => {
    stubFetch('{"error": "Username already taken"}', 409);
    const err = await failure(api.post("/api/auth/signup", {}));
    expect(err.message).toBe("Username already taken");
    expect(err.status).toBe(409);
  });

  it("falls back to the raw body text", async () => {
    stubFetch("Bad Gateway from proxy", 502);
    const err = await failure(api.get("/api/machines"));
    expect(err.message).toBe("Bad Gateway from proxy");
    expect(err.payload).toEqual({ raw: "Bad Gateway from proxy" });
  });

  it("falls back to HTTP {status}", async () => {
    stubFetch('{"success": false}', 500);
    const err = await failure(api.get("/api/machines"));
    expect(err.message).toBe("HTTP 500");
    expect(err.status).toBe(500);
  });

  it("says HTTP {status} for an empty error body", async () => {
    stubFetch("", 404);
    expect((await failure(api.get("/api/nothing"))).message).toBe("HTTP 404");
  });

  it("times out after 15 seconds with 'Request timed out'", async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    vi.stubGlobal(
      "fetch",
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            signal = init.signal ?? undefined;
            signal?.addEventListener("abort", () =>
              reject(new DOMException("The operation was aborted.", "AbortError")),
            );
          }),
      ),
    );
    const pending = failure(api.get("/api/machines"));
    await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = await pending;
    expect(signal?.aborted).toBe(true);
    expect(err.message).toBe("Request timed out");
    expect(err.status).toBe(0);
  });

  it("lets a network failure through unchanged", async () => {
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(new TypeError("Failed to fetch")));
    await expect(api.get("/api/machines")).rejects.toThrow("Failed to fetch");
  });
});

describe("errorText: the error text every island shows", () => {
  it("shows the server's message, else the screen's fallback, else HTTP {status}", async () => {
    stubFetch('{"error": "Area not found."}', 404);
    const withError = await failure(api.get("/api/machines"));
    expect(errorText(withError, "Failed to load machine data")).toBe("Area not found.");
    stubFetch("", 500);
    const bare = await failure(api.get("/api/machines"));
    expect(errorText(bare, "Failed to load machine data")).toBe("Failed to load machine data");
    expect(errorText(bare)).toBe("HTTP 500");
    expect(errorText(bare, "Failed to load machine data", { showStatus: true })).toBe("HTTP 500");
  });

  it("shows the offline text, else the fallback, when no answer came", () => {
    const offline = new TypeError("Failed to fetch");
    expect(errorText(offline, "Registration failed", { offline: "Network error" })).toBe("Network error");
    expect(errorText(offline, "Login failed")).toBe("Login failed");
    expect(errorText(offline)).toBe("Network error");
    expect(errorText(new ApiError("Request timed out", 0, null), "Login failed")).toBe("Request timed out");
  });
});

describe("session storage", () => {
  it("stores, reads and clears the token and user", () => {
    storeSession("tok-9", { Username: "juan", roleId: 2 });
    expect(localStorage.getItem("token")).toBe("tok-9");
    expect(storedToken()).toBe("tok-9");
    expect(storedUser()).toEqual({ Username: "juan", roleId: 2 });
    clearSession();
    expect(localStorage.getItem("token")).toBeNull();
    expect(storedUser()).toBeNull();
  });

  it("ignores a stored user that is not valid JSON", () => {
    localStorage.setItem("user", "{not json");
    expect(storedUser()).toBeNull();
  });
});
