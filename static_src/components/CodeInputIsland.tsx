/**
 * The code boxes as an island: CodeInput that talks to the page through events on its host element
 * (see islands/code-input.tsx for the props and events).
 */
import { useEffect, useState } from "react";
import { CODE_LENGTH, CodeInput, type CodeInputProps } from "./CodeInput";

export interface CodeChangeDetail {
  code: string;
  complete: boolean;
}

/** The props the server gives the island: CodeInput's, less the change handler. */
export type ServerProps = Omit<CodeInputProps, "onChange">;

/**
 * CodeInput bound to its host element: "code-set" events on the host set the code, and every
 * change is announced by a bubbling "code-change" event.
 */
export function CodeInputIsland({ host, value, ...props }: ServerProps & { host: HTMLElement }) {
  const [code, setCode] = useState(value ?? "");

  useEffect(() => {
    const onSet = (event: Event) => {
      const detail = (event as CustomEvent<{ code?: string }>).detail;
      setCode(detail?.code ?? "");
    };
    host.addEventListener("code-set", onSet);
    return () => host.removeEventListener("code-set", onSet);
  }, [host]);

  function change(next: string) {
    setCode(next);
    host.dispatchEvent(
      new CustomEvent<CodeChangeDetail>("code-change", {
        detail: { code: next, complete: next.length === CODE_LENGTH },
        bubbles: true,
      }),
    );
  }

  return <CodeInput {...props} value={code} onChange={change} />;
}

/** The island's props from the server's, with the host element the events go through. */
export function codeInputProps(
  props: Record<string, unknown>,
  host: HTMLElement,
): ServerProps & { host: HTMLElement } {
  return { ...(props as ServerProps), host };
}
