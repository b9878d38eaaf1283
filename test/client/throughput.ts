/**
 * Requests per second through the client versus raw undici `request()`, same concurrency, same
 * run, `GET /v2/dns` against the emulator. A script, not a jest test (no timed tests).
 *
 *   npm run build
 *   npx tsc test/client/throughput.ts --outDir .tmp/throughput --rootDir . --module commonjs \
 *     --target ES2022 --esModuleInterop --skipLibCheck --types node --strict
 *   node .tmp/throughput/test/client/throughput.js [--seconds 5] [--concurrency 32]
 *
 * It starts the built emulator (dist/emulator/cli.js) in a child process so the server does not
 * share this event loop; set CDNSTREAM_BASE_URL and CDNSTREAM_API_KEY to use a running one.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { Agent, request } from "undici";
import { CdnstreamClient, dns } from "../../provider/client";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "5" }, concurrency: { type: "string", default: "32" } } });
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);

async function emulator(): Promise<{ url: string; key: string; child?: ChildProcess }> {
  if (process.env.CDNSTREAM_BASE_URL && process.env.CDNSTREAM_API_KEY) {
    return { url: process.env.CDNSTREAM_BASE_URL.replace(/\/v2\/?$/, ""), key: process.env.CDNSTREAM_API_KEY };
  }
  const key = "throughput-key-0001";
  const cli = resolve(__dirname, "../../../../dist/emulator/cli.js");
  const child = spawn(process.execPath, [cli, "--port", "0", "--api-key", key], { stdio: ["ignore", "pipe", "inherit"] });
  let seen = "";
  for await (const chunk of child.stdout!) {
    seen += String(chunk);
    const m = /https?:\/\/[^\s]+/.exec(seen);
    if (m) return { url: m[0], key, child };
  }
  throw new Error(`emulator did not print its URL: ${seen}`);
}

/** Client-process CPU time per call of each run, in microseconds (steadier than req/s on a busy machine). */
const cpuPerCall = new Map<() => Promise<unknown>, number[]>();

/** Runs `CONCURRENCY` loops of `call` for `SECONDS`; returns completed calls per second. */
async function measure(call: () => Promise<unknown>): Promise<number> {
  const end = Date.now() + SECONDS * 1000;
  let done = 0;
  const started = Date.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        await call();
        done++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  cpuPerCall.set(call, [...(cpuPerCall.get(call) ?? []), (used.user + used.system) / done]);
  return done / ((Date.now() - started) / 1000);
}

async function main(): Promise<void> {
  const { url, key, child } = await emulator();
  const agent = new Agent({ connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 4000 });
  const raw = async () => {
    const res = await request(`${url}/v2/dns`, { dispatcher: agent, headers: { "x-api-key": key, accept: "application/json" } });
    const body = await res.body.json();
    if (res.statusCode !== 200) throw new Error(`raw: ${res.statusCode} ${JSON.stringify(body)}`);
  };
  const client = new CdnstreamClient({ apiKey: key, baseUrl: url, env: {}, connections: CONCURRENCY, maxConcurrency: CONCURRENCY });
  const ours = () => dns.listDnsZones(client);
  try {
    // Warm both pools and the JIT (client and emulator) before timing: the first seconds are much slower.
    const warmEnd = Date.now() + Math.min(3000, SECONDS * 1000);
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < warmEnd) await raw().then(ours);
    }));
    // ABBA order, so warm-up and drift weigh on both sides alike.
    const rawRuns: number[] = [];
    const ourRuns: number[] = [];
    rawRuns.push(await measure(raw));
    ourRuns.push(await measure(ours));
    ourRuns.push(await measure(ours));
    rawRuns.push(await measure(raw));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const [rawRps, oursRps] = [mean(rawRuns), mean(ourRuns)];
    console.log(`GET /v2/dns, concurrency ${CONCURRENCY}, ${SECONDS} s per run, runs in ABBA order`);
    console.log(`raw undici request(): ${rawRps.toFixed(0)} req/s (runs ${rawRuns.map((r) => r.toFixed(0)).join(", ")})`);
    console.log(`CdnstreamClient:      ${oursRps.toFixed(0)} req/s (runs ${ourRuns.map((r) => r.toFixed(0)).join(", ")})`);
    console.log(`ratio (ours / raw):   ${(oursRps / rawRps).toFixed(2)}`);
    const cpu = (f: () => Promise<unknown>) => mean(cpuPerCall.get(f) ?? []).toFixed(0);
    console.log(`client-process CPU per call: raw ${cpu(raw)} us, ours ${cpu(ours)} us`);
  } finally {
    await client.close();
    await agent.close();
    if (child) {
      child.kill();
      await once(child, "exit");
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
