import { describe, expect, it, vi } from "vitest";
import { allowedModules, includesAdmin } from "./modules";

function answer(body: string, status = 200) {
  vi.stubGlobal("fetch", vi.fn(async () => new Response(body, { status })));
}

describe("allowed modules", () => {
  it("reads a list, a {modules} object or a map", async () => {
    answer('[{"id": 1, "key": "dashboard", "name": "Dashboard", "path": "/dashboard"}]');
    expect((await allowedModules())[0].key).toBe("dashboard");
    answer('{"success": true, "modules": [{"id": 6, "key": "admin"}]}');
    expect(includesAdmin(await allowedModules())).toBe(true);
    answer('{"household": {"id": 4, "path": "/household"}}');
    expect(await allowedModules()).toEqual([{ key: "household", id: 4, path: "/household" }]);
  });

  it("throws 'HTTP {status}: {body}' on a non-OK status", async () => {
    answer('{"message":"Sign in to continue."}', 401);
    await expect(allowedModules()).rejects.toThrow('HTTP 401: {"message":"Sign in to continue."}');
    answer("Bad gateway", 502);
    await expect(allowedModules()).rejects.toThrow("HTTP 502: Bad gateway");
  });
});
