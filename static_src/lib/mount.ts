/** Mounting React islands on the elements the server rendered for them (docs/architecture.md, "Islands"). */
import { createElement, type ComponentType } from "react";
import { createRoot } from "react-dom/client";
import { onIsland } from "./island";

export { onIsland, readIslandProps } from "./island";

/**
 * Renders `Component` into every `[data-island="name"]` element, with the element's props
 * (`data-props` JSON, or the `<script type="application/json">` named by `data-props-id`).
 * `toProps` may reshape them and see the host element (to dispatch events on it, say).
 * The server's content inside the element (a no-JavaScript fallback) is replaced.
 */
export function mountIsland<P extends object>(
  name: string,
  Component: ComponentType<P>,
  toProps: (props: Record<string, unknown>, el: HTMLElement) => P = (props) => props as P,
): void {
  onIsland<Record<string, unknown>>(name, (el, props) => {
    createRoot(el).render(createElement(Component, toProps(props, el)));
  });
}
