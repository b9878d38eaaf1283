/**
 * Plumbing of the data-source tests: an emulator, the options that point a data source at it,
 * and the value of an Output.
 */
import type * as pulumi from "@pulumi/pulumi";
import { closeDataSourceClients, type DataSourceOptions } from "../../sdk/data-sources";
import { DEFAULT_PROFILE, PROFILES, type ProfileName, type ServerProfile } from "../../emulator";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const defaultFixture = require("../../emulator/fixtures/default.json");

/** An emulator and the data-source options for it (no retries, environment ignored). */
export interface DataSourceEmulator {
  emulator: TestEmulator;
  options: DataSourceOptions;
}

/** Starts an emulator on the default fixture, with `account` fields overridden (plan gates). */
export async function startDataSourceEmulator(
  account: Record<string, unknown> = {},
  extra: { forbiddenKey?: string } = {},
): Promise<DataSourceEmulator> {
  const fixture = { ...defaultFixture, account: { ...defaultFixture.account, ...account } };
  const emulator = await startTestEmulator({ fixture, ...extra });
  return {
    emulator,
    options: { clientOptions: { apiKey: emulator.apiKey, baseUrl: emulator.url, maxRetries: 0, env: {} } },
  };
}

/** The value of an Output outside a Pulumi run (rejects when the Output failed). */
export function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return (output as unknown as { promise(): Promise<T> }).promise();
}

/**
 * The error of a failed Output. A failed Output rejects its value and its `isKnown` / `isSecret`
 * promises; in a program the Pulumi runtime reports that, here each is handled so only the
 * value's rejection is observed.
 */
export function failureOf<T>(output: pulumi.Output<T>): Promise<unknown> {
  const internal = output as unknown as { isKnown: Promise<boolean>; isSecret: Promise<boolean> };
  internal.isKnown.catch(() => undefined);
  internal.isSecret.catch(() => undefined);
  return valueOf(output).then(
    () => {
      throw new Error("the Output resolved; a failure was expected");
    },
    (err: unknown) => err,
  );
}

/**
 * A suite's emulator: started before its tests, request log cleared before each, stopped (with
 * the shared data-source clients closed) after. The returned object is filled in by `beforeAll`.
 */
export function useDataSourceEmulator(
  account: Record<string, unknown> = {},
  extra: { forbiddenKey?: string } = {},
): DataSourceEmulator {
  const ds = {} as DataSourceEmulator;
  beforeAll(async () => Object.assign(ds, await startDataSourceEmulator(account, extra)));
  afterAll(async () => {
    await closeDataSourceClients();
    await ds.emulator?.close();
  });
  beforeEach(() => ds.emulator.clearRequests());
  return ds;
}

/**
 * Puts `emulator` under one of the named server profiles (over the default, whatever was set
 * before), through the admin door; resolves to the whole profile in force.
 */
export function switchProfile(emulator: TestEmulator, name: ProfileName): Promise<ServerProfile> {
  return emulator.setProfile({ ...DEFAULT_PROFILE, ...PROFILES[name] });
}

/**
 * Reads with `read` under the default profile, then under `profile` (set back to the default
 * afterwards, whatever happens): both results and the requests the second read made.
 */
export async function readUnderProfile<T>(
  emulator: TestEmulator,
  profile: ProfileName,
  read: () => Promise<T>,
): Promise<{ inDefault: T; inProfile: T; counts: Record<string, number> }> {
  const inDefault = await read();
  await emulator.clearRequests();
  await switchProfile(emulator, profile);
  try {
    const inProfile = await read();
    return { inDefault, inProfile, counts: await emulator.requestCounts() };
  } finally {
    await switchProfile(emulator, "default");
  }
}
