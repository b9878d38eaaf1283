/**
 * Deterministic synthetic analytics: the same query always yields the same numbers, so reports
 * are stable across calls, restarts and machines.
 */

/** FNV-1a of `key`, scaled to [0, 1). */
export function unit(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 4294967296;
}

/** An integer around `mean` (±50%), fixed for `key`. */
export const around = (key: string, mean: number): number => Math.round(mean * (0.5 + unit(key)));

/** `part / whole` as a percentage with two decimals; 0 when `whole` is 0. */
export const percent = (part: number, whole: number): number => (whole ? Math.round((part / whole) * 10000) / 100 : 0);
