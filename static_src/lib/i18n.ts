/**
 * The islands' texts in the page's language.
 *
 * Every human-visible string goes through `t("English text", { name: value })`: the English text
 * is the message id (scripts/islands_i18n.py extracts it into sibol/translations/islands.pot), and
 * `{name}` placeholders take the values. The server embeds, on a non-English page, the
 * translations of the islands that page loads as `<script type="application/json"
 * data-island-messages lang="fil">{"English": "Filipino", ...}</script>` (sibol/web/island_messages.py);
 * an English page embeds nothing, and a text with no translation stays English.
 *
 * Dates and numbers follow the same language through `Intl` (`formatNumber`, `formatDate`).
 */

export type Values = Record<string, string | number>;

const BLOCK_SELECTOR = 'script[type="application/json"][data-island-messages]';

let catalogue: Record<string, string> | null = null;
let catalogueLang: string | null = null;

function load(): Record<string, string> {
  if (catalogue !== null) return catalogue;
  const found: Record<string, string> = {};
  let lang: string | null = null;
  if (typeof document !== "undefined") {
    for (const block of Array.from(document.querySelectorAll<HTMLScriptElement>(BLOCK_SELECTOR))) {
      try {
        Object.assign(found, JSON.parse(block.textContent || "{}") as Record<string, string>);
      } catch {
        // A broken block leaves its texts in English rather than breaking the island.
      }
      lang = block.getAttribute("lang") || lang;
    }
  }
  catalogue = found;
  catalogueLang = lang;
  return found;
}

/**
 * Uses these translations (English text -> translated text) in `lang` instead of the page's; `null`
 * goes back to the page's blocks. For tests and for code that receives messages another way.
 */
export function setMessages(messages: Record<string, string> | null, lang?: string): void {
  catalogue = messages === null ? null : { ...messages };
  catalogueLang = messages === null ? null : (lang ?? null);
}

/** Replaces `{name}` with `values.name`; a placeholder without a value stays as written. */
export function interpolate(text: string, values?: Values): string {
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole,
  );
}

/** `text` (English, the message id) in the page's language, with `{name}` placeholders filled. */
export function t(text: string, values?: Values): string {
  const translated = load()[text];
  return interpolate(translated || text, values);
}

/** The language texts, dates and numbers follow: the messages' language, else the page's, else en. */
export function currentLang(): string {
  load();
  if (catalogueLang) return catalogueLang;
  const pageLang = typeof document !== "undefined" ? document.documentElement.lang : "";
  return pageLang || "en";
}

/** A number written the way the language writes it (grouping, decimal sign). */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(currentLang(), options).format(value);
}

/** A date or time written the way the language writes it. */
export function formatDate(value: Date | number, options?: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(currentLang(), options).format(value);
}
