/**
 * The `client` option of the data sources and the argument types of their Output forms: the
 * public types are plain (`ApiClient`, `InputArgs<...>`), so these check what the plain types
 * no longer enforce by themselves at run time, and what they must still refuse at compile time.
 */
import { CdnstreamClient, ValidationError } from "../../client";
import * as cdn from "../../sdk/data-sources";
import { useDataSourceEmulator } from "./helpers";

describe("data sources given a client", () => {
  const ds = useDataSourceEmulator();

  it("run through a CdnstreamClient passed as `client`, and leave it open", async () => {
    const client = new CdnstreamClient({
      apiKey: ds.emulator.apiKey,
      baseUrl: ds.emulator.url,
      maxRetries: 0,
      env: {},
    });
    try {
      const first = await cdn.getDnsZones({}, { client });
      expect(first.domains.length).toBeGreaterThan(0);
      expect(Object.values(await ds.emulator.requestCounts()).reduce((a, b) => a + b, 0)).toBe(1);
      // Not closed by the data source: the same client serves a second call.
      expect((await cdn.getDnsZones({}, { client })).domains).toEqual(first.domains);
    } finally {
      await client.close();
    }
  });

  it("refuse something else passed as `client`, naming the option and the fix, and send nothing", async () => {
    const notAClient = { baseUrl: ds.emulator.url, close: async () => undefined };
    const err = await cdn.getDnsZones({}, { client: notAClient }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).toContain("the `client` option must be a CdnstreamClient");
    expect((err as Error).message).toContain("clientOptions");
    expect(await ds.emulator.requestCounts()).toEqual({});
  });

  it("type the Output forms' arguments from the Promise forms, optional arguments included", async () => {
    // @ts-expect-error: `pag` is not an argument of getHttpPullZones (its arguments are optional)
    const misspelt = () => cdn.getHttpPullZonesOutput({ pag: 2 });
    // @ts-expect-error: `zoneId` must be a number
    const wrongType = () => cdn.getPurgeOperationOutput({ zoneId: "101", purgeId: "pg-1" });
    expect(typeof misspelt).toBe("function");
    expect(typeof wrongType).toBe("function");
    // At run time the misspelt key is refused before any request, as in the Promise form.
    const err = await cdn.getHttpPullZones({ pag: 2 } as never, ds.options).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toContain("`pag` is not an argument of getHttpPullZones");
  });
});
