import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { CodeInput, type CodeInputProps } from "./CodeInput";

function boxes(): HTMLInputElement[] {
  return [1, 2, 3, 4, 5, 6].map((n) => screen.getByLabelText(`Digit ${n} of 6`) as HTMLInputElement);
}

function values(): string {
  return boxes()
    .map((box) => box.value || "_")
    .join("");
}

function setup(props: CodeInputProps = {}) {
  const user = userEvent.setup();
  const onChange = vi.fn();
  const utils = render(<CodeInput onChange={onChange} {...props} />);
  return { user, onChange, ...utils };
}

describe("CodeInput", () => {
  it("renders six labelled numeric boxes in a named group", () => {
    setup();
    expect(screen.getByRole("group", { name: "Enter 6-digit code" })).toHaveProperty(
      "className",
      "code-input",
    );
    const all = boxes();
    expect(all).toHaveLength(6);
    for (const box of all) {
      expect(box.inputMode).toBe("numeric");
      expect(box.className).toBe("code-input__box");
    }
    expect(all[0].getAttribute("autocomplete")).toBe("one-time-code");
    expect(all[1].getAttribute("autocomplete")).toBe("off");
  });

  it("uses the label prop as the group's name", () => {
    setup({ label: "Verification code" });
    expect(screen.getByRole("group", { name: "Verification code" })).toBeTruthy();
  });

  it("typing a digit fills the box and moves focus to the next", async () => {
    const { user } = setup();
    await user.type(boxes()[0], "4");
    expect(values()).toBe("4_____");
    expect(document.activeElement).toBe(boxes()[1]);
    await user.keyboard("827");
    expect(values()).toBe("4827__");
    expect(document.activeElement).toBe(boxes()[4]);
  });

  it("typing six digits fills every box and leaves focus on the last", async () => {
    const { user, onChange } = setup();
    await user.type(boxes()[0], "123456");
    expect(values()).toBe("123456");
    expect(document.activeElement).toBe(boxes()[5]);
    expect(onChange).toHaveBeenLastCalledWith("123456");
  });

  it("strips non-digits: typing a letter leaves the box empty and focus in place", async () => {
    const { user, onChange } = setup();
    await user.type(boxes()[0], "a");
    expect(values()).toBe("______");
    expect(document.activeElement).toBe(boxes()[0]);
    expect(onChange).not.toHaveBeenCalled();
  });

  it("typing over a filled box replaces its digit", async () => {
    const { user } = setup();
    await user.type(boxes()[0], "12");
    await user.click(boxes()[0]);
    await user.keyboard("9");
    expect(values()).toBe("92____");
    expect(document.activeElement).toBe(boxes()[1]);
  });

  it("Backspace on an empty box moves focus to the previous box and clears it", async () => {
    const { user, onChange } = setup();
    await user.type(boxes()[0], "12");
    expect(document.activeElement).toBe(boxes()[2]);
    await user.keyboard("{Backspace}");
    expect(values()).toBe("1_____");
    expect(document.activeElement).toBe(boxes()[1]);
    expect(onChange).toHaveBeenLastCalledWith("1");
  });

  it("Backspace on a filled box clears it and keeps focus", async () => {
    const { user, onChange } = setup();
    await user.type(boxes()[0], "123");
    await user.click(boxes()[1]);
    await user.keyboard("{Backspace}");
    expect(values()).toBe("1_3___");
    expect(document.activeElement).toBe(boxes()[1]);
    expect(onChange).toHaveBeenLastCalledWith("13");
  });

  it("Backspace on the first empty box does nothing", async () => {
    const { user, onChange } = setup();
    await user.click(boxes()[0]);
    await user.keyboard("{Backspace}");
    expect(document.activeElement).toBe(boxes()[0]);
    expect(onChange).not.toHaveBeenCalled();
  });

  it("ArrowLeft and ArrowRight move between boxes", async () => {
    const { user } = setup();
    await user.click(boxes()[2]);
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(boxes()[3]);
    await user.keyboard("{ArrowLeft}{ArrowLeft}");
    expect(document.activeElement).toBe(boxes()[1]);
    await user.keyboard("{ArrowLeft}{ArrowLeft}");
    expect(document.activeElement).toBe(boxes()[0]);
  });

  it("pasting fills the boxes from the first, stripping non-digits", async () => {
    const { user, onChange } = setup();
    await user.click(boxes()[0]);
    await user.paste("12-34 56");
    expect(values()).toBe("123456");
    expect(onChange).toHaveBeenLastCalledWith("123456");
    expect(document.activeElement).toBe(boxes()[5]);
  });

  it("pasting more than six digits keeps the first six", async () => {
    const { user, onChange } = setup();
    await user.click(boxes()[0]);
    await user.paste("98765432");
    expect(values()).toBe("987654");
    expect(onChange).toHaveBeenLastCalledWith("987654");
  });

  it("pasting into a middle box fills from that box and focuses the box after the last filled", async () => {
    const { user } = setup();
    await user.click(boxes()[1]);
    await user.paste("a7b8");
    expect(values()).toBe("_78___");
    expect(document.activeElement).toBe(boxes()[3]);
  });

  it("pasting past the last box stops there", async () => {
    const { user } = setup();
    await user.click(boxes()[4]);
    await user.paste("123");
    expect(values()).toBe("____12");
    expect(document.activeElement).toBe(boxes()[5]);
  });

  it("pasting text without digits changes nothing", async () => {
    const { user, onChange } = setup();
    await user.click(boxes()[0]);
    await user.paste("abc");
    expect(values()).toBe("______");
    expect(onChange).not.toHaveBeenCalled();
  });

  it("a one-time code autofilled into the first box fills them all", async () => {
    const { user } = setup();
    await user.click(boxes()[0]);
    // Autofill sets the whole code at once, as one input event.
    const input = boxes()[0];
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
    setter.call(input, "654321");
    input.dispatchEvent(new Event("input", { bubbles: true }));
    expect(values()).toBe("654321");
  });

  it("renders a hidden input holding the joined code when name is given", async () => {
    const { user, container } = setup({ name: "code" });
    const hidden = container.querySelector<HTMLInputElement>('input[type="hidden"][name="code"]');
    expect(hidden?.value).toBe("");
    await user.type(boxes()[0], "5150");
    expect(hidden?.value).toBe("5150");
  });

  it("renders no hidden input without a name", () => {
    const { container } = setup();
    expect(container.querySelector('input[type="hidden"]')).toBeNull();
  });

  it("shows a controlled value and follows the parent when it changes", async () => {
    function Parent() {
      const [code, setCode] = useState("12");
      return (
        <>
          <CodeInput value={code} onChange={setCode} />
          <button onClick={() => setCode("")}>Clear</button>
          <output>{code}</output>
        </>
      );
    }
    const user = userEvent.setup();
    render(<Parent />);
    expect(values()).toBe("12____");
    await user.type(boxes()[2], "3");
    expect(screen.getByRole("status").textContent).toBe("123");
    await user.click(screen.getByRole("button", { name: "Clear" }));
    expect(values()).toBe("______");
  });

  it("a controlled value the parent does not update stays as the parent says", async () => {
    const { user, onChange } = setup({ value: "99" });
    await user.type(boxes()[2], "1");
    expect(onChange).toHaveBeenCalledWith("991");
    expect(values()).toBe("99____");
  });

  it("autoFocus focuses the first empty box", () => {
    setup({ autoFocus: true, value: "12" });
    expect(document.activeElement).toBe(boxes()[2]);
  });

  it("disabled disables every box", () => {
    setup({ disabled: true });
    expect(boxes().every((box) => box.disabled)).toBe(true);
  });
});
