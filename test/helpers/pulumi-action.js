/**
 * A workflow step `uses: pulumi/actions@v7` with a `command`, done as the action does it
 * (pulumi/actions, src/main.ts and src/login.ts): `pulumi --non-interactive --cwd <work-dir> login
 * <cloud-url>`, then the stack selected in the work directory (no `upsert`: it must exist), then
 * the command through the Automation API with the step's options, its output printed. A failure
 * ends the step as the action's `core.setFailed` does: an `::error::` line and exit 1.
 *
 * Inputs arrive as GitHub hands them to an action: INPUT_<NAME> in the environment (the name
 * upper-cased, its dashes kept), GITHUB_WORKSPACE the checkout. The Automation API and the
 * project's program come from the checkout's own node_modules, as the runner installed them.
 *
 * One difference, and why: the action runs the project's program through the Node.js language
 * host of a released Pulumi CLI. The CLI built for the tests has no language host
 * (docs/engine.md), so the program runs inline, loaded by pulumi-cdnstream's project loader the
 * way `cdnstream drift` loads it (provider/cli/project.ts: what the language host's
 * `cmd/run` does). The engine commands, the backend and the state are the same.
 */
const { execFileSync } = require("node:child_process");
const { createRequire } = require("node:module");
const path = require("node:path");

/** Inputs this stand-in carries out; any other input in the step fails it, naming the input. */
const OPTIONS = { diff: "diff", refresh: "refresh", "expect-no-changes": "expectNoChanges" };
const HANDLED = new Set(["command", "stack-name", "work-dir", "cloud-url", "comment-on-pr", ...Object.keys(OPTIONS)]);

const input = (name) => (process.env[`INPUT_${name.toUpperCase()}`] ?? "").trim();

async function main() {
  const given = Object.keys(process.env)
    .filter((name) => name.startsWith("INPUT_"))
    .map((name) => name.slice("INPUT_".length).toLowerCase());
  const unknown = given.filter((name) => !HANDLED.has(name));
  if (unknown.length) throw new Error(`this step's inputs ${unknown.join(", ")} are not carried out by ${__filename}`);

  const command = input("command");
  const stackName = input("stack-name");
  if (!["up", "preview"].includes(command)) throw new Error(`command "${command}" is not carried out by ${__filename}`);
  if (!stackName) throw new Error("Input required and not supplied: stack-name");
  const workDir = path.resolve(process.env.GITHUB_WORKSPACE ?? process.cwd(), input("work-dir") || "./");

  const cloudUrl = input("cloud-url");
  process.stdout.write(
    cloudUrl ? "Logging into the backend of cloud-url\n" : "Logging into the Pulumi Cloud backend.\n",
  );
  // A login to a backend URL: a second (a step's own deadline, set by its runner, bounds the rest).
  execFileSync("pulumi", ["--non-interactive", "--cwd", workDir, "login", ...(cloudUrl ? [cloudUrl] : [])], {
    stdio: ["ignore", "inherit", "inherit"],
    timeout: 2 * 60_000,
    killSignal: "SIGKILL",
  });

  const fromProject = createRequire(path.join(workDir, "package.json"));
  const { LocalWorkspace } = fromProject("@pulumi/pulumi/automation");
  const project = fromProject("pulumi-cdnstream/provider/cli/project");
  project.prepareRuntime(project.readProject(workDir));
  const stack = await LocalWorkspace.selectStack(
    { stackName, projectName: project.projectName(workDir), program: project.projectProgram(workDir) },
    { workDir },
  );

  const options = {};
  for (const [name, option] of Object.entries(OPTIONS)) if (input(name) === "true") options[option] = true;
  process.stdout.write(`::group::pulumi ${command} on ${stackName}\n`);
  const onOutput = (text) => process.stdout.write(text);
  if (command === "up") {
    await stack.up({ onOutput, ...options });
  } else {
    const { stdout, stderr } = await stack.preview(options);
    onOutput(stdout);
    onOutput(stderr);
    // comment-on-pr: the action posts this output on the pull request; there is no GitHub here.
  }
  process.stdout.write("::endgroup::\n");
}

main().then(
  () => process.exit(0),
  (err) => {
    // core.setFailed: the CLI's own words (a CommandError's message holds its stderr).
    process.stdout.write(`::error::${err.name}: ${err.message}\n`);
    process.exit(1);
  },
);
