import { describe, expect, it } from "vitest";
import { currentLang, formatDate, formatNumber, interpolate, setMessages, t } from "./i18n";

function embed(json: string, lang = "fil"): void {
  document.body.innerHTML = `<script type="application/json" data-island-messages lang="${lang}">${json}</script>`;
  setMessages(null); // read the page again
}

describe("t()", () => {
  it("is the English text, placeholders filled, when the page embeds no messages", () => {
    expect(t("Close")).toBe("Close");
    expect(t("Digit {n} of {total}", { n: 2, total: 6 })).toBe("Digit 2 of 6");
    expect(currentLang()).toBe("en");
  });

  it("reads every messages block on the page and takes its language", () => {
    document.body.innerHTML =
      '<script type="application/json" data-island-messages lang="fil">{"Close": "Isara"}</script>' +
      '<script type="application/json" data-island-messages lang="fil">{"Digit {n} of {total}": "Digit {n} sa {total}"}</script>';
    setMessages(null);
    expect(t("Close")).toBe("Isara");
    expect(t("Digit {n} of {total}", { n: 2, total: 6 })).toBe("Digit 2 sa 6");
    expect(t("Back")).toBe("Back"); // no translation: stays English
    expect(currentLang()).toBe("fil");
  });

  it("keeps English when a block is not valid JSON, and an empty translation is no translation", () => {
    embed("{not json");
    expect(t("Close")).toBe("Close");
    embed('{"Close": ""}');
    expect(t("Close")).toBe("Close");
  });

  it("fills only the placeholders it has values for, and values are not read as placeholders", () => {
    expect(interpolate("{a} and {b}", { a: "{b}" })).toBe("{b} and {b}");
    expect(interpolate("Remove {area}", {})).toBe("Remove {area}");
  });

  it("falls back to the page's lang when the messages carry none", () => {
    document.documentElement.lang = "fil";
    setMessages({ Close: "Isara" });
    expect(currentLang()).toBe("fil");
  });
});

describe("numbers and dates follow the language", () => {
  it("writes them in English by default and in Filipino on a Filipino page", () => {
    const day = new Date(Date.UTC(2026, 10, 23, 4));
    const options: Intl.DateTimeFormatOptions = { timeZone: "Asia/Manila", month: "long", day: "numeric" };
    expect(formatNumber(12345.5)).toBe("12,345.5");
    expect(formatDate(day, options)).toBe("November 23");
    embed('{"Close": "Isara"}');
    expect(formatNumber(12345.5)).toBe(new Intl.NumberFormat("fil").format(12345.5));
    expect(formatDate(day, options)).toBe("Nobyembre 23");
  });
});
