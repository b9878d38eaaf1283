/** What a handler throws: the server answers with its status and body (docs/design.md, "Error bodies"). */
export class EmulatorError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "EmulatorError";
  }

  body(): unknown {
    return { result: "error", message: this.message };
  }
}

/** §5: 401 (missing or invalid key) and 403 (account restriction) use their own envelope. */
export class AuthError extends EmulatorError {
  override body(): unknown {
    return { status: "error", errors: [{ code: this.status, message: this.message }] };
  }
}

/** 400: the request could not be read at all (malformed JSON). */
export const badRequest = (message: string) => new EmulatorError(400, message);

/** 404: an unknown id, or a path the API does not have. */
export const notFound = (message: string) => new EmulatorError(404, message);

/** 422: a documented rule was broken; the message names the field and the rule. */
export const invalid = (field: string, rule: string) => new EmulatorError(422, `${field}: ${rule}`);
