/**
 * The API client and zod, loaded at a program's first data-source call rather than with the SDK,
 * which every program imports at every `up` and `preview` (docs/benchmarks.md). A data source
 * module names their values only through {@link clientModule} and {@link zodModule}, and describes
 * its calls with {@link onFirstCall}; it imports their types as it likes.
 */
import type * as Client from "../../client";
import type * as Zod from "zod";

let loaded: typeof Client | undefined;

/** `pulumi-cdnstream/provider/client`, required at its first use. @internal */
export function clientModule(): typeof Client {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred to the first data-source call (see above)
  return (loaded ??= require("../../client") as typeof Client);
}

let zodLoaded: typeof Zod | undefined;

/** zod, required at its first use (the data sources' argument rules). @internal */
export function zodModule(): typeof Zod {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred to the first data-source call (see above)
  return (zodLoaded ??= require("zod") as typeof Zod);
}

/**
 * What `build` makes of the client and zod, made at the first call and kept: a module's call
 * descriptions. @internal
 */
export function onFirstCall<T>(build: (client: typeof Client, z: typeof Zod.z) => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build(clientModule(), zodModule().z) }).value;
}
