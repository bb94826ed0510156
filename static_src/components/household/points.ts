/**
 * The Point System's conversion, as the server does it (sibol/household/credits.py):
 * kilograms typed -> whole grams -> points = grams * rulePoints / ruleGrams, rounded down.
 * Returns null for anything the server would refuse as a weight (empty, text, 0 or less).
 */
export function pointsForKg(typed: string, ruleGrams: number, rulePoints: number): number | null {
  const text = typed.trim();
  if (!/^\d*\.?\d+$|^\d+\.$/.test(text)) return null;
  if (!(ruleGrams > 0) || !(rulePoints > 0)) return null;
  const [whole, fraction = ""] = text.split(".");
  // Whole grams (a fourth decimal of 5 or more rounds up; the server rounds half to even, so a
  // preview may differ by a gram), without float drift.
  const milli = Number(whole || "0") * 1000 + Number((fraction + "000").slice(0, 3));
  const grams = milli + (Number(fraction[3] ?? "0") >= 5 ? 1 : 0);
  if (grams <= 0 || grams > 100_000_000) return null;
  return Math.floor((grams * rulePoints) / ruleGrams);
}
