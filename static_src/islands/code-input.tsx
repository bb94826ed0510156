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
import { CodeInputIsland, codeInputProps } from "../components/CodeInputIsland";
import { mountIsland } from "../lib/mount";

mountIsland("code-input", CodeInputIsland, codeInputProps);
