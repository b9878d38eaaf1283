/**
 * `cdnstream doctor` (its HELP says what it does): settings resolved as resolveConfig does
 * (client/core/config.ts), and one read bounded whatever the account's size (§4.10, page 1).
 */
import * as path from "node:path";
import { CdnstreamClient } from "../../client/core/client";
import { NUMERIC_SETTINGS, type ConfigSource } from "../../client/core/config";
import {
  ApiError,
  AuthenticationError,
  ConfigError,
  ConnectionError,
  PermissionDeniedError,
} from "../../client/core/errors";
import { redactText, redactUrl } from "../../client/core/redact";
import { listPullZones } from "../../client/resources/zones";
import { EXIT, EXIT_HELP, parseOptions, parseOrExit, UsageError, type Command, type Env } from "./command";
import { errorMessage } from "./drift-stack";
import { automation, missingPulumi, secretsOf, workspaceOptions } from "./environment";
import { settingsFileIn } from "./project-settings";
import { stackWording } from "../../kinds/common/advice";

const PROBE = "GET /v2/zones/http/pull?page=1";

const HELP = `Usage: cdnstream doctor [--stack NAME] [--cwd DIR]

Checks the configuration a deployment would use, before \`pulumi up\`: resolves the settings as
the provider does, prints where each came from (never the key's value), and makes one cheap
read, ${PROBE} (the first page of HTTP pull zones, one request), to show that the API
answers and accepts the key.

Settings come from the stack config of the Pulumi project in the directory (cdnstream:apiKey,
cdnstream:baseUrl, ...), which wins, then the environment (CDNSTREAM_API_KEY,
CDNSTREAM_BASE_URL, ...; see the README's section "Configuration"). Without a
Pulumi.yaml there, only the environment is read. Reading stack config runs \`pulumi\` (on PATH,
with the backend and passphrase of the environment, as for \`pulumi up\`).

Options:
  -s, --stack NAME   the stack whose config to read (default: the selected stack, if any)
  -C, --cwd DIR      the project directory (default: .)
  -h, --help         show this help

The read is tried twice at most (one retry) so an unreachable API is reported in seconds.
Exit 0 when the API accepted the key; 1 when the key is missing or refused, the account lacks
permission, the API cannot be reached, or the stack config cannot be read.

${EXIT_HELP}`;

function parseDoctorArgs(argv: readonly string[], baseDir: string) {
  const { values } = parseOptions({
    args: argv,
    options: {
      stack: { type: "string", short: "s" },
      cwd: { type: "string", short: "C" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return undefined;
  if (values.stack !== undefined && !values.stack.trim()) throw new UsageError("--stack needs a stack name");
  return { stack: values.stack, cwd: path.resolve(baseDir, values.cwd ?? ".") };
}

/** The `cdnstream:*` stack config of one stack, by setting name; what `pulumi config` holds. */
export interface StackConfig {
  stack: string;
  values: ConfigSource;
}

/** Reads the `cdnstream:*` config of `stack` (or the selected stack) through the Automation API. */
async function readStackConfig(cwd: string, stack: string | undefined, env: Env): Promise<StackConfig | null> {
  const workspace = await automation().LocalWorkspace.create(await workspaceOptions(cwd, env));
  const name = stack ?? (await workspace.stack())?.name;
  if (!name) return null;
  const all = await workspace.getAllConfig(name);
  const values: Record<string, string> = {};
  for (const [key, { value }] of Object.entries(all))
    if (key.startsWith("cdnstream:")) values[key.slice("cdnstream:".length)] = value;
  return { stack: name, values };
}

/** Where a setting came from, as resolveConfig picks it: stack config first, then the environment. */
function sourceOf(name: string, envVar: string, config: StackConfig | null, env: Env): string | undefined {
  if (config?.values[name]?.trim()) return `config cdnstream:${name} of stack ${config.stack}`;
  if (env[envVar]?.trim()) return `environment variable ${envVar}`;
  return undefined;
}

export const doctorCommand: Command = {
  summary: "check the configuration and make one cheap read, to know before `up` that the key and address work",
  async run(argv, io) {
    const args = parseOrExit(io, "doctor", HELP, () => parseDoctorArgs(argv, process.cwd()));
    if (typeof args === "number") return args;
    // Every line is redacted of the key wherever it came from: a message might echo it.
    const secrets = secretsOf(io.env);
    const say = (line: string) => io.stdout(redactText(line, secrets));
    const fail = (line: string) => {
      io.stderr(redactText(`cdnstream doctor: ${line}`, secrets));
      return EXIT.failed;
    };

    const hasProject = settingsFileIn(args.cwd) !== undefined;
    if (!hasProject && args.stack !== undefined) {
      io.stderr(
        `cdnstream doctor: --stack ${args.stack} needs a Pulumi project, but there is no Pulumi.yaml in ${args.cwd}; give the project directory with --cwd DIR`,
      );
      return EXIT.usage;
    }
    let config: StackConfig | null = null;
    if (hasProject) {
      const notReady = missingPulumi(io.env);
      if (notReady) return fail(`reading the stack config of the project in ${args.cwd} needs pulumi: ${notReady}`);
      try {
        config = await readStackConfig(args.cwd, args.stack, io.env);
      } catch (e) {
        return fail(`cannot read the stack config of the project in ${args.cwd}: ${errorMessage(e, [])}`);
      }
      say(
        config
          ? `project  ${args.cwd}, stack ${config.stack}`
          : `project  ${args.cwd}, no stack selected: the environment alone is read (select one with --stack NAME)`,
      );
    } else {
      say(`project  none in ${args.cwd}: the environment alone is read`);
    }

    const configKey = config?.values.apiKey?.trim();
    if (configKey) secrets.push(configKey);
    const keySource = sourceOf("apiKey", "CDNSTREAM_API_KEY", config, io.env);
    const baseSource = sourceOf("baseUrl", "CDNSTREAM_BASE_URL", config, io.env);
    let client: CdnstreamClient;
    try {
      client = new CdnstreamClient({
        env: io.env,
        config: config?.values,
        ...stackWording(),
        // One retry: a pipeline should learn in seconds that the API cannot be reached.
        maxRetries: 1,
        maxRetryWaitMs: 2_000,
      });
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      return fail(e.message);
    }
    say(`apiKey   set, from ${keySource} (not shown)`);
    say(`baseUrl  ${redactUrl(client.settings.baseUrl)}, from ${baseSource}`);
    for (const [name, spec] of Object.entries(NUMERIC_SETTINGS)) {
      const from = sourceOf(name, spec.env, config, io.env);
      if (from) say(`${name.padEnd(8)} ${client.settings[name as keyof typeof NUMERIC_SETTINGS]}, from ${from}`);
    }
    const started = Date.now();
    try {
      await listPullZones(client, 1);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const first = e.message.split("\n")[0];
      if (e instanceof AuthenticationError)
        return fail(
          `${PROBE}: the API refused the API key from ${keySource}: ${first}\nSet the account's current key there (Settings, API Keys in the dashboard).`,
        );
      if (e instanceof PermissionDeniedError)
        return fail(
          `${PROBE}: the key from ${keySource} is valid, but the account lacks permission: ${first}\nCheck the account's plan and restrictions in the dashboard.`,
        );
      if (e instanceof ConnectionError)
        return fail(
          `${PROBE}: cannot reach the API at ${redactUrl(client.settings.baseUrl)} (from ${baseSource}): ${first}\nCheck the address and the network path to it.`,
        );
      return fail(`${PROBE}: ${e.message}`);
    } finally {
      await client.close();
    }
    say(`ok       ${PROBE} answered in ${Date.now() - started} ms: the API accepts the key from ${keySource}`);
    return EXIT.ok;
  },
};
