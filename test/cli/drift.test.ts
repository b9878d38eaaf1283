/**
 * `cdnstream drift` as a command: arguments, the concurrency bound, report files, stdout and
 * exit codes, over a fake engine (the real one is test/e2e/drift.test.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { commands, main } from "../../provider/cli";
import type { Io } from "../../provider/cli/command";
import { createDriftCommand, driftCommand, mapBounded, parseDriftArgs, type DriftDeps } from "../../provider/cli/drift";
import type { StackReport } from "../../provider/cli/drift-report";
import { stackResult as stackOf, type StackOutcome } from "../helpers/drift-report";
import { ensureEngine } from "../helpers/engine";

const KEY = "k-drift-unit-5f4e3d2c1b";

const stackResult = (stack: string, kind: StackOutcome): StackReport =>
  stackOf(stack, kind, { project: "p", error: `error: no stack named '${stack}' found (key ${KEY})` });

function harness(kinds: Record<string, "clean" | "drift" | "error">, listed: string[] | Error = Object.keys(kinds)) {
  const files: Record<string, string> = {};
  const calls: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const deps: DriftDeps = {
    cwd: () => "/work",
    async listStacks() {
      if (listed instanceof Error) throw listed;
      return listed;
    },
    async checkStack(stack, cwd, _env, onOutput) {
      calls.push(`${stack}@${cwd}`);
      onOutput(`the program of ${stack} says hello, key ${KEY}`);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      return stackResult(stack, kinds[stack] ?? "error");
    },
    writeFile: (file, text) => void (files[file] = text),
    preflight: () => ({}),
    projectName: () => "infra",
  };
  const command = createDriftCommand(deps);
  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: Io = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: { CDNSTREAM_API_KEY: KEY } };
    const code = await command.run(argv, io);
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  };
  return { run, files, calls, maxInFlight: () => maxInFlight };
}

describe("drift arguments", () => {
  it("parses stacks, directories relative to the working directory, files and concurrency", () => {
    expect(
      parseDriftArgs(
        [
          "--stack",
          "a",
          "-s",
          "b",
          "--stack",
          "a",
          "--cwd",
          "infra",
          "--json",
          "r.json",
          "--markdown",
          "/abs/r.md",
          "-j",
          "3",
        ],
        "/work",
      ),
    ).toEqual({
      stacks: ["a", "b"],
      cwd: "/work/infra",
      json: "/work/r.json",
      markdown: "/abs/r.md",
      concurrency: 3,
      rules: { file: "/work/infra/cdnstream-drift.yaml", name: "infra/cdnstream-drift.yaml", required: false },
    });
    expect(parseDriftArgs([], "/work")).toEqual({
      stacks: [],
      cwd: "/work",
      json: undefined,
      markdown: undefined,
      concurrency: 2,
      rules: { file: "/work/cdnstream-drift.yaml", name: "cdnstream-drift.yaml", required: false },
    });
    expect(parseDriftArgs(["--json", "-"], "/work")?.json).toBe("-");
    expect(parseDriftArgs(["-h"], "/work")).toBeUndefined();
  });

  it.each([
    [["drift", "extra"], /Unexpected argument 'extra'/],
    [["drift", "--concurrency", "0"], /--concurrency takes a whole number from 1 to 32, got "0"/],
    [["drift", "--concurrency", "two"], /--concurrency takes a whole number/],
    [["drift", "--stack", " "], /--stack needs a stack name/],
    [["drift", "--json", "-", "--markdown", "-"], /only one of --json and --markdown can be -/],
    [["drift", "--json", ""], /--json needs a file name/],
    [["drift", "--frobnicate"], /Unknown option '--frobnicate'/],
  ])(
    "%j is bad usage (exit 64, EX_USAGE: never 2, which says drift was found; nothing checked)",
    async (argv, message) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} });
      expect(code).toBe(64);
      expect(err.join("\n")).toMatch(message);
      expect(err.join("\n")).toMatch(/Run `cdnstream drift --help` for usage/);
      expect(out).toEqual([]);
    },
  );

  it("--help documents the command, its environment and exit codes", async () => {
    const out: string[] = [];
    expect(await main(["drift", "--help"], { stdout: (t) => out.push(t), stderr: () => undefined, env: {} })).toBe(0);
    const help = out.join("\n");
    expect(help).toMatch(
      /^Usage: cdnstream drift \[--stack NAME \.\.\.\] \[--cwd DIR\] \[--json FILE\] \[--markdown FILE\] \[--concurrency N\]/,
    );
    expect(help).toMatch(/\n {2}2 {4}`drift` only: drift found/);
    expect(help).toMatch(/\n {2}64 {3}bad usage \(EX_USAGE\)/);
    expect(help).toMatch(/without it the command says so and\s+exits 1 before checking anything/);
    expect(help).toMatch(/PULUMI_BACKEND_URL/);
    expect(help).toMatch(/TypeScript is\s+compiled on the fly with the project's tsconfig\.json/);
    expect(help).toMatch(/runtime\.options typescript, tsconfig and nodeargs are honoured/);
    expect(help).toMatch(/The preview runs the program \(`--run-program`\)/);
    const top: string[] = [];
    await main(["--help"], { stdout: (t) => top.push(t), stderr: () => undefined, env: {} });
    expect(top.join("\n")).toMatch(/\n {2}drift +report out-of-band changes/);
    expect(top.join("\n")).toMatch(/\n {2}2 {4}`drift` only: drift found/);
  });
});

describe("drift runs", () => {
  it("no drift: exit 0, an empty report in both files, markdown on stdout", async () => {
    const h = harness({ prod: "clean" });
    const r = await h.run(["--stack", "prod", "--cwd", "/proj", "--json", "out/r.json", "--markdown", "out/r.md"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(h.files["/work/out/r.json"]!)).toEqual({
      stacks: [{ stack: "prod", cwd: "/proj", drifted: false, resources: [] }],
      drifted: false,
    });
    expect(h.files["/work/out/r.md"]).toMatch(/^## No drift/);
    expect(r.stdout).toBe(h.files["/work/out/r.md"]);
    expect(r.stderr).toMatch(/cdnstream drift: prod: no drift \(\d+\.\ds\)/);
    expect(h.calls).toEqual(["prod@/proj"]);
    // The program's own output goes to stderr, named by stack, without the key.
    expect(r.stderr).toContain("cdnstream drift: prod: the program of prod says hello, key [REDACTED]");
    expect(r.stderr).not.toContain(KEY);
  });

  it("drift: exit 2; --json - puts the JSON on stdout", async () => {
    const h = harness({ a: "clean", b: "drift" });
    const r = await h.run(["-s", "a", "-s", "b", "--json", "-"]);
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(report.drifted).toBe(true);
    expect(report.stacks.map((s: StackReport) => [s.stack, s.drifted])).toEqual([
      ["a", false],
      ["b", true],
    ]);
    expect(r.stderr).toMatch(/b: drift in r\.\{disabled\}/);
  });

  it("an unreadable stack: exit 1 even beside drift, the reports keep both, the key never shown", async () => {
    const h = harness({ a: "drift", nope: "error" });
    const r = await h.run(["-s", "a", "-s", "nope", "--json", "r.json"]);
    expect(r.code).toBe(1);
    const report = JSON.parse(h.files["/work/r.json"]!);
    expect(report.stacks[1]).toMatchObject({
      stack: "nope",
      error: expect.stringMatching(/no stack named 'nope' found/),
    });
    expect(r.stderr).toMatch(/nope: could not be checked/);
    expect(r.stdout + r.stderr + h.files["/work/r.json"]).not.toContain(KEY);
    expect(r.stdout).toContain("[REDACTED]");
  });

  it("keeps at most --concurrency stacks in flight, reports in the order given", async () => {
    const kinds = { s1: "clean", s2: "drift", s3: "clean", s4: "clean", s5: "drift" } as const;
    const two = harness(kinds);
    const r = await two.run(["-s", "s1", "-s", "s2", "-s", "s3", "-s", "s4", "-s", "s5", "--json", "-"]);
    expect(two.maxInFlight()).toBe(2);
    expect(JSON.parse(r.stdout).stacks.map((s: StackReport) => s.stack)).toEqual(["s1", "s2", "s3", "s4", "s5"]);
    const one = harness(kinds);
    await one.run(["--concurrency", "1"]);
    expect(one.maxInFlight()).toBe(1);
    expect(one.calls).toEqual(["s1@/work", "s2@/work", "s3@/work", "s4@/work", "s5@/work"]);
  });

  it("without --stack checks every stack of the project; a failed listing is exit 1", async () => {
    const h = harness({ dev: "clean", prod: "clean" });
    expect((await h.run([])).code).toBe(0);
    expect(h.calls).toEqual(["dev@/work", "prod@/work"]);
    const none = harness({}, []);
    const r = await none.run(["--json", "r.json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot list the project's stacks: no stacks of the project in \/work/);
    expect(JSON.parse(none.files["/work/r.json"]!).stacks[0].error).toMatch(/no stacks/);
  });

  it("mapBounded keeps order and the bound", async () => {
    let live = 0;
    let peak = 0;
    const out = await mapBounded([5, 1, 3, 2], 3, async (n) => {
      peak = Math.max(peak, ++live);
      await new Promise((r) => setTimeout(r, n * 5));
      live--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 30, 20]);
    expect(peak).toBe(3);
  });

  it("a project of another runtime goes to the pulumi CLI (its own language host), not the Node.js worker: its errors are the CLI's, exit 1", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-python-"));
    try {
      const project = path.join(dir, "project");
      fs.mkdirSync(project);
      fs.mkdirSync(path.join(dir, "backend"));
      fs.writeFileSync(
        path.join(project, "Pulumi.yaml"),
        "name: infra\nruntime:\n  name: python\n  options:\n    toolchain: pip\n",
      );
      // The real engine on PATH and a file backend with no stacks, as a user has them.
      const env = {
        PATH: [await ensureEngine(), process.env.PATH].join(path.delimiter),
        HOME: process.env.HOME,
        PULUMI_HOME: path.join(dir, "pulumi-home"),
        PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
        PULUMI_CONFIG_PASSPHRASE: "python-test-passphrase",
        PULUMI_SKIP_UPDATE_CHECK: "true",
      };
      for (const [argv, error] of [
        [["--cwd", project, "--stack", "prod", "--json", "-"], /no stack named 'prod' found/],
        [["--cwd", project, "--json", "-"], /no stacks of the project in /],
      ] as const) {
        const err: string[] = [];
        const out: string[] = [];
        const code = await driftCommand.run(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env });
        expect(err.join("\n")).not.toMatch(/only nodejs projects|runtime is "python"/);
        expect(code).toBe(1);
        expect(JSON.parse(out.join("\n")).stacks[0].error).toMatch(error);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("drift before any run", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-preflight-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const runIn = async (argv: string[], env: Record<string, string>) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(["drift", ...argv], { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env });
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  };

  it("no Pulumi.yaml in the project directory is bad usage: exit 64, no report, no made-up stack", async () => {
    const report = path.join(dir, "report.json");
    const r = await runIn(["--cwd", dir, "--json", report, "--markdown", path.join(dir, "r.md")], {
      PATH: process.env.PATH ?? "",
    });
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(
      new RegExp(
        `no Pulumi\\.yaml \\(or Pulumi\\.yml, Pulumi\\.json\\) in ${dir}: run in the Pulumi project directory or give it with --cwd DIR`,
      ),
    );
    expect(r.stderr).not.toMatch(/\(project stacks\)/);
    expect(r.stdout).toBe("");
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("no `pulumi` on PATH: exit 1 naming the program, how to install it and the script this package ships; no report", async () => {
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: infra\nruntime: nodejs\n");
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-empty-path-"));
    try {
      const r = await runIn(["--cwd", dir, "--stack", "dev", "--json", path.join(dir, "r.json")], { PATH: empty });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/the Pulumi CLI `pulumi` was not found on PATH, and this command runs it\. Install it/);
      expect(r.stderr).toMatch(/https:\/\/www\.pulumi\.com\/docs\/iac\/download-install\//);
      expect(r.stderr).toMatch(/scripts\/ensure-pulumi \| tail -n 1\):\$PATH"/);
      expect(r.stderr).not.toMatch(/code: -2|ENOENT/);
      expect(fs.existsSync(path.join(dir, "r.json"))).toBe(false);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("drift report redaction", () => {
  it("a passphrase equal to the project name leaves URNs and names readable, and is redacted where it stands alone", async () => {
    const project = "cdnstream-demo";
    const urn = `urn:pulumi:dev::${project}::pulumi-nodejs:dynamic:Resource$cdnstream:StreamStatus::${project}-event`;
    const files: Record<string, string> = {};
    const command = createDriftCommand({
      cwd: () => "/work",
      preflight: () => ({}),
      listStacks: async () => ["dev"],
      projectName: () => project,
      async checkStack(stack, cwd, _env, onOutput) {
        onOutput(`urn ${urn}; the passphrase is ${project}`);
        return {
          stack,
          cwd,
          drifted: true,
          resources: [
            {
              urn,
              name: `${project}-event`,
              type: "cdnstream:StreamStatus",
              deleted: false,
              properties: [{ property: "disabled", recorded: false, live: true }],
            },
          ],
          warnings: [`passphrase ${project} in a warning`],
        };
      },
      writeFile: (file, text) => void (files[file] = text),
    });
    const err: string[] = [];
    const out: string[] = [];
    const code = await command.run(["--stack", "dev", "--json", "r.json"], {
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      env: { PULUMI_CONFIG_PASSPHRASE: project },
    });
    expect(code).toBe(2);
    const report = JSON.parse(files["/work/r.json"]!);
    expect(report.stacks[0].resources[0].urn).toBe(urn);
    expect(report.stacks[0].resources[0].name).toBe(`${project}-event`);
    expect(report.stacks[0].warnings).toEqual(["passphrase [REDACTED] in a warning"]);
    expect(out.join("\n")).toContain(`${project}-event`);
    expect(out.join("\n")).not.toContain("[REDACTED]::");
    expect(err.join("\n")).toContain(`urn ${urn}; the passphrase is [REDACTED]`);
  });
});

describe("drift keeps every secret the run knows", () => {
  const env = {
    PULUMI_BACKEND_URL: "postgres://alice:S3cretPw@127.0.0.1:1/state",
    HTTPS_PROXY: "http://bob:Pr0xy%2FPw@proxy.internal:3128",
  };
  const CONFIG_SECRET = "cfg-secret-7a6b5c4d";
  const secrets = ["S3cretPw", "Pr0xy%2FPw", "Pr0xy/Pw", CONFIG_SECRET, "ftp-pass-9"];

  const run = async (deps: Partial<DriftDeps>, argv: string[]) => {
    const files: Record<string, string> = {};
    const out: string[] = [];
    const err: string[] = [];
    const command = createDriftCommand({
      cwd: () => "/work",
      preflight: () => ({}),
      listStacks: async () => ["dev"],
      projectName: () => "infra",
      checkStack: async () => stackResult("dev", "clean"),
      writeFile: (file, text) => void (files[file] = text),
      ...deps,
    });
    const code = await command.run([...argv, "--json", "r.json", "--markdown", "r.md"], {
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      env,
    });
    const all = [out.join("\n"), err.join("\n"), files["/work/r.json"], files["/work/r.md"]].join("\n");
    for (const secret of secrets) expect(all).not.toContain(secret);
    return { code, stderr: err.join("\n"), json: JSON.parse(files["/work/r.json"]!), markdown: files["/work/r.md"]! };
  };

  it("an unreachable backend: the CLI's error keeps its URL with the password redacted, in both reports and on stderr", async () => {
    const error =
      "error: unable to open bucket postgres://alice:S3cretPw@127.0.0.1:1/state: dial tcp 127.0.0.1:1: connect: connection refused (via http://bob:Pr0xy%2FPw@proxy.internal:3128, password Pr0xy/Pw; also ftp://carol:ftp-pass-9@files)";
    const r = await run(
      {
        listStacks: async () => {
          throw new Error(error);
        },
      },
      [],
    );
    expect(r.code).toBe(1);
    const redacted =
      "unable to open bucket postgres://alice:[REDACTED]@127.0.0.1:1/state: dial tcp 127.0.0.1:1: connect: connection refused (via http://bob:[REDACTED]@proxy.internal:3128, password [REDACTED]; also ftp://carol:[REDACTED]@files)";
    expect(r.json.stacks[0].error).toContain(redacted);
    expect(r.markdown).toContain(redacted);
    expect(r.stderr).toContain(`cdnstream drift: cannot list the project's stacks: error: ${redacted}`);
  });

  it("a stack's secret config, learnt as it is checked, is redacted from its output and both reports, even where a table cuts it", async () => {
    const r = await run(
      {
        async checkStack(stack, cwd, _env, onOutput, onSecrets) {
          onSecrets([CONFIG_SECRET]);
          onOutput(`the program says ${CONFIG_SECRET}`);
          return {
            stack,
            cwd,
            drifted: true,
            resources: [
              {
                urn: `urn:pulumi:dev::infra::cdnstream:StreamStatus::r`,
                name: "r",
                type: "cdnstream:StreamStatus",
                deleted: false,
                // The secret across the 120th character, where a table cell is cut.
                properties: [{ property: "note", recorded: `${"x".repeat(110)} ${CONFIG_SECRET}`, live: "y" }],
              },
            ],
            warnings: [`a warning naming ${CONFIG_SECRET}`],
          };
        },
      },
      ["--stack", "dev"],
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cdnstream drift: dev: the program says [REDACTED]");
    expect(r.json.stacks[0].warnings).toEqual(["a warning naming [REDACTED]"]);
    expect(r.json.stacks[0].resources[0].properties[0].recorded).toBe(`${"x".repeat(110)} [REDACTED]`);
    expect(r.markdown).toContain(`\`"${"x".repeat(110)} [REDA...\``);
    expect(r.markdown).not.toContain(CONFIG_SECRET.slice(0, 5));
  });

  it("every error the CLI prints, a bug's stack included, is redacted", async () => {
    const err: string[] = [];
    commands.boom = {
      summary: "fails",
      run: async (_argv, io) => {
        io.stderr("cdnstream boom: postgres://alice:S3cretPw@db/state is down");
        throw new Error("bug near http://bob:Pr0xy%2FPw@proxy.internal:3128");
      },
    };
    try {
      expect(await main(["boom"], { stdout: () => undefined, stderr: (t) => err.push(t), env })).toBe(1);
    } finally {
      delete commands.boom;
    }
    expect(err[0]).toBe("cdnstream boom: postgres://alice:[REDACTED]@db/state is down");
    expect(err[1]).toMatch(
      /^cdnstream: internal error: Error: bug near http:\/\/bob:\[REDACTED\]@proxy\.internal:3128\n\s+at /,
    );
    expect(err.join("\n")).not.toMatch(/S3cretPw|Pr0xy/);
  });
});
