/**
 * Writes the provider plugin's Pulumi package schema (provider/plugin/schema.json) from what the
 * package already declares, so the plugin, the generated SDKs and the TypeScript classes cannot
 * disagree:
 *
 * - each kind's declaration (kinds/<kind>/declaration.ts, loaded at runtime): which inputs replace
 *   the resource, which inputs and outputs are secret, its id format;
 * - each kind's class (kinds/<kind>/resource.ts, read with the type checker): the `<Kind>Args`
 *   interface gives the input properties, the class's declared fields the output properties,
 *   their types and the JSDoc users read in their editor, which becomes every description;
 * - the data sources (sdk/data-sources): each `getX(args)` function's argument and result types;
 * - the client's settings (client/core/config.ts): the provider's configuration, each
 *   setting with the environment variable the plugin falls back to (never read by the SDKs).
 *
 * Run: `npm run gen` (builds, then `node dist/scripts/gen-schema.js`); `--check` writes
 * nothing and exits 1 when the file is out of date (test/plugin/schema.test.ts runs the same
 * comparison under `npm test`).
 */
import { KINDS } from "../kinds/registry";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { NUMERIC_SETTINGS } from "../client/core/config";
import { manifest, PLUGIN_PACKAGE as PACKAGE } from "../kinds/package-info";
import { checkedProgram, declarationOf, ROOT } from "./generated-files";

export const SCHEMA_FILE = path.join(ROOT, "provider", "plugin", "schema.json");

/** The project's repository: its source, issues and releases (the Registry links it as both homepage and repository). */
const REPOSITORY = "https://github.com/cdnstream/pulumi-cdnstream";
/**
 * The examples the schema carries (scripts/gen-examples writes them from docs/examples/yaml): per
 * resource or function token, its title and the program in each language the package ships.
 */
const EXAMPLES_FILE = path.join(ROOT, "docs", "examples", "schema-examples.json");
/** The languages of the Registry's chooser, in its order: those the package ships an SDK or a runtime for. */
const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
type Example = { title: string } & Record<(typeof EXAMPLE_LANGUAGES)[number], string>;
/**
 * Where the engine downloads the plugin when a program needs it and it is not installed: the
 * project's GitHub release of that version, whose assets are the archives `npm run release`
 * writes (the engine fills in `${VERSION}` and appends the archive's name). A direct download URL
 * rather than `github://api.github.com/cdnstream/pulumi-cdnstream`: for an organisation other than
 * `pulumi`, the engine's github:// source asks the GitHub API for the release first, which allows
 * 60 unauthenticated requests an hour per address (shared CI runners exhaust it). A fork or a
 * mirror builds with its own: CDNSTREAM_PLUGIN_DOWNLOAD_URL (docs/plugin.md).
 */
export const DEFAULT_PLUGIN_DOWNLOAD_URL = `${REPOSITORY}/releases/download/v\${VERSION}`;
export const pluginDownloadURL = (): string => process.env.CDNSTREAM_PLUGIN_DOWNLOAD_URL || DEFAULT_PLUGIN_DOWNLOAD_URL;
const token = (name: string) => `${PACKAGE}:index:${name}`;

/**
 * A description as the Registry and every SDK's codegen read it: the doc text (what the resource
 * or function does, then the API's detail), the example in each language in Pulumi's chooser
 * format (each language's codegen keeps only its own: `codegen.FilterExamples`), and for a
 * resource the `pulumi import` line, in an `sh` block, which every language keeps.
 */
function describe(
  text: string,
  example: Example | undefined,
  importing?: { kind: string; idFormat: string; idExample: string },
) {
  const parts = [text];
  if (example) {
    const blocks = EXAMPLE_LANGUAGES.map((language) => `\`\`\`${language}\n${example[language]}\n\`\`\``);
    parts.push(
      [
        "{{% examples %}}",
        "## Example Usage",
        "{{% example %}}",
        `### ${example.title}`,
        "",
        ...blocks,
        "{{% /example %}}",
        "{{% /examples %}}",
      ].join("\n"),
    );
  }
  if (importing) {
    const name = importing.kind.charAt(0).toLowerCase() + importing.kind.slice(1);
    parts.push(
      `## Import\n\nAn existing ${importing.kind} is imported by its id, \`${importing.idFormat}\`:\n\n` +
        `\`\`\`sh\n$ pulumi import ${token(importing.kind)} ${name} ${importing.idExample}\n\`\`\``,
    );
  }
  return parts.join("\n\n");
}

/**
 * The Python SDK's README, PyPI's page for pulumi_cdnstream (Python's codegen writes
 * `language.python.readme`): what the package is, how to install it, its configuration and a
 * first program, the Python example of PushZoneSettings.
 */
const pythonReadme = (description: string, example: Example | undefined) => `# pulumi_cdnstream

${description}

The Python SDK of the Pulumi provider \`cdnstream\`: manage the account's zone settings, domain
locks, stream statuses, timeshift streams, ad-break slots and archived campaigns as code, and
read its zones, backups and ad reports through data sources.

## Install

\`\`\`sh
pip install pulumi_cdnstream
\`\`\`

The engine downloads the provider plugin, \`pulumi-resource-cdnstream\`, from the project's
release page the first time a program needs it.

## Configure

\`\`\`sh
pulumi config set --secret cdnstream:apiKey <key>    # or CDNSTREAM_API_KEY
pulumi config set cdnstream:baseUrl https://…         # or CDNSTREAM_BASE_URL
\`\`\`

The key is never an input, an output or a state value. Retries, timeouts and pacing are
\`cdnstream:maxRetries\`, \`cdnstream:timeoutMs\`, \`cdnstream:rps\` and \`cdnstream:maxConcurrency\`.
${
  example
    ? `
## A first program

\`\`\`python
${example.python}
\`\`\`
`
    : ""
}
## Learn more

The resources, data sources and their examples in every language: ${REPOSITORY}.
`;

/** A property's type in the schema's terms. */
interface TypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
}
interface PropertySpec extends TypeSpec {
  description?: string;
  secret?: boolean;
  willReplaceOnChanges?: boolean;
}
interface ObjectSpec {
  description?: string;
  type: "object";
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** Type names of the Pulumi SDK that wrap a value: a property's type is what they wrap. */
const WRAPPERS = new Set(["Promise", "PromiseLike", "Output", "OutputInstance", "Input"]);

class SchemaBuilder {
  readonly types: Record<string, ObjectSpec> = {};
  /** Each named type's shape as first met, to refuse two shapes under one name. */
  private readonly shapes = new Map<string, string>();

  constructor(private readonly checker: ts.TypeChecker) {}

  description(symbol: ts.Symbol | undefined): string | undefined {
    if (!symbol) return undefined;
    const text = ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim();
    return text || undefined;
  }

  /** The type without `undefined`, `null` and the SDK's wrappers (Input, Output, Promise). */
  private members(type: ts.Type): ts.Type[] {
    const all = type.isUnion() ? type.types : [type];
    return all
      .filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)))
      .filter((t) => !WRAPPERS.has(t.getSymbol()?.getName() ?? t.aliasSymbol?.getName() ?? ""));
  }

  /** Whether a value of the type may be absent (`null` or `undefined` among its members). */
  nullable(type: ts.Type): boolean {
    return (type.isUnion() ? type.types : [type]).some(
      (t) => (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) !== 0,
    );
  }

  /** The schema type of a TypeScript type; `hint` names an anonymous object type. */
  typeOf(type: ts.Type, hint: string): TypeSpec {
    const members = this.members(type);
    const flagsAll = (flags: ts.TypeFlags) => members.every((t) => (t.flags & flags) !== 0);
    // An open enum (`"Y" | "N" | (string & {})`) or text-or-number (an id the API writes either way): text.
    const stringish = (t: ts.Type) =>
      (t.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike)) !== 0 ||
      (t.isIntersection() && t.types.some((p) => (p.flags & ts.TypeFlags.String) !== 0));
    if (!members.length) return { $ref: "pulumi.json#/Any" };
    if (flagsAll(ts.TypeFlags.BooleanLike)) return { type: "boolean" };
    if (flagsAll(ts.TypeFlags.NumberLike)) return { type: "number" };
    if (members.some((t) => (t.flags & ts.TypeFlags.StringLike) !== 0) && members.every(stringish))
      return { type: "string" };
    if (members.length === 1 && members[0].isIntersection() && stringish(members[0])) return { type: "string" };
    if (members.length === 1) {
      const only = members[0];
      if (this.checker.isArrayType(only) || this.checker.isTupleType(only)) {
        const element = this.checker.getTypeArguments(only as ts.TypeReference)[0];
        return { type: "array", items: this.typeOf(element, hint.replace(/s$/, "")) };
      }
      if (only.flags & ts.TypeFlags.Object) {
        const index = this.checker.getIndexInfoOfType(only, ts.IndexKind.String);
        if (index && !this.checker.getPropertiesOfType(only).length)
          return { type: "object", additionalProperties: this.typeOf(index.type, hint) };
        if (this.checker.getPropertiesOfType(only).length) return { $ref: `#/types/${this.objectType(only, hint)}` };
      }
    }
    return { $ref: "pulumi.json#/Any" };
  }

  /** Registers an object type under its own name (an interface) or `hint` (an inline type); returns its token. */
  private objectType(type: ts.Type, hint: string): string {
    const own = type.aliasSymbol?.getName() ?? type.getSymbol()?.getName();
    const name = own && !own.startsWith("__") ? own : hint;
    const id = token(name);
    const shape = this.checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
    const seen = this.shapes.get(id);
    if (seen !== undefined) {
      if (seen !== shape) throw new Error(`two object types are both named ${name}: ${seen} and ${shape}`);
      return id;
    }
    this.shapes.set(id, shape);
    const spec: ObjectSpec = { type: "object", properties: {} };
    this.types[id] = spec; // before its properties: a type may refer to itself
    const description = this.description(type.aliasSymbol ?? type.getSymbol());
    if (description && own && !own.startsWith("__")) spec.description = description;
    Object.assign(spec, this.objectOf(type, name));
    return id;
  }

  /** An object type's properties, each typed and described; `prefix` names their anonymous types. */
  objectOf(type: ts.Type, prefix: string): ObjectSpec {
    const spec: ObjectSpec = { type: "object", properties: {} };
    const required: string[] = [];
    for (const property of this.checker.getPropertiesOfType(type)) {
      const propertyType = this.checker.getTypeOfSymbol(property);
      spec.properties[property.getName()] = this.property(property, propertyType, prefix);
      if (!(property.flags & ts.SymbolFlags.Optional) && !this.nullable(propertyType))
        required.push(property.getName());
    }
    if (required.length) spec.required = required.sort();
    return spec;
  }

  /** A property of type `type`, described by its symbol's JSDoc; `prefix` names an anonymous type. */
  property(symbol: ts.Symbol, type: ts.Type, prefix: string): PropertySpec {
    const description = this.description(symbol);
    return { ...this.typeOf(type, `${prefix}${pascal(symbol.getName())}`), ...(description ? { description } : {}) };
  }

  /** The property types of a declared `pulumi.Output<T>` field or `pulumi.Input<T>` argument: `T`. */
  unwrapNode(node: ts.TypeNode | undefined, fallback: ts.Symbol): ts.Type {
    if (node && ts.isTypeReferenceNode(node) && node.typeArguments?.length) {
      const name = node.typeName.getText();
      if (/(^|\.)(Input|Output)$/.test(name)) return this.checker.getTypeFromTypeNode(node.typeArguments[0]);
    }
    return this.checker.getTypeOfSymbol(fallback);
  }
}

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** Whether a zod rule takes whole numbers only (from its JSON Schema), so the schema says `integer`. */
function integerRule(rule: unknown): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by the generator only
  const { z } = require("zod") as typeof import("zod");
  try {
    const json = z.toJSONSchema(rule as import("zod").ZodType, { unrepresentable: "any", io: "input" }) as {
      type?: string;
      anyOf?: { type?: string }[];
    };
    return json.type === "integer" || (json.anyOf?.every((branch) => branch.type === "integer") ?? false);
  } catch {
    return false;
  }
}

/** The top-level statement of `file` that `is` accepts and that is named `name`. */
function find<T extends ts.DeclarationStatement>(file: ts.SourceFile, is: (s: ts.Node) => s is T, name: string) {
  return file.statements.find((s): s is T => is(s) && s.name?.getText() === name);
}

/** The schema, as a plain object with its keys in a stable order. */
export function generateSchema(): Record<string, unknown> {
  // Each kind's declaration by its folder, the kinds as the registry (kinds/registry.ts) lists them.
  const folders = Object.values(KINDS)
    .map((kind) => kind.folder)
    .sort();
  const declarations = new Map(folders.map((folder) => [folder, declarationOf(folder)]));
  const resourceFiles = folders.map((folder) => path.join(ROOT, "kinds", folder, "resource.ts"));
  const dataSources = path.join(ROOT, "sdk", "data-sources", "index.ts");
  const configFile = path.join(ROOT, "client", "core", "config.ts");
  const program = checkedProgram([...resourceFiles, dataSources, configFile]);
  const checker = program.getTypeChecker();
  const builder = new SchemaBuilder(checker);
  const source = (file: string) => {
    const found = program.getSourceFile(file);
    if (!found) throw new Error(`gen-schema: cannot read ${path.relative(ROOT, file)}`);
    return found;
  };

  const examples: Record<string, Example> = fs.existsSync(EXAMPLES_FILE)
    ? JSON.parse(fs.readFileSync(EXAMPLES_FILE, "utf8"))
    : {};
  const resources: Record<string, unknown> = {};
  for (const [folder, declaration] of declarations) {
    const file = source(path.join(ROOT, "kinds", folder, "resource.ts"));
    const kind = declaration.name;
    const args = find(file, ts.isInterfaceDeclaration, `${kind}Args`);
    const cls = find(file, ts.isClassDeclaration, kind);
    if (!args || !cls) throw new Error(`gen-schema: kinds/${folder}/resource.ts must declare ${kind}Args and ${kind}`);

    const inputProperties: Record<string, PropertySpec> = {};
    const requiredInputs: string[] = [];
    for (const member of args.members) {
      if (!ts.isPropertySignature(member)) continue;
      const symbol = checker.getSymbolAtLocation(member.name)!;
      const name = symbol.getName();
      if (name === "adoptId") continue; // on the plugin path, adoption is `pulumi import` (docs/plugin.md)
      const declared = declaration.inputs[name];
      if (!declared) throw new Error(`gen-schema: ${kind}Args.${name} is not in the kind's declaration`);
      const spec = builder.property(symbol, builder.unwrapNode(member.type, symbol), kind);
      if (spec.type === "number" && integerRule(declared.rule)) spec.type = "integer";
      if (declared.secret) spec.secret = true;
      if (declared.replaces) spec.willReplaceOnChanges = true;
      inputProperties[name] = spec;
      if (!member.questionToken) requiredInputs.push(name);
    }

    const properties: Record<string, PropertySpec> = {};
    const required: string[] = [];
    for (const member of cls.members) {
      if (!ts.isPropertyDeclaration(member) || !member.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword))
        continue;
      const symbol = checker.getSymbolAtLocation(member.name)!;
      const name = symbol.getName();
      const type = builder.unwrapNode(member.type, symbol);
      const spec = builder.property(symbol, type, kind);
      if (inputProperties[name]?.type === "integer" && spec.type === "number") spec.type = "integer";
      if (declaration.inputs[name]?.secret || declaration.outputs[name]?.secret) spec.secret = true;
      properties[name] = spec;
      if (!builder.nullable(type) && (name in declaration.outputs || requiredInputs.includes(name)))
        required.push(name);
    }
    // The class's doc text, without its tags: what only the TypeScript class has (adoptId) is in
    // its @typescriptOnly tag, which no other language's SDK may be told of.
    const classDoc = builder.description(checker.getSymbolAtLocation(cls.name!));
    if (!classDoc) throw new Error(`gen-schema: the class ${kind} (kinds/${folder}/resource.ts) has no JSDoc`);
    resources[token(kind)] = {
      description: describe(classDoc, examples[token(kind)], { kind, ...declaration }),
      properties,
      required: required.sort(),
      inputProperties,
      requiredInputs: requiredInputs.sort(),
    };
  }

  const functions: Record<string, unknown> = {};
  const dataSourceModule = checker.getSymbolAtLocation(source(dataSources))!;
  for (const exported of checker.getExportsOfModule(dataSourceModule).sort((a, b) => a.name.localeCompare(b.name))) {
    const name = exported.getName();
    if (!/^get[A-Z]/.test(name) || name.endsWith("Output")) continue;
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarationNode = target.declarations?.find(ts.isFunctionDeclaration);
    if (!declarationNode) continue;
    const signature = checker.getSignatureFromDeclaration(declarationNode)!;
    const thing = name.slice(3);
    const argsSymbol = signature.getParameters()[0];
    const inputs: ObjectSpec = argsSymbol
      ? builder.objectOf(checker.getNonNullableType(checker.getTypeOfSymbol(argsSymbol)), thing)
      : { type: "object", properties: {} };
    const outputs = builder.objectOf(checker.getAwaitedType(signature.getReturnType())!, thing);
    const doc = builder.description(target);
    if (!doc) throw new Error(`gen-schema: the data source ${name} (sdk/data-sources) has no JSDoc`);
    functions[token(name)] = { description: describe(doc, examples[token(name)]), inputs, outputs };
  }

  const settingsInterface = find(source(configFile), ts.isInterfaceDeclaration, "ClientSettings");
  if (!settingsInterface) throw new Error("gen-schema: client/core/config.ts must declare ClientSettings");
  const settingDoc = (name: string) => {
    const member = settingsInterface.members.find((m) => m.name?.getText() === name);
    return member ? builder.description(checker.getSymbolAtLocation(member.name!)) : undefined;
  };
  // No `default` and no `defaultInfo`: Pulumi's codegen turns those into reads of the environment
  // and the defaults inside each SDK's Provider class, which then sends them as inputs and so
  // records them in state (the key from CDNSTREAM_API_KEY among them, and a 0 in Python lost to
  // `or 4`). The plugin applies the environment and the defaults itself (resolveConfig), so a
  // stack records only what the user set; the description says where a setting falls back to.
  const setting = (description: string | undefined, envVar: string): PropertySpec => ({
    description: `${description ?? ""} When unset, the provider reads \`${envVar}\` from its environment.`.trim(),
  });
  const config: Record<string, PropertySpec> = {
    apiKey: { type: "string", secret: true, ...setting(settingDoc("apiKey"), "CDNSTREAM_API_KEY") },
    baseUrl: { type: "string", ...setting(settingDoc("baseUrl"), "CDNSTREAM_BASE_URL") },
  };
  for (const [name, numeric] of Object.entries(NUMERIC_SETTINGS)) {
    config[name] = {
      type: Number.isInteger(numeric.fallback) && name !== "rps" ? "integer" : "number",
      ...setting(settingDoc(name), numeric.env),
    };
  }

  const { name: npmPackage, version, description, license, dependencies, devDependencies } = manifest();
  return {
    name: PACKAGE,
    displayName: "cdnstream",
    version,
    description,
    license,
    keywords: ["pulumi", "cdnstream", "category/network"],
    homepage: REPOSITORY,
    repository: REPOSITORY,
    // Who publishes the package: the cdnstream organisation, whose repository and releases these are.
    publisher: "cdnstream",
    pluginDownloadURL: pluginDownloadURL(),
    // Each language the package ships, and only those (no csharp or java: no SDK of theirs is
    // published). Node.js: this npm package, whose classes are what a program generated from the
    // schema calls (pulumi convert, pulumi import, the Registry's TypeScript examples), with the
    // Pulumi SDK it is built against. Python and Go (scripts/gen-sdks): a pulumi_cdnstream
    // distribution with a pyproject.toml and a README (PyPI's page), and a Go module laid out as
    // Pulumi's published providers lay theirs. All carry this version, the one the engine asks for
    // when it loads the plugin.
    language: {
      nodejs: {
        packageName: npmPackage,
        packageDescription: description,
        dependencies: { "@pulumi/pulumi": dependencies["@pulumi/pulumi"] },
        typescriptVersion: devDependencies.typescript,
        respectSchemaVersion: true,
      },
      python: {
        packageName: "pulumi_cdnstream",
        readme: pythonReadme(description, examples[token("PushZoneSettings")]),
        respectSchemaVersion: true,
        pyproject: { enabled: true },
      },
      go: {
        importBasePath: "github.com/cdnstream/pulumi-cdnstream/sdk/go/cdnstream",
        modulePath: "github.com/cdnstream/pulumi-cdnstream/sdk/go",
        respectSchemaVersion: true,
        generateResourceContainerTypes: false,
      },
    },
    config: { variables: config },
    provider: {
      description: "One account of the API: its key and address, and the client's settings.",
      inputProperties: config,
    },
    resources,
    functions,
    types: Object.fromEntries(Object.entries(builder.types).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** The file's text: 2-space JSON and a final newline, as the generator always writes it. */
export const schemaText = (): string => `${JSON.stringify(generateSchema(), null, 2)}\n`;

if (require.main === module) {
  const text = schemaText();
  const current = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, "utf8") : "";
  if (process.argv.includes("--check")) {
    if (current !== text) {
      process.stderr.write("provider/plugin/schema.json is stale: run `npm run gen`\n");
      process.exit(1);
    }
  } else if (current !== text) {
    fs.writeFileSync(SCHEMA_FILE, text);
    process.stdout.write(`wrote provider/plugin/schema.json (${text.length} bytes)\n`);
  } else {
    process.stdout.write("provider/plugin/schema.json is up to date\n");
  }
}
