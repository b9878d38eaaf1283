/**
 * The handler shape shared by the kinds that manage settings of an object the stack does not
 * create (a zone's domains, a stream's status, a slot on a zone, a campaign's archive): create
 * and update write the declared settings, read compares the live object, delete releases
 * management and says what stays live. Each kind's module supplies what is its own.
 *
 * Adoption (`adoptId`) stands in for `pulumi import`, which the dynamic-provider host of
 * @pulumi/pulumi 3.246 cannot serve: its read handler dereferences the state an import does not
 * have ("Cannot read properties of undefined (reading 'toJavaScript')"). A resource declared
 * with `adoptId` reads the live object in `create` and writes nothing; as with `pulumi import`,
 * the declared settings must equal the live ones, so adopting never changes the account.
 */
import type { z } from "zod";
import { configure, readLive, UNVERIFIED_ADOPTION, warn, type ReadPath } from "./context";
import { ADOPT_KEY, checkInputs, diffInputs, hasUnknown, inputsFromLive, pickInputs, sameValue, type DiffRules, type Inputs } from "./inputs";
import type { Handler } from "./shim";

/** What the live object holds: the managed inputs in the SDK's shape, and the outputs. */
export interface LiveObject {
  inputs: Inputs;
  outputs: Inputs;
}

export interface SettingsKind<Args extends Inputs> {
  /** The kind's name, as users see it (e.g. `StreamStatus`). */
  kind: string;
  /** Strict schema of the inputs, `adoptId` included. */
  args: z.ZodType<Args>;
  /** The managed input properties (identity and settings). */
  inputKeys: readonly string[];
  rules: DiffRules;
  /** The resource id for these inputs (also the `adoptId` format). */
  idOf(args: Args): string;
  /** The identity inputs encoded in an id; throws, naming the format, when it is malformed. */
  parseId(id: string): Inputs;
  /**
   * The path `read` goes through when it is one the spec does not list: the handler runs `read`
   * through {@link readLive} (tried once per run; where it is absent, state is kept and the kind
   * reported once). A kind that reads through listed operations, or mixes both, leaves it out
   * and returns undefined itself where nothing could be read.
   */
  readPath?: ReadPath | ((identity: Inputs) => ReadPath);
  /**
   * Reads the live object: "gone" when it no longer exists in the managed state, undefined when
   * the API has no read for it. `recorded` is the resource's state (a refresh), or undefined
   * (adoption).
   */
  read(identity: Inputs, recorded?: Inputs): Promise<LiveObject | "gone" | undefined>;
  /**
   * Writes the declared settings and returns the outputs. `recorded` is the resource's state on
   * an update, undefined on create.
   */
  apply(args: Args, recorded?: Inputs): Promise<Inputs>;
  /**
   * Where the API has no read for the object, adoption takes the declared values on the user's
   * word (recording these outputs, with a warning) instead of failing. For kinds whose write
   * cannot stand in for adoption (an add-only API refuses a second slot); without it, adopting
   * an unreadable object fails and says to write the declared settings instead.
   */
  adoptUnread?(args: Args, id: string): Inputs;
  /** Outputs only a write returns (such as its warnings): a refresh keeps the last ones. */
  writeOnlyOutputs?: readonly string[];
  /** The warning when destroying releases the object: what stays live. */
  released(id: string, props: Inputs): string;
}

/** Outputs always hold the declared inputs, so `diff` can compare against them. */
function outsOf(args: Inputs, keys: readonly string[], outputs: Inputs): Inputs {
  return { ...pickInputs(args, [...keys, ADOPT_KEY]), ...outputs };
}

/** Runs the kind's read, through {@link readLive} where it uses a path the spec does not list. */
function readOf<Args extends Inputs>(spec: SettingsKind<Args>, identity: Inputs, recorded?: Inputs) {
  const read = () => spec.read(identity, recorded);
  const path = typeof spec.readPath === "function" ? spec.readPath(identity) : spec.readPath;
  return path ? readLive(spec.kind, path, read) : read();
}

/** The `create` of an adopting resource: read, compare, write nothing. */
async function adopt<Args extends Inputs>(spec: SettingsKind<Args>, args: Args, id: string) {
  const identity = spec.parseId(id);
  const live = await readOf(spec, identity);
  if (live === undefined && spec.adoptUnread) {
    warn(`${spec.kind} ${id}: ${UNVERIFIED_ADOPTION}`);
    return { id, outs: outsOf(args, spec.inputKeys, spec.adoptUnread(args, id)) };
  }
  if (live === undefined || live === "gone") {
    const why = live === "gone" ? "it is not in the state this kind manages" : "the API has no read for it";
    throw new Error(`${spec.kind} adoptId "${id}": cannot adopt: ${why}. Remove adoptId to write the declared settings instead.`);
  }
  const liveInputs = { ...live.inputs, ...identity };
  // A declared setting the API does not echo cannot be compared; like a refresh, adoption
  // takes the declared value for it.
  const differing = spec.inputKeys.filter((key) => {
    if (args[key] === undefined || liveInputs[key] === undefined) return false;
    const same = spec.rules.compare?.[key] ?? sameValue;
    return !same(args[key], liveInputs[key]);
  });
  if (differing.length) {
    const detail = differing
      .map((key) => `${key} is ${JSON.stringify(liveInputs[key])} live but declared ${JSON.stringify(args[key])}`)
      .join("; ");
    throw new Error(
      `${spec.kind} adoptId "${id}": adopting requires the declared inputs to match the live object: ${detail}. ` +
        "Declare the live values to adopt it, then change them in a later update.",
    );
  }
  return { id, outs: outsOf(args, spec.inputKeys, live.outputs) };
}

/** Builds the dynamic-provider handler of a settings kind. */
export function settingsHandler<Args extends Inputs>(spec: SettingsKind<Args>): Handler {
  return {
    configure,

    async check(_olds, news) {
      const result = checkInputs(spec.args, news);
      const adoptId = news[ADOPT_KEY];
      if (result.failures?.length || typeof adoptId !== "string" || hasUnknown(news)) return result;
      const expected = spec.idOf(news as Args);
      if (adoptId !== expected) {
        return {
          inputs: news,
          failures: [{ property: ADOPT_KEY, reason: `must be the id of the object these inputs name ("${expected}"), not "${adoptId}"` }],
        };
      }
      return result;
    },

    async diff(_id, olds, news) {
      return diffInputs(olds, news, spec.rules);
    },

    async create(inputs) {
      const args = inputs as Args;
      const id = spec.idOf(args);
      if (typeof args[ADOPT_KEY] === "string") return adopt(spec, args, id);
      return { id, outs: outsOf(args, spec.inputKeys, await spec.apply(args)) };
    },

    async read(id, props) {
      const identity = spec.parseId(id);
      const live = await readOf(spec, identity, props);
      if (live === undefined) return { id, props };
      if (live === "gone") return { id: "" };
      const declared = pickInputs(props, [...spec.inputKeys, ADOPT_KEY]);
      const inputs = inputsFromLive(declared, { ...live.inputs, ...identity }, spec.rules);
      const carried = pickInputs(props, spec.writeOnlyOutputs ?? []);
      return { id, props: { ...inputs, ...carried, ...live.outputs }, inputs };
    },

    async update(_id, olds, news) {
      const args = news as Args;
      return { outs: outsOf(args, spec.inputKeys, await spec.apply(args, olds)) };
    },

    async delete(id, props) {
      warn(spec.released(id, props));
    },
  };
}
