/** `n` rounded to `digits` decimals (the bench reports figures, not float noise). */
export function round(n: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(n * scale) / scale;
}
