/**
 * Response validation by zod, with zod's compiled parser (`z.compile`) for a schema that has
 * become hot. zod's compiler generates one plain function per schema that checks a body and
 * builds the schema's output, falling back to zod's own parser for a body that function refuses,
 * so every error keeps zod's issues; a compiled parser is about a quarter to a third cheaper per
 * answer than zod's own, but generating it costs what about 800 parses of that schema save
 * (measured on Node 20 with a stream's and the DNS list's answers: 8 to 30 ms). A provider host
 * parses each schema at most a few hundred times, and never pays for it; a long-lived process
 * (the client bench, a script, the `cdnstream` drift runner) parsing thousands does.
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
