import { describe, expect, it } from "vitest";
import { readHandoff, storeHandoff, strippedUrl } from "./handoff";
import { storeSession, storedToken, storedUser } from "../../lib/api";

const loc = (search: string, hash = "", pathname = "/dashboard") => ({ search, hash, pathname });

describe("sign-in handoff", () => {
  it("reads token, access_token or auth_token from the query or the hash", () => {
    expect(readHandoff(loc("?token=a")).token).toBe("a");
    expect(readHandoff(loc("?access_token=b")).token).toBe("b");
    expect(readHandoff(loc("", "#auth_token=c")).token).toBe("c");
    expect(readHandoff(loc("", "#auth=fail")).auth).toBe("fail");
    expect(readHandoff(loc("?x=1")).present).toBe(false);
  });

  it("parses the user JSON and ignores invalid user data", () => {
    const user = encodeURIComponent(JSON.stringify({ Username: "ana" }));
    expect(readHandoff(loc(`?token=t&user=${user}`)).user).toEqual({ Username: "ana" });
    expect(readHandoff(loc("?token=t&user=%7Bbroken")).user).toBeUndefined();
    expect(readHandoff(loc("?token=t&user=42")).user).toBeUndefined();
  });

  it("stores the token and keeps the stored user when the new one is invalid", () => {
    storeSession("old", { Username: "kept" });
    storeHandoff(readHandoff(loc("?token=new&user=%7Bbroken")));
    expect(storedToken()).toBe("new");
    expect(storedUser()).toEqual({ Username: "kept" });
  });

  it("strips the handoff parameters and keeps the others", () => {
    expect(strippedUrl(loc("?token=a&user=%7B%7D&tab=2"))).toBe("/dashboard?tab=2");
    expect(strippedUrl(loc("", "#token=a&user=x"))).toBe("/dashboard");
    expect(strippedUrl(loc("", "#section"))).toBe("/dashboard#section");
  });
});
