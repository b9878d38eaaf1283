/**
 * The usual end-to-end setup: an emulator, and a stack whose provider reaches it with the key
 * in CDNSTREAM_API_KEY (the way pipelines pass it) and only the base URL in stack config.
 */
import type { PulumiFn } from "@pulumi/pulumi/automation";
import type { EmulatorOptions } from "../../emulator";
import { createTestStack, type TestStack } from "./engine";
import { startTestEmulator, type TestEmulator } from "./emulator";

export async function startEmulatedStack(
  program: PulumiFn,
  emulatorOptions: EmulatorOptions = {},
): Promise<{ emulator: TestEmulator; test: TestStack }> {
  const emulator = await startTestEmulator(emulatorOptions);
  const test = await createTestStack({
    program,
    config: { "cdnstream:baseUrl": { value: emulator.url } },
    env: { CDNSTREAM_API_KEY: emulator.apiKey },
  });
  return { emulator, test };
}

/** Destroys and removes the stack, then stops the emulator; safe after a failed start. */
export async function stopEmulatedStack(
  test: TestStack | undefined,
  emulator: TestEmulator | undefined,
): Promise<void> {
  try {
    await test?.cleanup();
  } finally {
    await emulator?.close();
  }
}
