/**
 * The provider plugin `pulumi-resource-cdnstream`: the Pulumi resource-provider protocol served
 * over gRPC to the engine, for programs in any language. It serves the kinds with the handlers
 * the dynamic resources use (through the same shims) and the data sources as functions; its
 * schema is derived from the kinds' declarations (scripts/gen-schema.ts). See docs/plugin.md.
 *
 * Why not `@pulumi/pulumi/provider`'s `main`: its server drops the provider's configuration (its
 * `configure` reads no argument in 3.246) and has no `checkConfig`/`diffConfig`. This server is
 * built like the dynamic-provider host of @pulumi/pulumi (same plain values, secrets taken off by
 * the engine, same shape of answers), so a handler behaves alike on both paths; what differs is
 * what a dynamic provider cannot do: a configuration per provider, imports, and invokes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import { CONFIG_NAMES, configFailures } from "../../client/core/config";
import { packageRoot, packageVersion, PLUGIN_PACKAGE as PACKAGE } from "../../kinds/package-info";
import { AsyncLocalStorage } from "node:async_hooks";
import { stackWording } from "../../kinds/common/advice";
import { HandlerContext, type DiagnosticSink } from "../../kinds/common/context";
import { ResourceInitError } from "../../kinds/common/handlers/shared";
import { shimFor } from "../shim";
import { UNKNOWN } from "../../kinds/common/inputs";
import { KINDS } from "../../kinds/registry";
import type { RegisteredKind } from "../../kinds/resource";

// The engine's protocol stubs of @pulumi/pulumi, with the gRPC and protobuf runtimes they were generated for.
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
/* eslint-disable @typescript-eslint/no-require-imports -- modules of @pulumi/pulumi's own dependencies, by its path */
const ofPulumi = (id: string) => require(require.resolve(id, { paths: [pulumiDir] }));
const grpc: typeof grpcTypes = ofPulumi("@grpc/grpc-js");
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- generated protobuf stubs without types we can name
type Proto = any;
const structproto: Proto = ofPulumi("google-protobuf/google/protobuf/struct_pb");
const emptyproto: Proto = ofPulumi("google-protobuf/google/protobuf/empty_pb");
const anyproto: Proto = ofPulumi("google-protobuf/google/protobuf/any_pb");
const provrpc: Proto = require("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto: Proto = require("@pulumi/pulumi/proto/provider_pb");
const plugproto: Proto = require("@pulumi/pulumi/proto/plugin_pb");
const statusproto: Proto = require("@pulumi/pulumi/proto/status_pb");
const enginerpc: Proto = require("@pulumi/pulumi/proto/engine_grpc_pb");
const engineproto: Proto = require("@pulumi/pulumi/proto/engine_pb");
/* eslint-enable @typescript-eslint/no-require-imports */

const schemaFile = path.join(packageRoot, "provider", "plugin", "schema.json");

// The protocol's marker of a secret value (sdk/go/common/resource/properties.go, and @pulumi/pulumi
// runtime/rpc.ts): an object whose `specialSigKey` holds `specialSecretSig`, the value under `value`.
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

type Props = Record<string, unknown>;

/** The value inside a secret marker, recursively; plain values unchanged. */
export function unwrapSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (value && typeof value === "object") {
    const record = value as Props;
    if (record[SIG_KEY] === SECRET_SIG) return unwrapSecrets(record.value);
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, unwrapSecrets(v)]));
  }
  return value;
}

/** `props` with the given keys marked secret, so the engine encrypts them in state whatever the program's language. */
function markSecrets(props: Props | undefined, keys: readonly string[]): Props {
  const marked: Props = { ...props };
  for (const key of keys)
    if (marked[key] !== undefined && marked[key] !== null) marked[key] = { [SIG_KEY]: SECRET_SIG, value: marked[key] };
  return marked;
}

/** A Struct's plain value; `{}` for none. */
const plain = (value: { toJavaScript(): Props } | undefined): Props => value?.toJavaScript() ?? {};

/** A Struct of a plain value: undefined members dropped (a Struct cannot hold them). */
const struct = (value: unknown) => structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value ?? {})));

// ---- kinds and functions by type token --------------------------------------------------------

/** `cdnstream:index:StreamStatus` -> `StreamStatus`; undefined for a token of another package or module. */
export function memberOf(token: string): string | undefined {
  const [pkg, mod, name] = token.split(":");
  return pkg === PACKAGE && mod === "index" && name ? name : undefined;
}

interface ServedKind {
  name: string;
  handler: ReturnType<typeof shimFor>;
  /** Inputs and outputs the engine must encrypt (the declaration's). */
  secrets: readonly string[];
}
/** The kind a resource URN (or type token) names, loaded on first use with its handler for `context`. */
function kindOf(urnOrType: string, served: Map<string, ServedKind>, context: HandlerContext): ServedKind {
  // urn:pulumi:<stack>::<project>::<type>::<name>; a parent's type may precede ours, joined by `$`.
  const type = urnOrType.startsWith("urn:") ? urnOrType.split("::")[2].split("$").pop()! : urnOrType;
  const name = memberOf(type);
  if (!name) throw new Error(`unknown resource type ${type}: this plugin serves ${PACKAGE}:index:<Kind> resources`);
  let kind = served.get(name);
  if (!kind) {
    const registered = (KINDS as Record<string, RegisteredKind | undefined>)[name];
    if (!registered) throw new Error(`unknown resource type ${type}: ${PACKAGE} has no resource kind "${name}"`);
    // A kind that is there but fails to load is that failure (a broken install, a bug), not an
    // unknown kind: its error goes to the engine whole.
    let declaration: { name: string; secretOutputs: readonly string[] };
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a computed path, one per kind
      declaration = require(`../../kinds/${registered.folder}/declaration`).declaration;
    } catch (err) {
      throw new Error(`resource kind "${name}" of ${PACKAGE} could not be loaded: ${(err as Error)?.message ?? err}`, {
        cause: err,
      });
    }
    if (declaration.name !== name) throw new Error(`unknown resource type ${type}`);
    kind = { name, handler: shimFor(registered.folder, context), secrets: declaration.secretOutputs };
    served.set(name, kind);
  }
  return kind;
}

type DataSource = ((args: object, options: object) => Promise<unknown>) & { secretResult?: boolean };

/** The data source a function token names (`cdnstream:index:getDnsZones`), and whether its result is secret. */
function functionOf(token: string): { run: DataSource; secretResult: boolean } {
  const name = memberOf(token);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on the first invoke only
  const dataSources: Record<string, DataSource> = require("../../sdk/data-sources");
  const run = name && /^get[A-Z]/.test(name) && !name.endsWith("Output") ? dataSources[name] : undefined;
  if (typeof run !== "function") throw new Error(`unknown function ${token}`);
  return { run, secretResult: dataSources[`${name}Output`]?.secretResult === true };
}

// ---- configuration ------------------------------------------------------------------------------

/**
 * The provider's settings as the client reads them (`{apiKey: "...", maxRetries: "4"}`), from an
 * explicit provider's inputs or the stack's `cdnstream:*` config, as plain text. Unknown values
 * (a setting computed from another resource, at preview) are left out and reported.
 */
export function settingsOf(args: Props): { settings: Record<string, string>; unknown: string[] } {
  const settings: Record<string, string> = {};
  const unknown: string[] = [];
  for (const name of CONFIG_NAMES) {
    const value = unwrapSecrets(args[name]);
    if (value === undefined || value === null) continue;
    if (value === UNKNOWN) unknown.push(name);
    else settings[name] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return { settings, unknown };
}

// ---- the gRPC service -----------------------------------------------------------------------------

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- grpc-js's unary call and callback, untyped stubs
type Call = { request: any };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- grpc-js's unary callback
type Callback = (error: any, value?: any, trailer?: any) => void;

const unimplemented = (what: string) => (_call: Call, callback: Callback) =>
  callback({ code: grpc.status.UNIMPLEMENTED, details: `${what} is not implemented by the ${PACKAGE} provider` });

/** An error for the engine; a {@link ResourceInitError} (a create that made its object) keeps the object in state. */
function failure(err: unknown): { code: number; message: string; metadata: grpcTypes.Metadata } {
  const message = (err as { message?: string })?.message ?? String(err);
  const metadata = new grpc.Metadata();
  if (err instanceof ResourceInitError) {
    const status = new statusproto.Status().setCode(grpc.status.UNKNOWN).setMessage(message);
    const detail = new provproto.ErrorResourceInitFailed()
      .setId(err.id)
      .setProperties(struct(err.properties))
      .setReasonsList(err.reasons);
    const details = new anyproto.Any();
    details.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    status.addDetails(details);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, message, metadata };
}

/** The calls being worked on, each answered once: by its work, or by `failCallsInFlight`. */
const callsInFlight = new Set<(err: unknown) => void>();

/** The URN of the resource each call is about, so a warning raised while serving it is shown under it. */
const callUrn = new AsyncLocalStorage<string>();

/**
 * A method of the service: runs `work` on the call's request in the scope of the call's resource
 * ({@link callUrn}) and answers the call with its result, or with the error it threw.
 */
const unary =
  <T>(work: (request: Call["request"]) => Promise<T>) =>
  (call: Call, callback: Callback): void => {
    const fail = (err: unknown) => {
      if (!callsInFlight.delete(fail)) return;
      const response = failure(err);
      callback(response, null, response.metadata);
    };
    callsInFlight.add(fail);
    const urn = typeof call.request?.getUrn === "function" ? call.request.getUrn() : "";
    callUrn
      .run(urn, () => work(call.request))
      .then((value) => callsInFlight.delete(fail) && callback(null, value), fail);
  };

/**
 * Answers every call in flight with `err`: after an uncaught exception the process is about to
 * end, and an engine left waiting for an answer would hang. Returns how many calls it failed.
 */
export function failCallsInFlight(err: unknown): number {
  const calls = [...callsInFlight];
  for (const fail of calls) fail(err);
  return calls.length;
}

const checkResponse = (inputs: unknown, failures: readonly { property: string; reason: string }[] = []) => {
  const list = failures.map((f) => new provproto.CheckFailure().setProperty(f.property).setReason(f.reason));
  return new provproto.CheckResponse().setInputs(inputs).setFailuresList(list);
};

const { DIFF_SOME, DIFF_NONE, DIFF_UNKNOWN } = provproto.DiffResponse.DiffChanges;
const diffChanges = (changes?: boolean) =>
  changes === true ? DIFF_SOME : changes === false ? DIFF_NONE : DIFF_UNKNOWN;

/** The service's methods, each answering one call of the engine, with the handlers' state in `context`. */
export function serviceFor(context: HandlerContext) {
  const served = new Map<string, ServedKind>();
  /** A method of the service about one resource: `work` gets the resource's kind and the call's request. */
  const forKind = <T>(work: (kind: ServedKind, request: Call["request"]) => Promise<T>) =>
    unary(async (request) => work(kindOf(request.getUrn(), served, context), request));
  return {
    getPluginInfo(_call: Call, callback: Callback) {
      callback(null, new plugproto.PluginInfo().setVersion(packageVersion));
    },

    getSchema: unary(async (request) => {
      if (request.getVersion() !== 0) throw new Error(`unsupported schema version ${request.getVersion()}`);
      return new provproto.GetSchemaResponse().setSchema(fs.readFileSync(schemaFile, "utf8"));
    }),

    /** The provider's configuration at preview, before anything is sent; the inputs go back as they came. */
    checkConfig: unary(async (request) => {
      const news = request.getNews();
      const { settings, unknown } = settingsOf(plain(news));
      // An explicit provider takes each setting as an argument too, and the advice says so.
      const wording = stackWording({ providerArguments: true });
      const failures = configFailures(settings, wording).filter((f) => !unknown.includes(f.property));
      return checkResponse(news, failures);
    }),

    /**
     * A changed setting is an update of the provider, never a replacement: a new key or address
     * reaches the same objects, and replacing the provider would replace every resource it manages.
     */
    diffConfig: unary(async (request) => {
      const olds = settingsOf(plain(request.getOlds()));
      const news = settingsOf(plain(request.getNews()));
      const changed =
        news.unknown.length > 0 ||
        CONFIG_NAMES.some((name) => olds.settings[name] !== news.settings[name] && !olds.unknown.includes(name));
      return new provproto.DiffResponse().setChanges(diffChanges(changed));
    }),

    configure: unary(async (request) => {
      const args = plain(request.getArgs());
      // Engines that send no arguments send the settings as `cdnstream:config:<name>` variables.
      for (const [key, value] of request.getVariablesMap()?.entries() ?? []) {
        const name = String(key).replace(`${PACKAGE}:config:`, "");
        if (args[name] === undefined) args[name] = value;
      }
      // Only what the program or stack config set arrives here (the schema declares no default and
      // no environment variable for an SDK to apply): the client fills in the rest from this
      // process's CDNSTREAM_* variables, passed on by the engine, and its defaults (resolveConfig),
      // so nothing the user did not set, the key from the environment least of all, is recorded.
      await context.configure(settingsOf(args).settings);
      return new provproto.ConfigureResponse()
        .setAcceptsecrets(false)
        .setSupportspreview(false)
        .setAcceptresources(false);
    }),

    check: forKind(async ({ handler }, request) => {
      const news = plain(request.getNews());
      const result = await handler.check!(plain(request.getOlds()), news);
      return checkResponse(struct(result.inputs ?? news), result.failures);
    }),

    diff: forKind(async ({ handler }, request) => {
      const result = await handler.diff!(request.getId(), plain(request.getOlds()), plain(request.getNews()));
      const resp = new provproto.DiffResponse().setChanges(diffChanges(result.changes));
      if (result.replaces?.length) resp.setReplacesList(result.replaces);
      if (result.deleteBeforeReplace) resp.setDeletebeforereplace(true);
      return resp;
    }),

    create: forKind(async ({ handler, secrets }, request) => {
      const result = await handler.create(plain(request.getProperties()));
      return new provproto.CreateResponse().setId(result.id).setProperties(struct(markSecrets(result.outs, secrets)));
    }),

    /**
     * A refresh (the recorded state given), or an import (nothing recorded: every input the API
     * shows is taken from the live object, so `pulumi import` can write the program's code).
     */
    read: forKind(async ({ handler, secrets, name }, request) => {
      const id: string = request.getId();
      const props: Props = plain(request.getProperties());
      const importing = Object.keys(props).length === 0;
      const result = await handler.read!(id, props);
      const resp = new provproto.ReadResponse();
      if (!result.id) return resp; // gone: the engine drops it (a refresh) or says it does not exist (an import)
      if (importing && (!result.props || Object.keys(result.props).length === 0)) {
        throw new Error(
          `${name} "${id}" cannot be imported: its live values cannot be read from the API (see the warning above), ` +
            `so nothing could be recorded. Declare the resource in the program instead: \`pulumi up\` writes the ` +
            `declared settings, which is what an import would have recorded.`,
        );
      }
      resp.setId(result.id).setProperties(struct(markSecrets(result.props, secrets)));
      if (result.inputs) resp.setInputs(struct(markSecrets(result.inputs, secrets)));
      return resp;
    }),

    update: forKind(async ({ handler, secrets }, request) => {
      const result = await handler.update!(request.getId(), plain(request.getOlds()), plain(request.getNews()));
      return new provproto.UpdateResponse().setProperties(struct(markSecrets(result.outs, secrets)));
    }),

    delete: forKind(async ({ handler }, request) => {
      await handler.delete!(request.getId(), plain(request.getProperties()));
      return new emptyproto.Empty();
    }),

    /** A data source: the same function a TypeScript program calls, through this provider's client. */
    invoke: unary(async (request) => {
      const { run, secretResult } = functionOf(request.getTok());
      const result = (await run(plain(request.getArgs()), { client: context.client() })) as Props;
      return new provproto.InvokeResponse().setReturn(
        struct(secretResult ? markSecrets(result, Object.keys(result)) : result),
      );
    }),

    cancel(_call: Call, callback: Callback) {
      callback(null, new emptyproto.Empty());
    },

    handshake: unimplemented("Handshake"),
    parameterize: unimplemented("Parameterize"),
    construct: unimplemented("Construct"),
    call: unimplemented("Call"),
    attach: unimplemented("Attach"),
    getMapping: unimplemented("GetMapping"),
    getMappings: unimplemented("GetMappings"),
    list(call: { emit(event: string, error: unknown): void }) {
      call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "List is not implemented" });
    },
  };
}

/**
 * Warnings and notes of the handlers go to the engine's log, under the call's resource (a
 * plugin's stderr is shown only at debug level); if the engine cannot be reached, to stderr.
 */
function engineLog(engineAddress: string): DiagnosticSink {
  const engine = new enginerpc.EngineClient(engineAddress, grpc.credentials.createInsecure());
  const { LogSeverity } = engineproto;
  return (severity, message) => {
    const request = new engineproto.LogRequest();
    request
      .setSeverity(severity === "warning" ? LogSeverity.WARNING : LogSeverity.INFO)
      .setMessage(message)
      .setUrn(callUrn.getStore() ?? "");
    engine.log(request, (err: Error | null) => {
      if (err) process.stderr.write(`${severity === "warning" ? "warning: " : ""}${message}\n`);
    });
  };
}

/**
 * Serves the provider: binds a loopback port and prints it, which is how the engine finds a
 * plugin it started. The engine's address, the first argument, receives the handlers' warnings.
 */
export async function serve(engineAddress = process.argv[2]): Promise<void> {
  const context = new HandlerContext(engineAddress ? engineLog(engineAddress) : undefined);
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1024 * 1024 * 400 });
  const service = serviceFor(context);
  server.addService(provrpc.ResourceProviderService, service as unknown as grpcTypes.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  process.stdout.write(`${port}\n`);
}
