/** Reads and parses a JSON request body with a size limit. */
import { IncomingMessage } from "node:http";
import { badRequest, EmulatorError } from "./errors";
import { isPlainObject, Obj } from "./store";

/** Largest accepted request body (the spec states none; 1 MiB is ample for every §4 body). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Deepest accepted nesting of a JSON body (the spec states none; §4 bodies nest at most three
 * levels). 1 MiB of `[` would otherwise overflow the stack of every recursive walk downstream:
 * validation messages, the request log, admin merges.
 */
export const MAX_BODY_DEPTH = 64;

const tooLarge = () => new EmulatorError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`, { Connection: "close" });

/** Collects the raw body, rejecting with 413 as soon as it passes the limit. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners("data");
        req.pause();
        reject(tooLarge());
      } else {
        chunks.push(chunk);
      }
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    // A client that hangs up mid-body gets no answer; the log records a 400.
    req.on("error", (e) => reject(badRequest(`request body not received: ${e.message}`)));
  });
}

/** Parses a body as a JSON object; an empty body is `{}`. */
export function parseJsonObject(raw: Buffer, contentType: string | undefined): Obj {
  if (raw.length === 0) return {};
  // Request bodies are JSON (spec conventions); form encodings are not accepted.
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType ?? "")) {
    throw new EmulatorError(
      415,
      `Content-Type must be application/json (got ${contentType ? `'${contentType}'` : "none"})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(raw.toString("utf8"));
  } catch (e) {
    throw badRequest(`malformed JSON body: ${(e as Error).message}`);
  }
  if (!isPlainObject(value)) throw badRequest("request body must be a JSON object");
  if (depthExceeds(value, MAX_BODY_DEPTH)) throw badRequest(`JSON body nested deeper than ${MAX_BODY_DEPTH} levels`);
  return value;
}

/** True when objects and arrays in `root` nest deeper than `max` levels (walked without recursion). */
function depthExceeds(root: object, max: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== "object" || value === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}
