import { describe, expect, it } from "vitest";
import { addChip, createChipEditor } from "./chips";

function editorIn(areas: string[]) {
  const form = document.createElement("form");
  const host = document.createElement("div");
  host.innerHTML = '<input id="edit-areas" name="areas" aria-describedby="edit-areas-error">';
  form.append(host);
  document.body.replaceChildren(form);
  const editor = createChipEditor(host, { name: "area", areas });
  const input = host.querySelector<HTMLInputElement>("input#edit-areas")!;
  const posted = () => new FormData(form).getAll("area");
  const chips = () => Array.from(host.querySelectorAll(".chip span")).map((s) => s.textContent);
  const press = (key: string) => {
    const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true });
    input.dispatchEvent(event);
    return event;
  };
  return { editor, host, input, posted, chips, press, form };
}

describe("addChip", () => {
  it("trims, collapses spaces and skips duplicates whatever their case", () => {
    expect(addChip(["Purok 1"], "  purok   1 ")).toEqual(["Purok 1"]);
    expect(addChip(["Purok 1"], " Package   2 ")).toEqual(["Purok 1", "Package 2"]);
    expect(addChip([], "   ")).toEqual([]);
    expect(addChip([], "x".repeat(120), 100)).toEqual(["x".repeat(100)]);
  });
});

describe("createChipEditor", () => {
  it("shows the server's areas as chips and posts one value per chip", () => {
    const { chips, posted, host } = editorIn(["Purok 1", "Package 2"]);
    expect(chips()).toEqual(["Purok 1", "Package 2"]);
    expect(posted()).toEqual(["Purok 1", "Package 2"]);
    expect(host.querySelector('[name="areas"]')).toBeNull(); // the no-JS text field is gone
  });

  it("adds a chip on Enter without submitting, and × removes one", () => {
    const { input, press, chips, posted, host } = editorIn(["Purok 1"]);
    input.value = "Package 7";
    const event = press("Enter");
    expect(event.defaultPrevented).toBe(true);
    expect(chips()).toEqual(["Purok 1", "Package 7"]);
    expect(input.value).toBe("");
    host.querySelector<HTMLButtonElement>('button[aria-label="Remove Purok 1"]')!.click();
    expect(chips()).toEqual(["Package 7"]);
    expect(posted()).toEqual(["Package 7"]);
  });

  it("Backspace in an empty box removes the last chip", () => {
    const { press, chips } = editorIn(["A", "B"]);
    press("Backspace");
    expect(chips()).toEqual(["A"]);
  });

  it("commit() keeps text typed without Enter", () => {
    const { editor, input, posted } = editorIn([]);
    input.value = "Purok 4";
    editor.commit();
    expect(posted()).toEqual(["Purok 4"]);
    expect(editor.values()).toEqual(["Purok 4"]);
  });

  it("keeps the label's input id and the error description", () => {
    const { input } = editorIn([]);
    expect(input.getAttribute("aria-describedby")).toBe("edit-areas-error");
  });
});
