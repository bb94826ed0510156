/**
 * Island "code-input": the six-digit code boxes of the Forgot Password dialog.
 *
 *   <div data-island="code-input" data-props='{"name": "code", "autoFocus": true}'>
 *     <input name="code" inputmode="numeric" autocomplete="one-time-code">  (no-JS fallback)
 *   </div>
 *
 * Props: name (hidden input holding the code, for a server form), label, labelledBy, value,
 * autoFocus, disabled. On every change the host element dispatches a bubbling CustomEvent
 * "code-change" with detail {code, complete}. Dispatching "code-set" with detail {code} on the host
 * sets the code from outside ('' clears it, e.g. when the dialog reopens).
 */
import { useEffect, useState } from "react";
import { CODE_LENGTH, CodeInput, type CodeInputProps } from "../components/CodeInput";
import { mountIsland } from "../lib/mount";

export interface CodeChangeDetail {
  code: string;
  complete: boolean;
}

type ServerProps = Omit<CodeInputProps, "onChange">;

function CodeInputIsland({ host, value, ...props }: ServerProps & { host: HTMLElement }) {
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

mountIsland("code-input", CodeInputIsland, (props, host) => ({
  ...(props as ServerProps),
  host,
}));
