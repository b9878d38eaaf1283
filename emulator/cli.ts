#!/usr/bin/env node
/** `npm run emulator -- [options]` (USAGE); its output lines: emulator/README.md, "Start it". */
import { parseArgs } from "node:util";
import { startEmulator } from "./index";
import { parseProfileFlag } from "./profile";

const USAGE =
  "usage: emulator [--port N] [--host 127.0.0.1] [--api-key KEY] [--forbidden-key KEY] [--fixture FILE] [--state FILE] [--strict-spec] [--profile NAME|FIELD=VALUE,...]";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "0" },
      host: { type: "string", default: "127.0.0.1" },
      "api-key": { type: "string" },
      "forbidden-key": { type: "string" },
      fixture: { type: "string" },
      state: { type: "string" },
      "strict-spec": { type: "boolean", default: false },
      profile: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) return void console.log(USAGE);
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port ?? "") || port > 65535)
    throw new Error(`--port must be an integer 0-65535 (got ${values.port})`);
  // Checked before listening: a bad field or value exits 2 naming it.
  const profile = values.profile === undefined ? undefined : parseProfileFlag(values.profile);
  const emulator = await startEmulator({
    port,
    host: values.host,
    apiKey: values["api-key"],
    forbiddenKey: values["forbidden-key"],
    fixture: values.fixture,
    stateFile: values.state,
    strictSpec: values["strict-spec"],
    profile,
  });
  console.log(`emulator listening on ${emulator.url}`);
  if (!values["api-key"]) console.log(`api key: ${emulator.apiKey}`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((e: Error) => {
  console.error(`emulator: ${e.message}\n${USAGE}`);
  process.exit(2);
});
