/**
 * The built emulator (dist/emulator/cli.js) in a process of its own, so serving the API never
 * shares an event loop with the engine's in-process language runtime or the client under test.
 * No `--api-key`: the emulator generates one and prints it, so it never shows in `ps`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import * as path from "node:path";
import { request } from "undici";
import { repoRoot } from "./engine";

export type BenchEmulator = Awaited<ReturnType<typeof startBenchEmulator>>;

/** A request as the emulator's log holds it (emulator/request-log.ts). */
export interface BenchRequest {
  method: string;
  path: string;
  query: string;
  body?: unknown;
}

async function admin(url: string, method: "GET" | "POST" | "DELETE", what: string, body?: unknown): Promise<any> {
  const res = await request(`${url}/__emulator/${what}`, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`emulator admin ${method} ${what}: ${res.statusCode} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Writes `fixture` to `file` and serves it. */
export async function startBenchEmulator(fixture: unknown, file: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(fixture));
  const cli = path.join(repoRoot, "dist", "emulator", "cli.js");
  const child: ChildProcess = spawn(process.execPath, [cli, "--port", "0", "--fixture", file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(child, "exit");
  // The first two stdout lines are the address and the key; the listener stays, draining the pipe.
  const { url, apiKey } = await new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
    let seen = "";
    child.stdout!.on("data", (chunk) => {
      seen += String(chunk);
      const url = /^emulator listening on (\S+)$/m.exec(seen)?.[1];
      const apiKey = /^api key: (\S+)$/m.exec(seen)?.[1];
      if (url && apiKey) resolve({ url, apiKey });
    });
    void exited.then(() =>
      reject(new Error(`the emulator (${cli}) exited before printing its address and key: ${seen}`)),
    );
  });
  return {
    url,
    apiKey,
    /** The emulator's process, for its CPU time (host.ts). */
    pid: child.pid!,
    /** `GET /__emulator/requests` counts since the last clear, by operation (`METHOD /v2/template`). */
    counts: async (): Promise<Record<string, number>> => (await admin(url, "GET", "requests")).counts,
    /** The logged requests since the last clear (the newest 10,000). */
    requests: async (): Promise<BenchRequest[]> => (await admin(url, "GET", "requests")).requests,
    clear: (): Promise<void> => admin(url, "DELETE", "requests"),
    /** Back to the fixture, so every cycle starts from the same account. */
    reset: (): Promise<void> => admin(url, "POST", "reset"),
    /** Changes an object out of band, as drift. */
    mutate: (kind: string, id: string, patch: unknown): Promise<void> =>
      admin(url, "POST", "mutate", { kind, id, patch }),
    async close() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The sum of a counts map. */
export const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);
