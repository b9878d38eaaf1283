/**
 * The functions schemas hand to zod (`.transform(f)`, `.refine(f)`) that a check plan may name
 * (./check-plan.ts): a schema built with one of these is planned ahead of time, and checked with
 * no zod; a schema with any other function is checked by zod. Each is declared once, here, and
 * the schemas use these very functions (./shapes.ts).
 */
export const checkFunctions = {
  /** A number sent where text is documented, as the text it stands for. */
  String,
  /** A numeric string, as its number. */
  toNumber: (text: string): number => Number(text),
  /** Text that reads as a finite number. */
  isNumericText: (text: string): boolean => text.trim() !== "" && Number.isFinite(Number(text)),
};

export type CheckFunctionName = keyof typeof checkFunctions;
