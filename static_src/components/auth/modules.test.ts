import { describe, expect, it, vi } from "vitest";
import { allowedModules, includesAdmin } from "./modules";

function answer(body: string, status = 200) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(body, { status })),
  );
}

describe("allowed modules", () => {
  it("reads the server's plain list, or an object map keyed by module", async () => {
    answer(
      '[{"key": "dashboard", "name": "Dashboard", "path": "/dashboard", "Module_id": 1},' +
        ' {"key": "admin", "name": "Admin", "path": "/admin", "Module_id": 6}]',
    );
    const modules = await allowedModules();
    expect(modules.map((m) => m.key)).toEqual(["dashboard", "admin"]);
    expect(includesAdmin(modules)).toBe(true);
    answer('[{"key": "household", "name": "Household", "path": "/household", "Module_id": 4}]');
    expect(includesAdmin(await allowedModules())).toBe(false);
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
