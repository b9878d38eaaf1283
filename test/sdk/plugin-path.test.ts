/**
 * Which path a resource class takes: without a provider, a dynamic resource (the type token
 * existing stacks hold); given a cdnstream Provider, directly or through its parent, a resource
 * of the provider plugin. Pulumi's mocks record what each registration asks the engine for.
 */
import * as pulumi from "@pulumi/pulumi";
import * as cdn from "../../sdk";

const registered: pulumi.runtime.MockResourceArgs[] = [];

beforeAll(() =>
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push(args);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "project",
    "stack",
  ),
);
beforeEach(() => void (registered.length = 0));

const typeOf = async (resource: pulumi.CustomResource) => {
  const urn = await new Promise<string>((resolve) => resource.urn.apply(resolve));
  return registered.find((args) => urn.endsWith(`::${args.name}`))!;
};

const args = { streamKind: "push" as const, streamId: 1234, disabled: true };

describe("the path a resource takes", () => {
  it("is the dynamic provider without a provider option, carrying the provider's module", async () => {
    const registration = await typeOf(new cdn.StreamStatus("dynamic", args));
    expect(registration.type).toBe("pulumi-nodejs:dynamic/cdnstream:StreamStatus");
    expect(registration.inputs.__provider).toContain("pulumi-cdnstream/provider/shims/stream-status");
  });

  it("is the plugin with a cdnstream Provider, without the module and with the key secret", async () => {
    const provider = new cdn.Provider("account", { apiKey: "k-123", baseUrl: "http://127.0.0.1:1" });
    const registration = await typeOf(new cdn.StreamStatus("plugin", args, { provider }));
    expect(registration.type).toBe("cdnstream:index:StreamStatus");
    expect(registration.provider).toMatch(/::pulumi:providers:cdnstream::account::/);
    expect(registration.inputs).toEqual({ streamKind: "push", streamId: 1234, disabled: true });
    const providerRegistration = registered.find((r) => r.type === "pulumi:providers:cdnstream")!;
    expect(providerRegistration.inputs.baseUrl).toBe("http://127.0.0.1:1");
  });

  it("is the plugin when a parent component holds a cdnstream Provider", async () => {
    const provider = new cdn.Provider("inherited", {});
    const parent = new pulumi.ComponentResource("test:index:Site", "site", {}, { providers: [provider] });
    const registration = await typeOf(new cdn.StreamStatus("child", args, { parent }));
    expect(registration.type).toBe("cdnstream:index:StreamStatus");
  });

  it("stays dynamic when the provider option belongs to another package", async () => {
    class OtherProvider extends pulumi.ProviderResource {
      constructor() {
        super("other", "other");
      }
    }
    const registration = await typeOf(new cdn.StreamStatus("other-owned", args, { provider: new OtherProvider() }));
    expect(registration.type).toBe("pulumi-nodejs:dynamic/cdnstream:StreamStatus");
  });

  it("refuses adoptId beside a cdnstream Provider, pointing at the import option", () => {
    const provider = new cdn.Provider("refusing", {});
    expect(() => new cdn.StreamStatus("adopting", { ...args, adoptId: "push/1234" }, { provider })).toThrow(
      /StreamStatus adopting: adoptId is for resources without a provider; .*import option instead \(import: "<id>"/,
    );
  });
});
