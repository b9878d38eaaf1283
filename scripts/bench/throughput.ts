/**
 * The client on its own (docs/benchmarks.md, "The client"): `CdnstreamClient` against raw undici
 * `request()`, and a 1,000-item all-pages fetch through `getHttpPullZones` of the installed SDK.
 */
import { runSync } from "../child";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { Agent, request } from "undici";
import { CdnstreamClient, dns } from "../../client";
import { startBenchEmulator, total } from "./emulator";
import { loadInstalledSdk, repoRoot } from "./engine";
import { pullZonesFixture } from "./fixture";

const PULL_ZONES = 1000;

export type ClientResult = Awaited<ReturnType<typeof clientBench>>;

type Call = () => Promise<unknown>;

/** Runs `concurrency` loops of `call` for `seconds`; returns calls per second and CPU per call. */
async function measure(call: Call, seconds: number, concurrency: number): Promise<{ rps: number; cpuUs: number }> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  const started = Date.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        await call();
        done++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { rps: done / ((Date.now() - started) / 1000), cpuUs: (used.user + used.system) / done };
}

/** The ABBA BAAB runs of raw undici and the client against a running emulator. */
async function clientRates(url: string, apiKey: string, seconds: number, concurrency: number) {
  const agent = new Agent({ connections: concurrency, pipelining: 1, keepAliveTimeout: 4000 });
  const raw: Call = async () => {
    const res = await request(`${url}/v2/dns`, {
      dispatcher: agent,
      headers: { "x-api-key": apiKey, accept: "application/json" },
    });
    const body = await res.body.json();
    if (res.statusCode !== 200) throw new Error(`raw: ${res.statusCode} ${JSON.stringify(body)}`);
  };
  // Every call its own request: the bench measures requests, which overlapping reads would share.
  const client = new CdnstreamClient({
    apiKey,
    baseUrl: url,
    env: {},
    connections: concurrency,
    maxConcurrency: concurrency,
    shareReads: false,
  });
  const ours: Call = () => dns.listDnsZones(client);
  try {
    // Warm both pools and the JIT (client and emulator) first: the first seconds are much slower.
    await measure(() => raw().then(ours), Math.min(3, seconds), concurrency);
    // ABBA BAAB order, so warm-up and a drift in machine load (the machine is shared) weigh on
    // both sides alike.
    const runs = { raw: [] as { rps: number; cpuUs: number }[], ours: [] as { rps: number; cpuUs: number }[] };
    for (const side of ["raw", "ours", "ours", "raw", "ours", "raw", "raw", "ours"] as const) {
      runs[side].push(await measure(side === "raw" ? raw : ours, seconds, concurrency));
    }
    const mean = (side: keyof typeof runs, key: "rps" | "cpuUs") =>
      runs[side].reduce((a, r) => a + r[key], 0) / runs[side].length;
    return {
      path: "GET /v2/dns",
      concurrency,
      secondsPerRun: seconds,
      oursRps: Math.round(mean("ours", "rps")),
      rawRps: Math.round(mean("raw", "rps")),
      ratio: Math.round((mean("ours", "rps") / mean("raw", "rps")) * 1000) / 1000,
      runs: { raw: runs.raw.map((r) => Math.round(r.rps)), ours: runs.ours.map((r) => Math.round(r.rps)) },
      /** Client-process CPU per call, microseconds (steadier than req/s on a busy machine). */
      cpuPerCallUs: { raw: Math.round(mean("raw", "cpuUs")), ours: Math.round(mean("ours", "cpuUs")) },
    };
  } finally {
    await client.close();
    await agent.close();
  }
}

const BUILT = path.join(repoRoot, "dist", "scripts", "bench", "throughput.js");

/** The client's rates in a fresh process shaped like a provider host, not the bench's own (docs/benchmarks.md, "The client"). */
function ratesInFreshProcess(seconds: number, concurrency: number): Awaited<ReturnType<typeof clientRates>> {
  const run = runSync(
    process.execPath,
    // The built script (the bench builds first; its smoke test runs this module from source).
    ["-r", "@pulumi/pulumi", BUILT, "--seconds", String(seconds), "--concurrency", String(concurrency)],
    // The measured seconds, plus the process's start and its client's warm-up.
    { cwd: repoRoot, deadlineMs: (seconds + 120) * 1000, allowFailure: true },
  );
  if (run.status !== 0) throw new Error(`the client bench failed (exit ${run.status}):\n${run.stderr}`);
  return JSON.parse(run.stdout);
}

export async function clientBench(seconds: number, concurrency: number, runDir: string) {
  const fixture = pullZonesFixture(PULL_ZONES);
  const emulator = await startBenchEmulator(fixture, path.join(runDir, "fixtures", "pull-zones.json"));
  const { url, apiKey } = emulator;
  try {
    const rates = ratesInFreshProcess(seconds, concurrency);

    const sdk = loadInstalledSdk();
    const fetchAll = async () => {
      const started = performance.now();
      const { zones } = await sdk.getHttpPullZones({}, { clientOptions: { baseUrl: url, apiKey } });
      if (zones.length !== PULL_ZONES)
        throw new Error(`getHttpPullZones returned ${zones.length} zones, expected ${PULL_ZONES}`);
      return (performance.now() - started) / 1000;
    };
    await emulator.clear();
    const coldSeconds = await fetchAll(); // includes creating the shared client and its connections
    const requests = total(await emulator.counts());
    const warmSeconds = await fetchAll();
    await sdk.closeDataSourceClients();

    return {
      ...rates,
      allPages: {
        items: PULL_ZONES,
        requests,
        coldSeconds: Math.round(coldSeconds * 1000) / 1000,
        warmSeconds: Math.round(warmSeconds * 1000) / 1000,
      },
    };
  } finally {
    await emulator.close();
  }
}

const USAGE = `usage: npm run build && node dist/scripts/bench/throughput.js [--seconds 3] [--concurrency 32]
  The client bench alone, without the Pulumi engine or the packed package: CdnstreamClient against
  raw undici request(), GET /v2/dns, 8 runs ABBA BAAB, printed as JSON (for \`node --cpu-prof\`).`;

/** `node dist/scripts/bench/throughput.js`: the client rates on their own. */
async function clientOnly(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      seconds: { type: "string", default: "3" },
      concurrency: { type: "string", default: "32" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  const seconds = Number(values.seconds);
  const concurrency = Number(values.concurrency);
  if (!(seconds > 0) || !Number.isInteger(concurrency) || concurrency < 1) throw new Error(USAGE);
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-client-bench-"));
  const emulator = await startBenchEmulator(pullZonesFixture(PULL_ZONES), path.join(runDir, "pull-zones.json"));
  try {
    process.stdout.write(`${JSON.stringify(await clientRates(emulator.url, emulator.apiKey, seconds, concurrency))}\n`);
  } finally {
    await emulator.close();
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  clientOnly(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`throughput: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  });
}
