/**
 * The demo's emulator process (started by ./emulator.ts). It takes the API key from
 * CDNSTREAM_API_KEY, not from the command line, so the key never shows in `ps`, and reports its
 * address over the IPC channel, so the parent can detach from it for `--keep`.
 */
import { startEmulator } from "../../emulator";

async function main(): Promise<void> {
  const apiKey = process.env.CDNSTREAM_API_KEY;
  if (!apiKey) throw new Error("CDNSTREAM_API_KEY must be set");
  const emulator = await startEmulator({ port: 0, apiKey });
  console.log(`emulator listening on ${emulator.url} (pid ${process.pid})`);
  process.send?.({ url: emulator.url });
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((e: Error) => {
  console.error(`demo emulator: ${e.message}`);
  process.exit(1);
});
