/**
 * The provider plugin's schema (provider/plugin/schema.json) is what the generator derives from
 * the kinds' declarations, classes and data sources, byte for byte; and it says what those
 * declare: every kind and data source, every secret, every input that replaces.
 */
import * as fs from "node:fs";
import { generateSchema, SCHEMA_FILE, schemaText } from "../../scripts/gen-schema";
import * as kinds from "../../kinds";
import * as dataSources from "../../sdk/data-sources";
import { NUMERIC_SETTINGS } from "../../client/core/config";

const checkedIn = fs.readFileSync(SCHEMA_FILE, "utf8");
const schema = JSON.parse(checkedIn) as {
  config: { variables: Record<string, { secret?: boolean; description?: string }> };
  provider: { inputProperties: Record<string, unknown> };
  resources: Record<string, any>;
  functions: Record<string, any>;
  types: Record<string, any>;
};

/** Every kind's declaration, by name, as the kinds' folders declare them. */
const declarations = fs
  .readdirSync(`${__dirname}/../../kinds`, { withFileTypes: true })
  // A kind's folder holds its declaration; kinds/common holds what the kinds share.
  .filter((entry) => entry.isDirectory() && fs.existsSync(`${__dirname}/../../kinds/${entry.name}/declaration.ts`))
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- one per kind folder
  .map((entry) => require(`../../kinds/${entry.name}/declaration`).declaration);

describe("the plugin's schema", () => {
  it("is what the generator writes today (else: run `npm run gen`)", () => {
    const fresh = schemaText();
    if (fresh !== checkedIn) throw new Error("provider/plugin/schema.json is stale: run `npm run gen`");
    expect(generateSchema()).toEqual(schema);
  });

  it("has a resource for every kind the package exports, and nothing else", () => {
    const exported = Object.keys(kinds).filter((name) => !name.endsWith("Args"));
    expect(Object.keys(schema.resources).sort()).toEqual(exported.map((name) => `cdnstream:index:${name}`).sort());
    expect(declarations.map((d) => d.name).sort()).toEqual(exported.sort());
  });

  it("has a function for every data source", () => {
    const names = Object.keys(dataSources).filter((name) => /^get[A-Z]/.test(name) && !name.endsWith("Output"));
    expect(names).toHaveLength(12);
    expect(Object.keys(schema.functions).sort()).toEqual(names.map((name) => `cdnstream:index:${name}`).sort());
  });

  it.each(declarations.map((d) => [d.name, d]))("%s: secrets, replacements and inputs as declared", (name, d) => {
    const resource = schema.resources[`cdnstream:index:${name}`];
    for (const [input, declared] of Object.entries<any>(d.inputs)) {
      const spec = resource.inputProperties[input];
      expect([input, spec !== undefined]).toEqual([input, true]);
      expect([input, spec.secret === true]).toEqual([input, declared.secret === true]);
      expect([input, spec.willReplaceOnChanges === true]).toEqual([input, declared.replaces === true]);
    }
    // Secret outputs as the class exposes them (a secret input the class does not echo is secret above).
    const exposed = d.secretOutputs.filter((secret: string) => secret in resource.properties);
    expect(exposed.length).toBeGreaterThanOrEqual(Object.values<any>(d.outputs).filter((o) => o.secret).length);
    for (const secret of exposed) expect([secret, resource.properties[secret].secret]).toEqual([secret, true]);
    expect(resource.inputProperties.adoptId).toBeUndefined();
    expect(resource.description).toMatch(/Import/);
  });

  it("describes every property, argument and result", () => {
    const undocumented: string[] = [];
    const visit = (where: string, properties: Record<string, any> = {}) => {
      for (const [name, spec] of Object.entries(properties))
        if (!spec.description) undocumented.push(`${where}.${name}`);
    };
    for (const [token, r] of Object.entries(schema.resources)) {
      visit(`${token} input`, r.inputProperties);
      visit(`${token} output`, r.properties);
    }
    for (const [token, f] of Object.entries(schema.functions)) {
      visit(`${token} argument`, f.inputs.properties);
      visit(`${token} result`, f.outputs.properties);
    }
    for (const [token, type] of Object.entries(schema.types)) visit(`${token} field`, type.properties);
    visit("config", schema.config.variables);
    expect(undocumented).toEqual([]);
  });

  it("configures the provider with every client setting, the key secret, leaving the environment and defaults to the plugin", () => {
    expect(Object.keys(schema.config.variables).sort()).toEqual(
      ["apiKey", "baseUrl", ...Object.keys(NUMERIC_SETTINGS)].sort(),
    );
    expect(schema.provider.inputProperties).toEqual(schema.config.variables);
    expect(schema.config.variables.apiKey).toMatchObject({ secret: true });
    // A `default` or `defaultInfo` would make each SDK's Provider read them and send them as
    // inputs, recording in state what the user never set (the key from the environment among them).
    const environmentOf = { apiKey: "CDNSTREAM_API_KEY", baseUrl: "CDNSTREAM_BASE_URL" } as Record<string, string>;
    for (const [name, setting] of Object.entries(NUMERIC_SETTINGS)) environmentOf[name] = setting.env;
    for (const [name, variable] of Object.entries(schema.config.variables)) {
      expect(Object.keys(variable)).not.toContain("default");
      expect(Object.keys(variable)).not.toContain("defaultInfo");
      expect(variable.description).toContain(`\`${environmentOf[name]}\``);
    }
  });
});
