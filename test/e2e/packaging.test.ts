/**
 * The package as a user's project gets it: `npm pack`ed, `npm install`ed into a scratch project
 * laid out as `pulumi new typescript` lays it out (its tsconfig exactly, no skipLibCheck, no
 * esModuleInterop), then type-checked with the project's own `tsc`.
 *
 * Runs for the @pulumi/pulumi of this checkout (the CI leg's: the floor of the declared range on
 * one leg, the newest release on the other) and for the newest release (.ci/newest.json), into
 * which the package must install without a second copy of the SDK.
 *
 * Scratch projects live outside the repository: below it, module and `@types` resolution would
 * climb into the repository's node_modules and hide a dependency the package forgot to declare.
 * npm installs from its cache when it can (`--prefer-offline`), so only a cold cache downloads.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { run, runNpm } from "../../scripts/child";
import { repoRoot } from "../helpers/engine";
import { loadSdk } from "../helpers/package";
import { PULUMI_NEW_TSCONFIG } from "../helpers/pulumi-new";

/** A program using every resource class and data source of the package (both forms of each). */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as cdn from "pulumi-cdnstream";

const config = new pulumi.Config();
const domain = config.get("domain") ?? "example.com";

const assets = new cdn.PushZoneSettings("assets", {
  zoneId: 101,
  customDomains: [\`assets.\${domain}\`],
  transcodeWebhook: \`https://hooks.\${domain}/transcoded\`,
});
const vodLock = new cdn.VodPullDomainLock("vod-lock", { zoneId: 401, enabled: true, policy: "Y", domains: [\`*.\${domain}\`], ips: ["203.0.113.0/24"] });
const httpLock = new cdn.HttpDomainLockBulk("http-lock", { mode: "append", enabled: true, domains: [\`*.\${domain}\`] });
const onAir = new cdn.StreamStatus("main-event", { streamKind: "push", streamId: 3001, disabled: false });
const later = new cdn.TimeshiftStream("main-event-later", {
  name: "main-event-later",
  parent: 3001,
  timeshift: 6 * 3600,
  protocols: ["HLS", "DASH"],
  ndvr: { enabled: true, retentionDays: 7 },
  domainLock: { enabled: true, policy: "Y", domains: [\`player.\${domain}\`] },
}, { dependsOn: [onAir] });
const preroll = new cdn.AdBreakSlot("preroll", { zoneId: 301, type: "preroll", maxDurationS: 30, maxAds: 2 });
const archived = new cdn.CampaignArchive("retired", { projectId: 7, campaignId: "cmp_3Lm8vR2p" });

const options: cdn.DataSourceOptions = { clientOptions: { maxRetries: 2, timeoutMs: 10_000 } };

async function reads(): Promise<string[]> {
  const dns = await cdn.getDnsZones({}, options);
  const projects = await cdn.getAdManagerProjects();
  const backups = await cdn.getCriticalBackups();
  const backup = await cdn.getCriticalBackup({ backupId: 1 });
  const zones = await cdn.getHttpPullZones({ page: 1 });
  const purge = await cdn.getPurgeOperation({ zoneId: 101, purgeId: "pg-8b41d0e5" });
  const tracking = await cdn.getAdTrackingReport({ streamId: 3001, granularity: 60, r: "2024-01-01 00:00:00 - 2024-01-02 00:00:00" });
  const consumption = await cdn.getAdConsumption({ streamId: 3001, groupBy: "day", r: "2024-01-01 00:00:00 - 2024-01-31 00:00:00" });
  const breaks = await cdn.getAdBreaks({ zoneId: 301, breakType: "pre-roll" });
  const creative = await cdn.getAdCreative({ zoneId: 301, crid: "cr-1" });
  const targeting = await cdn.getCampaignTargeting({ projectId: 7, campaignId: "cmp_3Lm8vR2p" });
  const pods = await cdn.getAdPodRequests({ projectId: 7, campaignIds: ["cmp_3Lm8vR2p"] });
  await cdn.closeDataSourceClients();
  return [
    ...dns.domains.map((d) => d.domain ?? ""),
    ...projects.projects.map((p) => p.name ?? ""),
    ...backups.backups.map((b) => b.name ?? ""),
    String(backup.name),
    String(zones.zones.length),
    String(purge.pending),
    String(tracking.summary?.impressions),
    String(consumption.message),
    String(breaks.page),
    String(creative.mediaUrl),
    String(targeting.includeTags?.length),
    String(pods.page),
  ];
}

export const summary = reads();
export const names = pulumi.all([assets.fqdn, vodLock.liveLock, httpLock.accountDefault, later.playbackUrls, preroll.live, archived.status]);
export const outputs = {
  dns: cdn.getDnsZonesOutput(),
  projects: cdn.getAdManagerProjectsOutput({}, options),
  backups: cdn.getCriticalBackupsOutput(),
  backup: cdn.getCriticalBackupOutput({ backupId: 1 }),
  zones: cdn.getHttpPullZonesOutput({ page: 1 }),
  purge: cdn.getPurgeOperationOutput({ zoneId: assets.zoneId, purgeId: "pg-8b41d0e5" }).apply((p) => p.logCounts.total),
  tracking: cdn.getAdTrackingReportOutput({ streamId: 3001, granularity: 60 }),
  consumption: cdn.getAdConsumptionOutput({ streamId: 3001, groupBy: "day", r: "2024-01-01 00:00:00 - 2024-01-31 00:00:00" }),
  breaks: cdn.getAdBreaksOutput({ zoneId: preroll.zoneId }),
  creative: cdn.getAdCreativeOutput({ zoneId: preroll.zoneId, crid: pulumi.output("cr-1") }),
  targeting: cdn.getCampaignTargetingOutput({ projectId: archived.projectId, campaignId: archived.campaignId }),
  pods: cdn.getAdPodRequestsOutput({ projectId: 7, campaignIds: [archived.campaignId] }),
};
export const version = cdn.packageVersion;
// The plugin path's provider type-checks from the package too (not instantiated: no plugin here).
export const providerClass: typeof cdn.Provider = cdn.Provider;
export const providerArgs: cdn.ProviderArgs = { baseUrl: "https://api.example.com", maxRetries: 2 };
`;

/** What a scratch project gets: the versions this checkout installed, so npm's cache has them. */
function installedVersion(name: string): string {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, "node_modules", name, "package.json"), "utf8")).version;
}

const legSdk = installedVersion("@pulumi/pulumi");
const newestSdk: string = JSON.parse(fs.readFileSync(path.join(repoRoot, ".ci", "newest.json"), "utf8"))[
  "@pulumi/pulumi"
];

const npmEnv = {
  ...process.env,
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
};

/**
 * How long one npm command may take. A warm install of a scratch project takes seconds, a cold one
 * (the newest SDK, not in npm's cache yet) under a minute; npm's random hang (npm/cli#4028) never
 * ends, and is stopped here and tried once more (scripts/child.ts).
 */
const NPM_DEADLINE_MS = 3 * 60_000;

/** `npm <args>` in `cwd`: its output, or a failure naming it, its directory and its output. */
async function npm(args: string[], cwd: string): Promise<string> {
  return (await runNpm(args, { cwd, env: npmEnv, deadlineMs: NPM_DEADLINE_MS })).output;
}

const npmInstall = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"];

let scratchRoot: string;
let tarball: string;

beforeAll(
  async () => {
    scratchRoot = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "cdnstream-packaging-"));
    for (let dir = path.dirname(scratchRoot); ; dir = path.dirname(dir)) {
      if (fs.existsSync(path.join(dir, "node_modules"))) {
        throw new Error(
          `${dir} holds a node_modules, which scratch projects below it would resolve from: set TMPDIR to a directory without one above it`,
        );
      }
      if (path.dirname(dir) === dir) break;
    }
    // `npm pack` is what `npm publish` uploads: the files list, the declared dependencies.
    const [packed] = JSON.parse(await npm(["pack", "--json", "--silent", "--pack-destination", scratchRoot], repoRoot));
    tarball = path.join(scratchRoot, packed.filename);
  },
  2 * NPM_DEADLINE_MS + 30_000,
);

afterAll(() => {
  if (scratchRoot) fs.rmSync(scratchRoot, { recursive: true, force: true });
});

it("the scratch program uses every class and function the package exports", () => {
  const exported = Object.keys(loadSdk()).filter((name) => name !== "__esModule");
  const unused = exported.filter((name) => !new RegExp(`\\bcdn\\.${name}\\b`).test(PROGRAM));
  expect(unused).toEqual([]);
  expect(exported.length).toBeGreaterThan(20);
});

describe.each([...new Set([legSdk, newestSdk])])("a `pulumi new typescript` project on @pulumi/pulumi %s", (sdk) => {
  let project: string;

  beforeAll(
    async () => {
      project = path.join(scratchRoot, `sdk-${sdk}`);
      fs.mkdirSync(project);
      fs.writeFileSync(
        path.join(project, "package.json"),
        JSON.stringify(
          {
            name: "cdnstream-user-project",
            main: "index.ts",
            devDependencies: {
              "@types/node": installedVersion("@types/node"),
              typescript: installedVersion("typescript"),
            },
            dependencies: { "@pulumi/pulumi": sdk },
          },
          null,
          2,
        ),
      );
      fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(PULUMI_NEW_TSCONFIG, null, 2));
      fs.writeFileSync(path.join(project, "index.ts"), PROGRAM);
      // The project as it is before the user adds the package, then the package on top of it.
      await npm(npmInstall, project);
      await npm([...npmInstall, tarball], project);
    },
    4 * NPM_DEADLINE_MS + 60_000,
  );

  it("shares the project's @pulumi/pulumi: npm installs exactly one copy", async () => {
    const copies = (await npm(["ls", "@pulumi/pulumi", "--all", "--parseable"], project))
      .split("\n")
      .filter((line) => line.startsWith(project));
    expect(copies).toEqual([path.join(project, "node_modules", "@pulumi", "pulumi")]);
    expect(
      fs.existsSync(path.join(project, "node_modules", "pulumi-cdnstream", "node_modules", "@pulumi", "pulumi")),
    ).toBe(false);
    expect(
      JSON.parse(fs.readFileSync(path.join(project, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"))
        .version,
    ).toBe(sdk);
  });

  it("type-checks with the project's tsc and the `pulumi new typescript` tsconfig: exit 0, no output", async () => {
    const tsc = path.join(project, "node_modules", "typescript", "bin", "tsc");
    // A whole type-check of the program against the SDK's declarations: about ten seconds.
    const { status, output } = await run(process.execPath, [tsc, "--noEmit"], {
      cwd: project,
      deadlineMs: 3 * 60_000,
      allowFailure: true,
    });
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("the published declarations of the SDK name no zod or undici type", () => {
    const sdkDir = path.join(project, "node_modules", "pulumi-cdnstream", "dist", "sdk");
    const offending: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (
          entry.name.endsWith(".d.ts") &&
          /from "(zod|undici)|import\("(zod|undici)|provider\/client"/.test(fs.readFileSync(file, "utf8"))
        ) {
          offending.push(path.relative(sdkDir, file));
        }
      }
    };
    walk(sdkDir);
    expect(offending).toEqual([]);
  });
});
