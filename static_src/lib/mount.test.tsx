import { act, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { mountIsland, onIsland, readIslandProps } from "./mount";

function Greeting({ who = "nobody" }: { who?: string }) {
  return <p>Hello {who}</p>;
}

describe("mountIsland", () => {
  it("renders into every host with the props of its data-props attribute", async () => {
    document.body.innerHTML = `
      <div data-island="greeting" data-props='{"who": "Ana"}'><p>fallback</p></div>
      <div data-island="greeting" data-props='{"who": "Ben"}'></div>
      <div data-island="other" data-props='{"who": "Cy"}'></div>`;
    await act(async () => mountIsland("greeting", Greeting));
    expect(screen.getByText("Hello Ana")).toBeTruthy();
    expect(screen.getByText("Hello Ben")).toBeTruthy();
    expect(screen.queryByText("fallback")).toBeNull();
    expect(screen.queryByText("Hello Cy")).toBeNull();
  });

  it("reads props from the JSON script named by data-props-id", async () => {
    document.body.innerHTML = `
      <script type="application/json" id="greeting-props">{"who": "Dee"}</script>
      <div data-island="greeting" data-props-id="greeting-props"></div>`;
    await act(async () => mountIsland("greeting", Greeting));
    expect(screen.getByText("Hello Dee")).toBeTruthy();
  });

  it("gives empty props to a host without any, and mounts a host only once", async () => {
    document.body.innerHTML = `<div data-island="greeting"></div>`;
    await act(async () => {
      mountIsland("greeting", Greeting);
      mountIsland("greeting", Greeting);
    });
    expect(screen.getAllByText("Hello nobody")).toHaveLength(1);
  });

  it("lets toProps reshape props and see the host", async () => {
    document.body.innerHTML = `<div id="h" data-island="greeting" data-props='{"name": "Eve"}'></div>`;
    await act(async () =>
      mountIsland("greeting", Greeting, (props, el) => ({ who: `${props.name} in ${el.id}` })),
    );
    expect(screen.getByText("Hello Eve in h")).toBeTruthy();
  });
});

describe("onIsland", () => {
  it("calls the behaviour once per host with its props, without React", () => {
    document.body.innerHTML = `
      <button data-island="toggle" data-props='{"target": "pw"}'></button>
      <button data-island="toggle"></button>`;
    const fn = vi.fn();
    onIsland("toggle", fn);
    onIsland("toggle", fn);
    expect(fn).toHaveBeenCalledTimes(2);
    expect(fn.mock.calls[0][1]).toEqual({ target: "pw" });
    expect(fn.mock.calls[1][1]).toEqual({});
  });

  it("names the island when its props are not valid JSON", () => {
    document.body.innerHTML = `<div data-island="broken" data-props="{oops"></div>`;
    const el = document.querySelector<HTMLElement>("[data-island]")!;
    expect(() => readIslandProps(el)).toThrow('Island "broken": props are not valid JSON');
  });

  it("names the missing props script", () => {
    document.body.innerHTML = `<div data-island="lost" data-props-id="nope"></div>`;
    const el = document.querySelector<HTMLElement>("[data-island]")!;
    expect(() => readIslandProps(el)).toThrow('no props script with id "nope"');
  });
});
