/**
 * The provider object of each kind, which the dynamic-provider host gets from the `__provider`
 * module text of every resource (docs/design.md, "The serialized provider"): each kind's shim is
 * the whole `module.exports` of its own module under `provider/shims/`, a path state of every
 * release requires.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { HandlerContext } from "../kinds/common/context";
import type { Handler, KindHandler } from "../kinds/common/handlers/shared";
import { setUpProviderHost } from "./host-setup";

/**
 * The dynamic-provider host also writes every failed call's error to stderr as
 * `${error}: ${error.stack}`, which the engine shows a second time: the echo of an error meant for
 * users is dropped, a bug's (a TypeError, ...) kept (docs/design.md, "The serialized provider").
 */
const echoes = new Set<string>();
let echoFilterInstalled = false;

const isBug = (err: Error): boolean =>
  err instanceof TypeError || err instanceof ReferenceError || err instanceof SyntaxError || err instanceof RangeError;

function dropHostEcho(err: unknown): never {
  if (err instanceof Error && !isBug(err)) {
    echoes.add(`${err}: ${err.stack}`);
    if (!echoFilterInstalled) {
      echoFilterInstalled = true;
      const write = console.error;
      console.error = (...args: unknown[]) => {
        if (args.length === 1 && typeof args[0] === "string" && echoes.delete(args[0])) return;
        write.apply(console, args);
      };
    }
  }
  throw err;
}

/** The dynamic-provider host's one context, which every kind's shim in the process shares; made at the first call. */
let hostContext: HandlerContext | undefined;

/**
 * The shim for `kind`: forwards each call to the handler that `kinds/<kind>/handler` makes for the
 * dynamic-provider host's context, where a user-facing error is said once, under its resource
 * (what `provider/shims/` use); or for `pluginContext`, the provider plugin's, which answers
 * errors itself.
 */
export function shimFor(kind: string, pluginContext?: HandlerContext): pulumi.dynamic.ResourceProvider {
  let loaded: Handler | undefined;
  // Loaded once, at the first call: a host that never calls a kind never loads its code. The host
  // is set up before the first handler loads undici, or zod (./host-setup.ts says why).
  const handler = (): Handler => {
    if (loaded) return loaded;
    setUpProviderHost();
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded in the provider host only, after its set-up */
    const made = require(`../kinds/${kind}/handler`).handler as KindHandler;
    const { HandlerContext } = require("../kinds/common/context") as typeof import("../kinds/common/context");
    /* eslint-enable @typescript-eslint/no-require-imports */
    return (loaded = made(pluginContext ?? (hostContext ??= new HandlerContext())));
  };
  const said = <T>(call: Promise<T>): Promise<T> => (pluginContext ? call : call.catch(dropHostEcho));
  return {
    configure: (req) => said(handler().configure(req)),
    check: (olds, news) => said(handler().check(olds, news)),
    diff: (id, olds, news) => said(handler().diff(id, olds, news)),
    create: (inputs) => said(handler().create(inputs)),
    read: (id, props) => said(handler().read(id, props)),
    update: (id, olds, news) => said(handler().update(id, olds, news)),
    delete: (id, props) => said(handler().delete(id, props)),
  };
}
