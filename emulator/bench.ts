/**
 * Requests per second the emulator serves for one simple GET: starts the CLI in its own process,
 * then keeps `--connections` requests in flight for `--seconds` with undici.
 * `node dist/emulator/bench.js [--path /v2/dns] [--connections 50] [--seconds 5]`
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { Pool } from "undici";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      path: { type: "string", default: "/v2/dns" },
      connections: { type: "string", default: "50" },
      seconds: { type: "string", default: "5" },
    },
  });
  const child = spawn(process.execPath, [path.join(__dirname, "cli.js"), "--port", "0", "--api-key", "bench-key"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [firstOutput] = await once(child.stdout, "data");
  const url = String(firstOutput).split("\n")[0].replace("emulator listening on ", "");
  const connections = Number(values.connections);
  const pool = new Pool(url, { connections, pipelining: 1 });
  const deadline = Date.now() + Number(values.seconds) * 1000;
  const statuses: Record<number, number> = {};
  let bytes = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      const res = await pool.request({ method: "GET", path: values.path, headers: { "x-api-key": "bench-key" } });
      bytes += (await res.body.arrayBuffer()).byteLength;
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (Date.now() - started) / 1000;
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  console.log(
    JSON.stringify({
      path: values.path,
      connections,
      seconds: elapsed,
      requests: total,
      requestsPerSecond: Math.round(total / elapsed),
      statuses,
      bytesPerResponse: Math.round(bytes / total),
    }),
  );
  await pool.close();
  child.kill("SIGTERM");
}

void main();
