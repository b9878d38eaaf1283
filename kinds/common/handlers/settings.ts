/**
 * The handler shape of the kinds that manage settings of an object the stack does not create
 * (docs/design.md, "Two handler shapes"): create and update write the declared settings, read
 * compares the live object, delete releases management and says what stays live.
 */
import type { DeclaredKind } from "../declare";
import { stackSettings, UNVERIFIED_ADOPTION, type HandlerContext, type ReadPath } from "../context";
import { ADOPT_KEY, checkInputs, diffInputs, hasUnknown, inputsFromLive, pickInputs, type Inputs } from "../inputs";
import { declaredIn, outsOf, requireAdoptable, type Handler, type KindHandler } from "./shared";

/** What the live object holds: the managed inputs in the SDK's shape, and the outputs. */
export interface LiveObject {
  inputs: Inputs;
  outputs: Inputs;
}

export interface SettingsKind<Args extends Inputs> {
  declaration: DeclaredKind;
  /** The resource id for these inputs (also the `adoptId` format); by default made by the declaration's `idFormat`. */
  idOf?(args: Args): string;
  /** The identity inputs encoded in an id; throws, naming the format, when it is malformed. By default the declaration's. */
  parseId?(id: string): Inputs;
  /**
   * The path `read` goes through when it is one the spec does not list (read through readLive). A
   * kind that reads through listed operations leaves it out and returns undefined itself where
   * nothing could be read.
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
   * Where the API has no read for the object, adoption records these outputs on the user's word,
   * with a warning, instead of failing: for kinds whose write cannot stand in for adoption (an
   * add-only API refuses a second slot).
   */
  adoptUnread?(args: Args, id: string): Inputs;
  /** The warning when destroying releases the object: what stays live. */
  released(id: string, props: Inputs): string;
}

/** The handler of a settings kind, made for the context of each host that serves it. */
export function settingsHandler<Args extends Inputs>(
  specOf: (context: HandlerContext) => SettingsKind<Args>,
): KindHandler {
  return (context) => handlerOf(specOf(context), context);
}

/** The handler for one host's `context`. */
function handlerOf<Args extends Inputs>(spec: SettingsKind<Args>, context: HandlerContext): Handler {
  const kind = spec.declaration;
  const idOf = spec.idOf ?? kind.idOf;
  const parseId = spec.parseId ?? kind.parseId;
  if (!idOf || !parseId)
    throw new Error(
      `${kind.name}: its idFormat is not a template of inputs, so the kind must make and parse ids itself`,
    );

  /** Runs the kind's read, through the no-read fallback where it uses a path the spec does not list. */
  function read(identity: Inputs, recorded?: Inputs) {
    // A declared operation is itself callable: a resolver is told apart by having no path.
    const readPath = spec.readPath;
    const path =
      typeof readPath === "function" && !("path" in readPath) ? readPath(identity) : (readPath as ReadPath | undefined);
    return path
      ? context.readLive(kind.name, path, () => spec.read(identity, recorded))
      : spec.read(identity, recorded);
  }

  /** The `create` of an adopting resource: read, compare, write nothing. */
  const adopt = async (args: Args, id: string) => {
    const identity = parseId(id);
    const live = await read(identity);
    if (live === undefined && spec.adoptUnread) {
      context.warn(`${kind.name} ${id}: ${UNVERIFIED_ADOPTION}`);
      return { id, outs: outsOf(kind, args, spec.adoptUnread(args, id)) };
    }
    if (live === undefined || live === "gone") {
      const why = live === "gone" ? "it is not in the state this kind manages" : "the API has no read for it";
      throw new Error(
        `${kind.name} adoptId "${id}": cannot adopt: ${why}. Remove adoptId to write the declared settings instead.`,
      );
    }
    requireAdoptable(
      kind,
      id,
      args,
      { ...live.inputs, ...identity },
      "Declare the live values to adopt it, then change them in a later update.",
    );
    return { id, outs: outsOf(kind, args, live.outputs) };
  };

  return {
    configure: (req) => context.configure(stackSettings(req)),

    async check(_olds, news) {
      const result = context.withConfigFailures(checkInputs(kind.args, news));
      const adoptId = news[ADOPT_KEY];
      if (result.failures?.length || typeof adoptId !== "string" || hasUnknown(news)) return result;
      const expected = idOf(news as Args);
      if (adoptId === expected) return result;
      const reason = `must be the id of the object these inputs name ("${expected}"), not "${adoptId}"`;
      return { inputs: news, failures: [{ property: ADOPT_KEY, reason }] };
    },

    diff: async (_id, olds, news) => diffInputs(olds, news, kind.rules),

    async create(inputs) {
      const args = inputs as Args;
      const id = idOf(args);
      if (typeof args[ADOPT_KEY] === "string") return adopt(args, id);
      return { id, outs: outsOf(kind, args, await spec.apply(args)) };
    },

    async read(id, props) {
      const identity = parseId(id);
      const live = await read(identity, props);
      if (live === undefined) return { id, props };
      if (live === "gone") return { id: "" };
      const inputs = inputsFromLive(declaredIn(kind, props), { ...live.inputs, ...identity }, kind.liveRules);
      const carried = pickInputs(props, kind.keptOnRefresh);
      return { id, props: { ...inputs, ...carried, ...live.outputs }, inputs };
    },

    async update(_id, olds, news) {
      const args = news as Args;
      return { outs: outsOf(kind, args, await spec.apply(args, olds)) };
    },

    async delete(id, props) {
      context.warn(spec.released(id, props));
    },
  };
}
