/**
 * The same cases through both paths a resource can take: the dynamic provider (no provider
 * option) and the provider plugin (a cdnstream Provider). The handlers are shared, so what users
 * see must be too: the check messages of bad input, the properties a diff names, what a refresh
 * finds changed out of band, and the warnings and notes of every step. Each step runs on both
 * stacks, each against its own emulator, and compares what the engine reported, with the type
 * tokens (the only intended difference) taken out.
 */
import * as pulumi from "@pulumi/pulumi";
import { createTestStack, type TestStack } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { loadSdk } from "../helpers/package";
import { changedProperties } from "../helpers/state";

const cdn = loadSdk();

type Path = "dynamic" | "plugin";
type Step = "badZone" | "badSlot" | "badStatus" | "good" | "changed";

interface Lane {
  emulator: TestEmulator;
  test: TestStack;
  events: any[];
}

/** What the engine said about a resource, the type token and the stack's identity taken out. */
const normalize = (text: string) =>
  text
    .replace(/pulumi-nodejs:dynamic\/cdnstream:|cdnstream:index:/g, "<type>:")
    .replace(/urn:pulumi:[^\s"']+/g, "<urn>")
    .replace(/\s+/g, " ")
    .trim();

/** Per resource of ours: the operation, and the inputs whose recorded and declared values differ. */
function steps(events: any[]): Record<string, string> {
  const changed = changedProperties(events);
  const seen: Record<string, string> = {};
  for (const event of events) {
    const meta = event.resourcePreEvent?.metadata;
    if (!meta || !/^(pulumi-nodejs:dynamic\/cdnstream|cdnstream:index):/.test(meta.type)) continue;
    const name = String(meta.urn).split("::").pop()!;
    seen[name] = `${meta.op} ${(changed[name] ?? []).join(",")}`.trim();
  }
  return seen;
}

/**
 * The errors, warnings and notes the engine printed, normalized and sorted. The dynamic host shows
 * its warnings as stderr lines (`info#err`, no resource attached); the plugin sends them to the
 * engine's log under the resource: the text is what must match.
 */
function diagnostics(events: any[]): string[] {
  return events
    .map((event) => event.diagnosticEvent)
    .filter((d) => d && d.severity !== "debug" && d.message.trim())
    .filter((d) => !/^using pulumi-resource-[\w-]+ from \$PATH/.test(d.message))
    .map((d) => {
      const message = normalize(d.message);
      if (d.severity === "warning" || (d.severity === "info#err" && message.startsWith("warning: ")))
        return `warning: ${message.replace(/^warning: /, "")}`;
      return `${d.severity.replace("#err", "")}: ${message}`;
    })
    .sort();
}

describe("the dynamic path and the plugin path report the same", () => {
  const lanes = {} as Record<Path, Lane>;
  let step: Step = "good";

  const program = (path: Path) => async () => {
    const emulator = lanes[path].emulator;
    const provider =
      path === "plugin"
        ? new cdn.Provider("account", { apiKey: pulumi.secret(emulator.apiKey), baseUrl: emulator.url })
        : undefined;
    const opts = { provider };
    // A kind with an input its rule refuses, one at a time: the engine stops at the first refusal.
    if (step === "badZone")
      return void new cdn.PushZoneSettings(
        "zone",
        { zoneId: 101, customDomains: ["cdn.example.com", "not a host"] },
        opts,
      );
    if (step === "badSlot")
      return void new cdn.AdBreakSlot("slot", { zoneId: 301, type: "preroll", maxDurationS: 0 }, opts);
    if (step === "badStatus")
      return void new cdn.StreamStatus("status", { streamKind: "vod" as any, streamId: 3001, disabled: true }, opts);
    const disabled = step === "changed" ? false : true;
    new cdn.PushZoneSettings("zone", { zoneId: 101, customDomains: ["media.example.com"] }, opts);
    new cdn.AdBreakSlot("slot", { zoneId: 301, type: "preroll", maxDurationS: 30 }, opts);
    new cdn.StreamStatus("status", { streamKind: "push", streamId: 3001, disabled }, opts);
  };

  /** Runs one step on both paths; returns what each reported. */
  async function onBoth<T>(run: (lane: Lane) => Promise<unknown>, read: (lane: Lane) => T): Promise<Record<Path, T>> {
    const seen = {} as Record<Path, T>;
    for (const path of ["dynamic", "plugin"] as const) {
      const lane = lanes[path];
      lane.events = [];
      await run(lane);
      seen[path] = read(lane);
    }
    return seen;
  }

  beforeAll(async () => {
    for (const path of ["dynamic", "plugin"] as const) {
      const emulator = await startTestEmulator();
      lanes[path] = { emulator, events: [], test: undefined as unknown as TestStack };
      // The dynamic lane's account is the stack's; the plugin lane's is its provider's alone.
      const config = path === "dynamic" ? emulator.stackConfig() : undefined;
      lanes[path].test = await createTestStack({ program: program(path), config, stackName: path });
    }
  });
  afterAll(async () => {
    for (const lane of Object.values(lanes)) {
      try {
        await lane.test?.cleanup();
      } finally {
        await lane.emulator?.close();
      }
    }
  });

  it("refuses bad input at preview with the same messages, sending nothing", async () => {
    const seen = await onBoth(
      async (lane) => {
        await lane.emulator.clearRequests();
        for (const bad of ["badZone", "badSlot", "badStatus"] as const) {
          step = bad;
          await expect(
            lane.test.stack.preview({ onEvent: (e) => lane.events.push(e), onOutput: () => undefined }),
          ).rejects.toThrow();
        }
        expect(await lane.emulator.requestCounts()).toEqual({});
      },
      (lane) => diagnostics(lane.events).filter((line) => line.startsWith("error")),
    );
    step = "good";
    expect(seen.dynamic.join("\n")).toMatch(/customDomains\[1\]/);
    expect(seen.dynamic.join("\n")).toMatch(/maxDurationS/);
    expect(seen.dynamic.join("\n")).toMatch(/streamKind/);
    expect(seen.plugin).toEqual(seen.dynamic);
  });

  it("creates the same objects with the same notes", async () => {
    step = "good";
    const seen = await onBoth(
      (lane) => lane.test.stack.up({ onEvent: (e) => lane.events.push(e), onOutput: () => undefined }),
      (lane) => ({ steps: steps(lane.events), notes: diagnostics(lane.events) }),
    );
    expect(seen.dynamic.steps).toEqual({
      zone: "create customDomains,zoneId",
      slot: "create maxDurationS,type,zoneId",
      status: "create disabled,streamId,streamKind",
    });
    expect(seen.dynamic.notes.join("\n")).toMatch(/add a CNAME record for media\.example\.com/);
    expect(seen.plugin).toEqual(seen.dynamic);
  });

  it("names the same changed properties in a preview", async () => {
    step = "changed";
    const seen = await onBoth(
      (lane) => lane.test.stack.preview({ onEvent: (e) => lane.events.push(e), onOutput: () => undefined }),
      (lane) => ({ steps: steps(lane.events), notes: diagnostics(lane.events) }),
    );
    step = "good";
    expect(seen.dynamic.steps.status).toBe("update disabled");
    expect(seen.plugin).toEqual(seen.dynamic);
  });

  it("finds the same out-of-band changes on refresh", async () => {
    const seen = await onBoth(
      async (lane) => {
        const cnamesArr = ["other.example.com"];
        await lane.emulator.mutate("httpPushZones", 101, { cnames: cnamesArr.join(","), cnamesArr });
        await lane.emulator.mutate("pushStreams", 3001, { disabled: "0" });
        await lane.test.stack.refresh({ onEvent: (e) => lane.events.push(e), onOutput: () => undefined });
        await lane.test.stack.preview({ onEvent: (e) => lane.events.push(e), onOutput: () => undefined });
      },
      (lane) => ({ steps: steps(lane.events), notes: diagnostics(lane.events) }),
    );
    expect(seen.dynamic.steps.status).toBe("update disabled");
    expect(seen.plugin).toEqual(seen.dynamic);
  });

  it("destroys with the same warnings", async () => {
    const seen = await onBoth(
      (lane) => lane.test.stack.destroy({ onEvent: (e) => lane.events.push(e), onOutput: () => undefined }),
      (lane) => ({ steps: steps(lane.events), notes: diagnostics(lane.events) }),
    );
    expect(seen.dynamic.notes.join("\n")).toMatch(/status/);
    expect(seen.plugin).toEqual(seen.dynamic);
  });
});
