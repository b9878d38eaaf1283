/**
 * Upgrading the package under an existing stack: state written by a released version (a
 * checkpoint under test/fixtures/upgrade/, see its README) is refreshed, previewed, updated and
 * destroyed by the package built from this checkout, against the emulator state that release left.
 *
 * The checkpoint's resources hold the release's serialized providers (the closure serializer's
 * `require("pulumi-cdnstream/provider/shims/<kind>")`); the dynamic-provider host evaluates them
 * against the package installed here, so `refresh` (which runs no program) proves that those
 * paths still load the current handlers. One stack per checkpoint, its steps in order.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Deployment } from "@pulumi/pulumi/automation";
import { createTestStack, repoRoot, type TestStack } from "../helpers/engine";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { loadSdk } from "../helpers/package";
import { filesUnder } from "../helpers/state";

const cdn = loadSdk();
const fixtures = path.join(repoRoot, "test", "fixtures", "upgrade");
const releases = fs
  .readdirSync(fixtures, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** A resource of the checkpoint's program (`program.json`). */
interface Declared {
  kind: string;
  name: string;
  args: Record<string, any>;
}

/** The key under which the engine marks a secret value (shown or encrypted). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const DYNAMIC = "pulumi-nodejs:dynamic/cdnstream:";

/** Per kind, the one setting the `up` after the upgrade changes, each an in-place update. */
const CHANGES: Record<string, (args: Record<string, any>) => Record<string, any>> = {
  StreamStatus: (args) => ({ ...args, disabled: true }),
  // `disabled` is the one input a timeshift stream updates in place (§4.4); every other replaces.
  TimeshiftStream: (args) => ({ ...args, disabled: true }),
  PushZoneSettings: (args) => ({ ...args, transcodeWebhook: "https://hooks.upgrade.example/v2" }),
  VodPullDomainLock: (args) => ({ ...args, domains: [...args.domains, "embed.upgrade.example"] }),
  HttpDomainLockBulk: (args) => ({ ...args, domains: [...args.domains, "cdn.upgrade.example"] }),
  AdBreakSlot: (args) => ({ ...args, maxDurationS: 45 }),
};
/** Kinds with no input that changes in place: CampaignArchive's project and campaign are its identity. */
const NOTHING_TO_UPDATE = new Set(["CampaignArchive"]);

/** The write each kind's update sends (emulator request-log operation names). */
const UPDATE_CALL: Record<string, string> = {
  StreamStatus: "POST /v2/streams/push/{streamid}/status",
  TimeshiftStream: "POST /v2/streams/timeshift/{streamid}/status",
  PushZoneSettings: "POST /v2/zones/http/push/{zoneid}",
  VodPullDomainLock: "POST /v2/zones/vod/pull/{zoneid}/domainlock",
  HttpDomainLockBulk: "POST /v2/zones/http/settings/security/domainlock",
  AdBreakSlot: "POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule",
};

/** What destroying each kind says stays in the account (the kinds' release warnings), by resource id. */
const RELEASE_WARNING: Record<string, (id: string) => RegExp> = {
  StreamStatus: (id) => new RegExp(`StreamStatus ${id}: released from the stack; the stream stays disabled`),
  TimeshiftStream: (id) => new RegExp(`TimeshiftStream ${id} \\([^)]*\\): disabled, not deleted`),
  PushZoneSettings: (id) => new RegExp(`PushZoneSettings ${id}: released from the stack`),
  VodPullDomainLock: (id) => new RegExp(`VodPullDomainLock ${id}: released from the stack`),
  HttpDomainLockBulk: (id) => new RegExp(`HttpDomainLockBulk ${id}: released from the stack`),
  AdBreakSlot: (id) => new RegExp(`AdBreakSlot ${id}: no longer managed by the stack`),
  CampaignArchive: (id) => new RegExp(`CampaignArchive ${id}: released from the stack; the campaign stays archived`),
};

/** `StreamStatus` -> `stream-status`: the kind's shim module name. */
const kebab = (kind: string) => kind.replace(/[a-z][A-Z]/g, (pair) => `${pair[0]}-${pair[1]}`).toLowerCase();

/** Paths (`.a.b`) of the values marked secret in `value`, whether shown or encrypted. */
function secretPaths(value: unknown, at = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => secretPaths(item, `${at}[${i}]`));
  if (!value || typeof value !== "object") return [];
  if (SECRET_SIG in value) return [at];
  return Object.entries(value).flatMap(([key, item]) => secretPaths(item, `${at}.${key}`));
}

/**
 * `value` with every shown secret replaced by its value, nested ones too: a refresh may record a
 * secret inside a secret as plain inside it (the outer one still secret), which changes nothing.
 */
function reveal(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reveal);
  if (!value || typeof value !== "object") return value;
  if (SECRET_SIG in value) return reveal(JSON.parse(String((value as Record<string, unknown>).plaintext)));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, reveal(item)]));
}

const byName = (state: Deployment) =>
  Object.fromEntries(
    (state.deployment.resources ?? [])
      .filter((r: any) => String(r.type).startsWith(DYNAMIC))
      .map((r: any) => [String(r.urn).split("::").pop()!, r]),
  );

describe.each(releases)("a stack written by release %s", (release) => {
  const dir = path.join(fixtures, release);
  const read = (file: string) => fs.readFileSync(path.join(dir, file), "utf8");
  const checkpoint: Deployment = JSON.parse(read("checkpoint.json"));
  const declared: Declared[] = JSON.parse(read("program.json"));
  const settingsFile = fs.readdirSync(dir).find((file) => /^Pulumi\..+\.yaml$/.test(file))!;
  const stackName = settingsFile.replace(/^Pulumi\.(.+)\.yaml$/, "$1");
  const stackUrn = checkpoint.deployment.resources.find((r: any) => r.type === "pulumi:pulumi:Stack").urn as string;
  const projectName = stackUrn.split("::")[1]!;
  const recordedUrl = /cdnstream:baseUrl: (\S+)/.exec(read(settingsFile))![1]!;
  const idOf = Object.fromEntries(
    checkpoint.deployment.resources
      .filter((r: any) => r.type.startsWith(DYNAMIC))
      .map((r: any) => [r.urn.split("::").pop(), r.id]),
  );
  const kinds = declared.map((r) => r.kind);

  let args: Record<string, Record<string, any>> = Object.fromEntries(declared.map((r) => [r.name, r.args]));
  const program = async () => {
    for (const r of declared) new (cdn as any)[r.kind](r.name, args[r.name]);
  };

  let test: TestStack;
  let emulator: TestEmulator;
  let imported: Deployment;
  let apiKey: string;

  beforeAll(async () => {
    test = await createTestStack({ program, projectName, stackName });
    // The stack settings the release wrote: its encryptionsalt, the key encrypted with it.
    fs.copyFileSync(path.join(dir, settingsFile), path.join(test.stack.workspace.workDir, settingsFile));
    apiKey = (await test.stack.getConfig("cdnstream:apiKey")).value;
    // The account as the release left it, in a copy (the emulator writes its state file back).
    const stateFile = path.join(test.dir, "emulator-state.json");
    fs.copyFileSync(path.join(dir, "emulator-state.json"), stateFile);
    emulator = await startTestEmulator({ apiKey, stateFile });
    await test.stack.setConfig("cdnstream:baseUrl", { value: emulator.url });
    // The API's address is the one thing of the run that differs: the default provider's
    // recorded config, which refresh and destroy use, points at this emulator instead.
    const deployment = structuredClone(checkpoint);
    const provider = deployment.deployment.resources.find((r: any) => r.type === "pulumi:providers:pulumi-nodejs");
    for (const props of [provider.inputs, provider.outputs]) props["cdnstream:baseUrl"] = emulator.url;
    expect(JSON.stringify(deployment)).not.toContain(recordedUrl);
    await test.stack.importStack(deployment);
    imported = await test.stack.exportStack();
  });
  afterAll(async () => {
    try {
      await test?.cleanup();
    } finally {
      await emulator?.close();
    }
  });

  it("is a checkpoint of the old form: one resource of every kind, each provider the serializer's require of its shim", () => {
    expect(new Set(kinds).size).toBe(kinds.length);
    expect([...kinds].sort()).toEqual(Object.keys(RELEASE_WARNING).sort());
    for (const r of checkpoint.deployment.resources.filter((r: any) => r.type.startsWith(DYNAMIC))) {
      const shim = kebab(r.type.slice(DYNAMIC.length));
      const oldForm = `exports.handler = __f0;\nconst provider = require("pulumi-cdnstream/provider/shims/${shim}");\n`;
      expect(r.inputs.__provider.startsWith(oldForm)).toBe(true);
      expect(r.outputs.__provider).toBe(r.inputs.__provider);
    }
    // The key the release ran with is held only encrypted.
    expect(apiKey).toMatch(/^upgrade_[0-9a-f]{40}$/);
    for (const file of fs.readdirSync(dir))
      expect({ file, hasKey: read(file).includes(apiKey) }).toEqual({ file, hasKey: false });
    // Imported as written, the secrets decrypted by the stack's passphrase.
    for (const [name, r] of Object.entries(byName(imported)))
      expect(r.inputs.__provider).toBe(byName(checkpoint)[name].inputs.__provider);
  });

  it("refresh finds no change, keeps every resource with its outputs, and secret outputs stay secret", async () => {
    await emulator.clearRequests();
    const refresh = await test.stack.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    expect(refresh.summary.resourceChanges).toEqual({ same: declared.length + 1 });
    // Every resource read its object through the old providers.
    const reads = Object.entries(await emulator.requestCounts()).filter(([op]) => op.startsWith("GET "));
    expect(reads.reduce((sum, [, n]) => sum + n, 0)).toBe(declared.length);

    const after = await test.stack.exportStack();
    const before = byName(imported);
    expect(Object.keys(byName(after)).sort()).toEqual(declared.map((r) => r.name).sort());
    for (const [name, r] of Object.entries(byName(after))) {
      expect({ name, id: r.id, inputs: reveal(r.inputs), outputs: reveal(r.outputs) }).toEqual({
        name,
        id: before[name].id,
        inputs: reveal(before[name].inputs),
        outputs: reveal(before[name].outputs),
      });
      // The same values are secret as when the release wrote them.
      expect({ name, secret: secretPaths(r.outputs) }).toEqual({
        name,
        secret: secretPaths(byName(checkpoint)[name].outputs),
      });
    }
    expect(secretPaths(byName(after).delayed.outputs)).toEqual(
      expect.arrayContaining([".secureToken", ".secureTokenKey", ".tokenizedPlaybackUrls"]),
    );
    expect(secretPaths(byName(after).zone.outputs)).toEqual(expect.arrayContaining([".authToken"]));
    // Shown by the export, encrypted on disk.
    const tokenKey = declared.find((r) => r.kind === "TimeshiftStream")!.args.secureToken.key as string;
    expect(JSON.stringify(byName(after).delayed.outputs)).toContain(tokenKey);
    const raw = filesUnder(path.join(test.dir, "backend"));
    expect(raw.length).toBeGreaterThan(0);
    expect(raw.filter(([, text]) => text.includes(tokenKey))).toEqual([]);
  });

  it("a preview of the same program finds no change and calls nothing", async () => {
    await emulator.clearRequests();
    const preview = await test.stack.preview();
    expect(preview.changeSummary).toEqual({ same: declared.length + 1 });
    expect(await emulator.requestCounts()).toEqual({});
  });

  it("up with one setting changed per kind updates each in place, the writes reaching the API", async () => {
    args = Object.fromEntries(
      declared.map((r) => {
        if (NOTHING_TO_UPDATE.has(r.kind)) return [r.name, r.args];
        expect(CHANGES[r.kind]).toBeDefined();
        return [r.name, CHANGES[r.kind]!(r.args)];
      }),
    );
    const updated = kinds.filter((kind) => !NOTHING_TO_UPDATE.has(kind));
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ update: updated.length, same: declared.length + 1 - updated.length });

    const counts = await emulator.requestCounts();
    for (const kind of updated) expect({ kind, calls: counts[UPDATE_CALL[kind]!] }).toEqual({ kind, calls: 1 });
    // Nothing created or archived again: in-place updates only.
    expect(counts["POST /v2/streams/timeshift/new"]).toBeUndefined();
    expect(counts["POST /v2/ad-manager/{pid}/campaigns/{cid}/archive"]).toBeUndefined();
    const writes = Object.entries(counts).filter(([op]) => !op.startsWith("GET "));
    expect(writes.reduce((sum, [, n]) => sum + n, 0)).toBe(updated.length);

    const state = await emulator.state();
    expect(state.pushStreams!["3001"].disabled).toBe("1");
    expect(state.timeshiftStreams![idOf.delayed]).toMatchObject({
      disabled: "1",
      securetoken: { list: args.delayed!.secureToken.key },
    });
    expect(state.httpPushZones!["101"].transcodefile.webhooks).toEqual(["https://hooks.upgrade.example/v2"]);
    expect(state.httpPushZones!["101"].cnamesArr).toEqual(["media.upgrade.example"]);
    expect(state.vodPullZones!["401"].domainlock.list.split(",").sort()).toEqual([
      "embed.upgrade.example",
      "player.upgrade.example",
    ]);
    expect(state.account!.domainLockDefault.list.split(",").sort()).toEqual(["cdn.upgrade.example", "upgrade.example"]);
    expect(state.vodPushZones!["301"].adinsertion.vodAdBreakPolicy.preRoll).toMatchObject({ maxDurationS: 45 });
    expect(state.campaigns!["cmp_7Hq2xK9d"].status).toBe("archived");

    // The new outputs are recorded, the ids kept.
    const outputs = byName(await test.stack.exportStack());
    for (const [name, id] of Object.entries(idOf)) expect({ name, id: outputs[name].id }).toEqual({ name, id });
    expect(outputs.status.outputs.disabled).toBe(true);
    expect(outputs.delayed.outputs.disabled).toBe(true);
    expect(outputs.zone.outputs.transcodeWebhook).toBe("https://hooks.upgrade.example/v2");
    expect(outputs.preroll.outputs).toMatchObject({ maxDurationS: 45, live: { maxDurationS: 45 } });
    expect((await test.stack.preview()).changeSummary).toEqual({ same: declared.length + 1 });
  });

  it("destroy succeeds, each kind saying what stays in the account", async () => {
    const destroy = await test.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(destroy.summary.resourceChanges).toEqual({ delete: declared.length + 1 });
    for (const r of declared) expect(destroy.stdout).toMatch(RELEASE_WARNING[r.kind]!(idOf[r.name]));
    expect((await test.stack.exportStack()).deployment.resources ?? []).toHaveLength(0);
    const state = await emulator.state();
    expect(state.timeshiftStreams![idOf.delayed].disabled).toBe("1");
    expect(state.httpPushZones!["101"].transcodefile.webhooks).toEqual(["https://hooks.upgrade.example/v2"]);
  });
});
