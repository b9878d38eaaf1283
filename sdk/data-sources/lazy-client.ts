/**
 * The API client, loaded at a program's first data-source call rather than with the SDK. Every
 * program imports the SDK and most call no data source, while the client's operation families
 * (each operation's schemas are built as its module loads) and undici were over a third of what
 * importing the SDK cost a program, at every `up` and `preview` (docs/benchmarks.md). So a data
 * source module names the client's values only through {@link clientModule}, and describes its
 * calls with {@link onFirstCall}; it imports the client's types as it likes.
 */
import type * as Client from "../../provider/client";

let loaded: typeof Client | undefined;

/** `pulumi-cdnstream/provider/client`, required at its first use. @internal */
export function clientModule(): typeof Client {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred to the first data-source call (see above)
  return (loaded ??= require("../../provider/client") as typeof Client);
}

/** What `build` makes of the client, made at the first call and kept: a module's call descriptions. @internal */
export function onFirstCall<T>(build: (client: typeof Client) => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build(clientModule()) }).value;
}
