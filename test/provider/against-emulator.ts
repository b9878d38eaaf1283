/**
 * A handler pointed at a test emulator, as the provider host's `configure` points it, with the
 * provider's stderr (its warnings and the API's notes) captured instead of printed.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { EmulatorOptions } from "../../emulator";
import type { Handler } from "../../kinds/common/handlers/shared";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

export interface HandlerAgainstEmulator {
  emulator: TestEmulator;
  /** What the provider wrote to stderr so far, one entry per write. */
  stderr: jest.SpyInstance;
  /** Everything the provider wrote to stderr, as one text. */
  said(): string;
  /**
   * What the next engine operation starts with: a client that keeps no answer of this one. The
   * provider host reads each object once between writes (its client keeps the answers: it lives one
   * engine operation), so a change made out of band is seen by the next operation, as `pulumi
   * refresh` after it would. The process stays, so what the run learnt of absent read paths stays.
   */
  nextOperation(): Promise<void>;
  /** Closes the handler's client (a different config does), restores stderr, stops the emulator. */
  close(): Promise<void>;
}

const configOf = (values: Record<string, string | undefined>) => ({
  config: { get: (key: string) => values[key] } as unknown as pulumi.Config,
});

export async function handlerAgainstEmulator(
  handler: Pick<Handler, "configure">,
  options: EmulatorOptions,
): Promise<HandlerAgainstEmulator> {
  const emulator = await startTestEmulator(options);
  const config = { "cdnstream:apiKey": emulator.apiKey, "cdnstream:baseUrl": emulator.url };
  await handler.configure(configOf(config));
  const stderr = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
  return {
    emulator,
    stderr,
    said: () => stderr.mock.calls.map(([text]) => String(text)).join(""),
    async nextOperation() {
      // A different config closes the client; the same again makes a new one at the next call.
      await handler.configure(configOf({}));
      await handler.configure(configOf(config));
    },
    async close() {
      stderr.mockRestore();
      await handler.configure(configOf({}));
      await emulator.close();
    },
  };
}
