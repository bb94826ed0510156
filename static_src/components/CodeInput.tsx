/**
 * A six-digit code input (Forgot Password dialog, verify step): six single-digit boxes with
 * focus moving as a person types, deletes or pastes.
 */
import {
  useEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type ChangeEvent,
  type KeyboardEvent,
} from "react";
import { t } from "../lib/i18n";

export const CODE_LENGTH = 6;

export interface CodeInputProps {
  /** The code (digits only). Given: controlled, with `onChange`. Absent: the input keeps its own. */
  value?: string;
  onChange?: (code: string) => void;
  autoFocus?: boolean;
  disabled?: boolean;
  /** When given, a hidden input of this name holds the code, for a plain HTML form. */
  name?: string;
  /** The accessible name of the group of boxes. */
  label?: string;
  /** Id of a visible element naming the group; used instead of `label` when given. */
  labelledBy?: string;
}

const EMPTY = Array<string>(CODE_LENGTH).fill("");

function digitsOf(text: string): string {
  return text.replace(/\D/g, "");
}

function slotsOf(code: string): string[] {
  const digits = digitsOf(code).slice(0, CODE_LENGTH);
  return EMPTY.map((_, i) => digits[i] ?? "");
}

export function CodeInput({
  value,
  onChange,
  autoFocus = false,
  disabled = false,
  name,
  label = t("Enter 6-digit code"),
  labelledBy,
}: CodeInputProps) {
  // Slots, not a string, so a cleared box in the middle stays where it is.
  const [slots, setSlots] = useState<string[]>(() => slotsOf(value ?? ""));
  const boxes = useRef<Array<HTMLInputElement | null>>([]);
  const code = slots.join("");

  // Controlled: follow the parent when it sets another code (clearing it, say).
  if (value !== undefined && digitsOf(value).slice(0, CODE_LENGTH) !== code) {
    setSlots(slotsOf(value));
  }

  useEffect(() => {
    if (autoFocus && !disabled) focusBox(Math.max(0, slots.indexOf("")));
    // Only on mount: autoFocus is not a live setting.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function focusBox(index: number) {
    const box = boxes.current[Math.min(Math.max(index, 0), CODE_LENGTH - 1)];
    box?.focus();
    box?.select();
  }

  function update(next: string[]) {
    setSlots(next);
    const nextCode = next.join("");
    if (nextCode !== code) onChange?.(nextCode);
  }

  /** Writes digits into consecutive boxes from `index`; returns the box to focus next. */
  function fill(index: number, digits: string): number {
    const next = [...slots];
    const written = digits.slice(0, CODE_LENGTH - index);
    for (let i = 0; i < written.length; i++) next[index + i] = written[i];
    update(next);
    return index + written.length;
  }

  function handleChange(index: number, event: ChangeEvent<HTMLInputElement>) {
    const typed = event.target.value;
    let digits = digitsOf(typed);
    if (digits === "") {
      // Deleted by other means than Backspace (cut, say); a non-digit alone changes nothing.
      if (typed === "") update(slots.map((d, i) => (i === index ? "" : d)));
      return;
    }
    const old = slots[index];
    // A digit typed into a filled box without selecting it: keep the new one.
    if (digits.length === 2 && old && digits.includes(old)) {
      digits = digits[0] === old ? digits[1] : digits[0];
    }
    // More than one digit at once (autofill of a one-time code): as a paste.
    focusBox(fill(index, digits));
  }

  function handleKeyDown(index: number, event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case "Backspace":
        event.preventDefault();
        if (slots[index]) {
          update(slots.map((d, i) => (i === index ? "" : d)));
        } else if (index > 0) {
          update(slots.map((d, i) => (i === index - 1 ? "" : d)));
          focusBox(index - 1);
        }
        break;
      case "Delete":
        event.preventDefault();
        update(slots.map((d, i) => (i === index ? "" : d)));
        break;
      case "ArrowLeft":
        event.preventDefault();
        focusBox(index - 1);
        break;
      case "ArrowRight":
        event.preventDefault();
        focusBox(index + 1);
        break;
      case "Home":
        event.preventDefault();
        focusBox(0);
        break;
      case "End":
        event.preventDefault();
        focusBox(CODE_LENGTH - 1);
        break;
    }
  }

  function handlePaste(index: number, event: ClipboardEvent<HTMLInputElement>) {
    event.preventDefault();
    const digits = digitsOf(event.clipboardData.getData("text"));
    if (digits) focusBox(fill(index, digits));
  }

  return (
    <div
      className="code-input"
      role="group"
      aria-label={labelledBy ? undefined : label}
      aria-labelledby={labelledBy}
    >
      {slots.map((digit, index) => (
        <input
          key={index}
          ref={(el) => {
            boxes.current[index] = el;
          }}
          className="code-input__box"
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={index === 0 ? "one-time-code" : "off"}
          aria-label={t("Digit {n} of {total}", { n: index + 1, total: CODE_LENGTH })}
          value={digit}
          disabled={disabled}
          onChange={(event) => handleChange(index, event)}
          onKeyDown={(event) => handleKeyDown(index, event)}
          onPaste={(event) => handlePaste(index, event)}
          onFocus={(event) => event.target.select()}
        />
      ))}
      {name ? <input type="hidden" name={name} value={code} /> : null}
    </div>
  );
}

export default CodeInput;
