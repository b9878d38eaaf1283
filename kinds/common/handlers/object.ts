/**
 * The handler shape of a kind whose object the provider creates (TimeshiftStream): create makes
 * the object or adopts one (`adoptId`); update and delete do what the API allows.
 */
import type { DeclaredKind } from "../declare";
import { stackSettings, UNVERIFIED_ADOPTION, type HandlerContext, type ReadPath } from "../context";
import { ADOPT_KEY, checkInputs, diffInputs, inputsFromLive, type Inputs } from "../inputs";
import { declaredIn, outsOf, requireAdoptable, type Handler, type KindHandler } from "./shared";
import type { LiveObject } from "./settings";

export interface ObjectKind<Args extends Inputs> {
  declaration: DeclaredKind;
  /** The read of one object, a path the spec does not list: tried once per run (readLive). */
  readPath: ReadPath;
  /** Reads the object; `deleted` when it was deleted outside the stack (a refresh then drops it). */
  read(id: string): Promise<LiveObject & { deleted?: boolean }>;
  /** Makes the object: its id and outputs. */
  create(args: Args, inputs: Inputs): Promise<{ id: string; outs: Inputs }>;
  /** Changes what changes in place; returns the outputs. */
  update(id: string, olds: Inputs, args: Args): Promise<Inputs>;
  delete(id: string, props: Inputs): Promise<void>;
  /** What adoption records where the API has no read: the outputs known from the id alone. */
  adoptUnread(id: string): Inputs;
  /** What the object is called in messages (e.g. "stream"). */
  noun: string;
  /** Renders a value in an adoption message (a kind hides credentials). */
  shown?(value: unknown): string;
  /** What adoption's refusal says to do. */
  adoptAdvice: string;
  /** The inputs a refresh records, after the shared comparison (a kind keeps a credential out). */
  refreshed?(inputs: Inputs, declared: Inputs): Inputs;
}

/** The handler of a kind whose object the provider creates, made for the context of each host that serves it. */
export function objectHandler<Args extends Inputs>(specOf: (context: HandlerContext) => ObjectKind<Args>): KindHandler {
  return (context) => handlerOf(specOf(context), context);
}

/** The handler for one host's `context`. */
function handlerOf<Args extends Inputs>(spec: ObjectKind<Args>, context: HandlerContext): Handler {
  const kind = spec.declaration;
  // A credential the API no longer sends must not linger from the last state.
  const credentials = new Set(kind.secretOutputs.filter((key) => !kind.inputKeys.includes(key)));
  const read = (id: string) => context.readLive(kind.name, spec.readPath, () => spec.read(id));

  /** The `create` of an adopting resource: read, compare every readable declared field, write nothing. */
  async function adopt(args: Args, id: string) {
    const live = await read(id);
    if (live === undefined) {
      // Adoption is how a create that may have reached the API is recovered: where nothing can
      // read the object, the user's word (adoptId, the declared values) is all there is.
      context.warn(`${kind.name} ${id}: ${UNVERIFIED_ADOPTION}`);
      return { id, outs: outsOf(kind, args, spec.adoptUnread(id)) };
    }
    requireAdoptable(kind, id, args, live.inputs, spec.adoptAdvice, { what: spec.noun, shown: spec.shown });
    return { id, outs: outsOf(kind, args, live.outputs) };
  }

  return {
    configure: (req) => context.configure(stackSettings(req)),

    check: async (_olds, news) => context.withConfigFailures(checkInputs(kind.args, news)),

    diff: async (_id, olds, news) => diffInputs(olds, news, kind.rules),

    async create(inputs) {
      const args = inputs as Args;
      const adoptId = args[ADOPT_KEY];
      if (typeof adoptId === "string") return adopt(args, adoptId);
      return spec.create(args, inputs);
    },

    async read(id, props) {
      const live = await read(id);
      if (live === undefined) return { id, props };
      if (live.deleted) return { id: "" }; // deleted outside the stack: the next `up` creates it again
      const declared = declaredIn(kind, props);
      const compared = inputsFromLive(declared, live.inputs, kind.liveRules);
      const inputs = spec.refreshed ? spec.refreshed(compared, declared) : compared;
      const kept = Object.fromEntries(Object.entries(props).filter(([key]) => !credentials.has(key)));
      return { id, props: { ...kept, ...inputs, ...live.outputs }, inputs };
    },

    update: async (id, olds, news) => ({ outs: await spec.update(id, olds, news as Args) }),

    delete: async (id, props) => spec.delete(id, props),
  };
}
