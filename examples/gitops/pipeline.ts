/**
 * The pipeline's three jobs as one command, so CI and a laptop run exactly the same thing:
 *
 *   node bin/pipeline.js preview --stack prod [--comment preview.md]   # pull requests
 *   node bin/pipeline.js up      --stack prod                          # merge to main
 *   node bin/pipeline.js drift   --stack prod [--markdown drift.md] [--json drift.json]   # nightly
 *
 * The program (./index.ts) runs inline through the Pulumi Automation API, so only the `pulumi`
 * CLI is needed. Environment, as for `pulumi`: PULUMI_BACKEND_URL (or PULUMI_ACCESS_TOKEN),
 * PULUMI_CONFIG_PASSPHRASE for passphrase stacks, CDNSTREAM_API_KEY. `--create` creates the
 * stack when missing (a first local run); CI never does, so a misspelt stack fails.
 *
 * Exit status: 0 done (drift: no drift); 2 drift found (the markdown report names each resource
 * and property), or bad usage; 1 anything failed.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import program = require("./index");

const projectDir = path.resolve(__dirname, "..");
const USAGE = "usage: pipeline.js preview|up|drift --stack NAME [--create] [--comment FILE] [--markdown FILE] [--json FILE]";

/** Never print the key, whatever the engine echoes. */
function redact(text: string): string {
  const secrets = [process.env.CDNSTREAM_API_KEY, process.env.PULUMI_CONFIG_PASSPHRASE, process.env.PULUMI_ACCESS_TOKEN].filter((s): s is string => !!s && s.length >= 4);
  return secrets.reduce((t, s) => t.split(s).join("[secret]"), text);
}

async function openStack(name: string, create: boolean): Promise<Stack> {
  const workspace = await LocalWorkspace.create({ workDir: projectDir, program });
  return create ? Stack.createOrSelect(name, workspace) : Stack.select(name, workspace);
}

/** `{update: 1, same: 3}` -> `1 to update, 3 unchanged`. */
function summarize(changes: Record<string, number> = {}): string {
  const parts = Object.entries(changes).filter(([op]) => op !== "same").map(([op, n]) => `${n} to ${op}`);
  return [...(parts.length ? parts : ["no changes"]), `${changes.same ?? 0} unchanged`].join(", ");
}

/** A pull-request comment: the summary in the heading, the full preview folded below it. */
function previewComment(stack: string, summary: string, transcript: string): string {
  const limit = 60_000; // GitHub refuses comments over 65,536 characters
  const body = transcript.length > limit ? `${transcript.slice(0, limit)}\n… (truncated; the job log has all of it)` : transcript;
  return [
    "<!-- cdnstream-gitops:preview -->",
    `### \`pulumi preview\` of stack \`${stack}\`: ${summary}`,
    "",
    "<details><summary>Full preview</summary>",
    "",
    "```diff",
    body.trim(),
    "```",
    "</details>",
    "",
  ].join("\n");
}

async function preview(stack: Stack, commentFile?: string): Promise<number> {
  let transcript = "";
  const result = await stack.preview({ diff: true, color: "never", onOutput: (t) => (transcript += t) });
  const summary = summarize(result.changeSummary);
  process.stdout.write(redact(transcript));
  if (commentFile) writeFileSync(commentFile, redact(previewComment(stack.name, summary, transcript)));
  console.log(`preview of ${stack.name}: ${summary}`);
  return 0;
}

async function up(stack: Stack): Promise<number> {
  const result = await stack.up({ color: "never", onOutput: (t) => process.stdout.write(redact(t)) });
  console.log(`up of ${stack.name}: ${result.summary.result}`);
  return result.summary.result === "succeeded" ? 0 : 1;
}

/** `cdnstream drift` of the installed pulumi-cdnstream; its exit status is the pipeline's. */
async function drift(stackName: string, markdown?: string, json?: string): Promise<number> {
  const pkg = require.resolve("pulumi-cdnstream/package.json");
  const cli = path.join(path.dirname(pkg), (require(pkg) as { bin: { cdnstream: string } }).bin.cdnstream);
  const args = ["drift", "--cwd", projectDir, "--stack", stackName, ...(markdown ? ["--markdown", markdown] : []), ...(json ? ["--json", json] : [])];
  const child = spawn(process.execPath, [cli, ...args], { stdio: "inherit" });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code ?? 1));
  });
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        stack: { type: "string", short: "s" },
        create: { type: "boolean", default: false },
        comment: { type: "string" },
        markdown: { type: "string" },
        json: { type: "string" },
      },
    });
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command] = positionals;
  if (!values.stack || !["preview", "up", "drift"].includes(command ?? "") || positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  const resolve = (file?: string) => (file ? path.resolve(file) : undefined);
  if (command === "drift") return drift(values.stack, resolve(values.markdown), resolve(values.json));
  const stack = await openStack(values.stack, values.create ?? false);
  return command === "preview" ? preview(stack, resolve(values.comment)) : up(stack);
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    // An engine failure's message is the CLI transcript; its `error:` lines say what went wrong.
    const text = e instanceof Error ? e.message : String(e);
    const errors = text.split("\n").filter((l) => /^\s*error: /.test(l));
    console.error(redact(`pipeline: ${(errors.length ? errors.join("\n") : text).trim()}`));
    process.exitCode = 1;
  },
);
