/**
 * Finding island host elements and reading their props, without React: plain TypeScript
 * behaviours import `onIsland` from here (or from ./mount, which re-exports it).
 */

/** Marks a host that has been set up, so loading an entry twice never mounts twice. */
const MOUNTED_ATTR = "data-island-mounted";

/**
 * The props the server handed to a host element: the JSON in its `data-props` attribute or, when it
 * has `data-props-id`, the JSON text of the `<script type="application/json">` with that id.
 * Missing props are `{}`; malformed JSON throws, naming the island.
 */
export function readIslandProps<P = Record<string, unknown>>(el: HTMLElement): P {
  const name = el.dataset.island ?? "?";
  let text = el.dataset.props;
  const scriptId = el.dataset.propsId;
  if (scriptId) {
    const script = document.getElementById(scriptId);
    if (!script) throw new Error(`Island "${name}": no props script with id "${scriptId}"`);
    text = script.textContent ?? "";
  }
  if (text === undefined || text.trim() === "") return {} as P;
  try {
    return JSON.parse(text) as P;
  } catch {
    throw new Error(`Island "${name}": props are not valid JSON`);
  }
}

/** Host elements of an island that have not been set up yet. */
export function islandHosts(name: string, root: ParentNode = document): HTMLElement[] {
  const selector = `[data-island="${name}"]:not([${MOUNTED_ATTR}])`;
  return Array.from(root.querySelectorAll<HTMLElement>(selector));
}

/** Runs `fn` once the document is parsed (module scripts usually run after that already). */
export function whenReady(fn: () => void): void {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", fn, { once: true });
  } else {
    fn();
  }
}

/**
 * Calls `fn(el, props)` for every `[data-island="name"]` element, once per element. For small
 * behaviours (a show/hide toggle, disabling a button) that must not load React.
 */
export function onIsland<P = Record<string, unknown>>(
  name: string,
  fn: (el: HTMLElement, props: P) => void,
): void {
  whenReady(() => {
    for (const el of islandHosts(name)) {
      el.setAttribute(MOUNTED_ATTR, "");
      fn(el, readIslandProps<P>(el));
    }
  });
}
