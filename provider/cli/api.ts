/**
 * `cdnstream api <METHOD> <path>`: one request through the real client (key, pacing, retries,
 * error messages, redaction), the JSON response on stdout.
 */
import { readFileSync } from "node:fs";
import { CdnstreamClient } from "../../client/core/client";
import { CdnstreamError, ConfigError } from "../../client/core/errors";
import { stackWording } from "../../kinds/common/advice";
import { retryKindFor } from "../../client/registry";
import { EXIT, EXIT_HELP, parseOptions, parseOrExit, UsageError, type Command } from "./command";

const HELP = `Usage: cdnstream api <METHOD> <path> [--data JSON|@file] [--query key=value ...]

Sends one request to the API and prints the JSON response on stdout.

Arguments:
  METHOD                 GET or POST (as in the API reference)
  path                   the path after the base URL, e.g. /v2/dns (/v2 is added if missing)

Options:
  -d, --data JSON|@file  request body: JSON text, @path to read a file, or @- for stdin
  -q, --query key=value  a query parameter; repeat for more
      --base-url URL     the address before /v2 (default: CDNSTREAM_BASE_URL)
  -v, --verbose          report retries on stderr
  -h, --help             show this help

The key comes from CDNSTREAM_API_KEY only (a flag would end up in shell history).
Retries follow the operation the path matches: GET and the spec's writes retry on 429
(honouring Retry-After), 502, 503, 504, resets and timeouts; POST /v2/streams/timeshift/new
and unknown non-GET paths are retried only if the connection never opened. The body is sent
as given (no client-side validation), so the API's own checks answer.

${EXIT_HELP}

Examples:
  cdnstream api GET /v2/dns
  cdnstream api GET /v2/zones/http/pull --query page=2
  cdnstream api POST /v2/streams/push/12/status --data '{"disabled":1}'`;

/** Parses the arguments after `api`; `undefined` means help was asked for. */
export function parseApiArgs(argv: readonly string[], readFile: (path: string) => string) {
  const { values, positionals } = parseOptions({
    args: argv,
    allowPositionals: true,
    options: {
      data: { type: "string", short: "d" },
      query: { type: "string", short: "q", multiple: true },
      "base-url": { type: "string" },
      verbose: { type: "boolean", short: "v" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return undefined;
  if (positionals.length !== 2) throw new UsageError(`expected <METHOD> <path>, got ${positionals.length} argument(s)`);
  const [rawMethod, rawPath] = positionals as [string, string];
  if (!/^[A-Za-z]+$/.test(rawMethod)) throw new UsageError(`"${rawMethod}" is not an HTTP method`);
  if (/^[a-z]+:\/\//i.test(rawPath))
    throw new UsageError("give the path only (e.g. /v2/dns); the base URL comes from CDNSTREAM_BASE_URL or --base-url");
  let path = rawPath.startsWith("/") ? rawPath : `/${rawPath}`;
  if (!/^\/v2(\/|$|\?)/.test(path)) path = `/v2${path}`;

  const query = new URLSearchParams();
  for (const pair of values.query ?? []) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`--query takes key=value, got "${pair}"`);
    query.append(pair.slice(0, eq), pair.slice(eq + 1));
  }
  if (query.size > 0) path += (path.includes("?") ? "&" : "?") + query.toString();

  let body: unknown;
  if (values.data !== undefined) {
    const text = values.data.startsWith("@") ? readData(values.data.slice(1), readFile) : values.data;
    try {
      body = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`--data is not valid JSON: ${(e as Error).message}`);
    }
  }
  return { method: rawMethod.toUpperCase(), path, body, baseUrl: values["base-url"], verbose: values.verbose ?? false };
}

function readData(source: string, readFile: (path: string) => string): string {
  try {
    return readFile(source === "-" ? "/dev/stdin" : source);
  } catch (e) {
    throw new UsageError(`cannot read --data file "${source}": ${(e as Error).message}`);
  }
}

export const apiCommand: Command = {
  summary: "send one request (e.g. `cdnstream api GET /v2/dns`) and print the JSON response",
  async run(argv, io) {
    const parsed = parseOrExit(io, "api", HELP, () => parseApiArgs(argv, (p) => readFileSync(p, "utf8")));
    if (typeof parsed === "number") return parsed;
    let client: CdnstreamClient;
    try {
      client = new CdnstreamClient({
        env: io.env,
        baseUrl: parsed.baseUrl,
        logger: parsed.verbose ? (line) => io.stderr(`cdnstream: ${line}`) : undefined,
        // The key can only have come from CDNSTREAM_API_KEY (this command reads no stack config):
        // stack-config and rotation advice would send the user where this command never looks.
        ...stackWording({ keyFromEnvironmentOnly: true }),
      });
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      io.stderr(`cdnstream api: ${e.message}`);
      // The command line was right; the environment is not ready.
      return EXIT.failed;
    }
    try {
      const { kind, operation } = retryKindFor(parsed.method, parsed.path);
      const response = await client.raw(parsed.method, parsed.path, {
        body: parsed.body,
        retry: kind,
        template: operation?.path,
      });
      io.stdout(typeof response.body === "string" ? response.body : JSON.stringify(response.body, null, 2));
      return EXIT.ok;
    } catch (e) {
      if (!(e instanceof CdnstreamError)) throw e;
      io.stderr(`cdnstream api: ${e.message}`);
      return EXIT.failed;
    } finally {
      await client.close();
    }
  },
};
