/**
 * Response validation by zod, with zod's compiled parser (`z.compile`) for a schema that has
 * become hot (docs/design.md, "The client"). Compiling one costs what about 800 parses save (8 to
 * 30 ms for a stream's or the DNS list's answer): never recovered in a provider host, which parses
 * a schema a few hundred times at most, but soon in a long-lived process (a script, the drift
 * runner). A body the compiled parser refuses goes to zod's own, so every error keeps zod's issues.
 */
import { z } from "zod";

/** Parses of one response schema after which it is compiled (past where compiling pays off). */
export const COMPILE_AFTER = 1000;

/** Per response schema: the parses so far, or its compiled parser. */
const parsers = new WeakMap<z.ZodType, number | z.ZodType>();

/** The output of `schema` for a parsed body, `schema.safeParse` alike; the body is left as it is. */
export function parseResponse<S extends z.ZodType>(schema: S, body: unknown): z.ZodSafeParseResult<z.output<S>> {
  const parser = parsers.get(schema) ?? 0;
  if (typeof parser !== "number") return parser.safeParse(body) as z.ZodSafeParseResult<z.output<S>>;
  parsers.set(schema, parser + 1 < COMPILE_AFTER ? parser + 1 : z.compile(schema));
  return schema.safeParse(body);
}
