/**
 * Drift over a fleet: which stacks `drift --shard i/n` checks, what its report records, and how
 * `drift merge` combines the shards' reports, refuses an incomplete or mixed set, and exits, over
 * a fake engine (the real one is test/e2e/drift-fleet.test.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../provider/cli";
import type { Io } from "../../provider/cli/command";
import { createDriftCommand } from "../../provider/cli/drift";
import {
  createMergeCommand,
  fullyQualifiedName,
  mergeReports,
  parseShard,
  shardOf,
  stacksInShard,
} from "../../provider/cli/drift-fleet";
import type { DriftReport, Shard, StackReport } from "../../provider/cli/drift-report";
import { stackResult as stackOf, type StackOutcome } from "../helpers/drift-report";

type Kind = StackOutcome;

const stackResult = (stack: string, kind: StackOutcome): StackReport =>
  stackOf(stack, kind, { project: "infra", error: `error: the API refused the request for ${stack}` });

/** `cdnstream drift` over a fake engine whose project `infra` has the stacks of `kinds`. */
function harness(kinds: Record<string, Kind>) {
  const files: Record<string, string> = {};
  const checked: string[] = [];
  let preflights = 0;
  const command = createDriftCommand({
    cwd: () => "/work",
    listStacks: async () => Object.keys(kinds),
    projectName: () => "infra",
    async checkStack(stack) {
      checked.push(stack);
      return stackResult(stack, kinds[stack]!);
    },
    writeFile: (file, text) => void (files[file] = text),
    preflight: () => {
      preflights++;
      return {};
    },
  });
  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: Io = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} };
    const code = await command.run(argv, io);
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  };
  return { run, files, checked, preflights: () => preflights };
}

const names = (count: number, prefix = "stack") =>
  Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(3, "0")}`);

describe("shard assignment", () => {
  it("qualifies a stack's name with the project and the organization the name carries", () => {
    expect(fullyQualifiedName("prod", "infra")).toBe("infra/prod");
    expect(fullyQualifiedName("acme/prod", "infra")).toBe("acme/infra/prod");
    expect(fullyQualifiedName("acme/infra/prod", "infra")).toBe("acme/infra/prod");
    // The same stack named with or without its project falls in the same shard.
    expect(shardOf("acme/prod", "infra", 7)).toBe(shardOf("acme/infra/prod", "infra", 7));
  });

  it("is fixed by the hash of the name: these stacks keep these shards in every release", () => {
    // Changing the function would move stacks between the jobs of every existing matrix.
    expect(["prod", "staging", "dev"].map((s) => shardOf(s, "infra", 4))).toEqual([2, 1, 4]);
  });

  it.each([1, 2, 4, 7])("puts every stack in exactly one of %i shards", (count) => {
    const all = names(200);
    const shards = Array.from({ length: count }, (_, i) => stacksInShard(all, "infra", { index: i + 1, count }));
    expect(shards.flat().sort()).toEqual(all);
    // A hash spreads them: no shard is empty or holds more than twice its share.
    for (const shard of shards) {
      expect(shard.length).toBeGreaterThan(0);
      expect(shard.length).toBeLessThanOrEqual((2 * all.length) / count);
    }
  });

  it("keeps each stack in its shard as stacks are added, and does not depend on the listing's order", () => {
    const before = names(50);
    const after = [...names(30, "new"), ...before.slice().reverse(), ...names(20, "zz")];
    for (const stack of before) expect(shardOf(stack, "infra", 4)).toBe(shardOf(stack, "infra", 4));
    const shard: Shard = { index: 3, count: 4 };
    const kept = stacksInShard(after, "infra", shard).filter((s) => before.includes(s));
    expect(kept.sort()).toEqual(stacksInShard(before, "infra", shard).sort());
  });

  it("parses i/n and refuses anything else", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
    expect(parseShard("1/1")).toEqual({ index: 1, count: 1 });
    for (const bad of ["0/4", "5/4", "x/y", "3", "1/0", "-1/4", "1/4/2", "", "2 / 4"])
      expect(() => parseShard(bad)).toThrow(`--shard takes i/n`);
  });
});

describe("drift --shard", () => {
  it.each(["0/4", "5/4", "x/y", "4/3", "1/0", "2"])(
    "--shard %s is bad usage (exit 64) naming the option, the rule and an example, before anything runs",
    async (value) => {
      const h = harness({ a: "clean" });
      const r = await h.run(["--shard", value, "--json", "r.json"]);
      expect(r.code).toBe(64);
      expect(r.stderr).toContain(
        `--shard takes i/n: shard i of n, whole numbers with 1 <= i <= n (e.g. --shard 2/4 for the second of four), got "${value}"`,
      );
      expect(r.stderr).toMatch(/Run `cdnstream drift --help` for usage/);
      expect(h.preflights()).toBe(0);
      expect(h.checked).toEqual([]);
      expect(h.files).toEqual({});
    },
  );

  it("checks only its shard's stacks; the shards together check each stack once; the report records its shard", async () => {
    const kinds: Record<string, Kind> = Object.fromEntries(
      names(20).map((s, i) => [s, i % 5 === 0 ? "drift" : "clean"]),
    );
    const seen: string[] = [];
    for (let index = 1; index <= 4; index++) {
      const h = harness(kinds);
      const r = await h.run(["--shard", `${index}/4`, "--json", "r.json", "--markdown", "r.md"]);
      const expected = stacksInShard(Object.keys(kinds), "infra", { index, count: 4 });
      expect(h.checked.sort()).toEqual(expected.sort());
      expect(r.stderr).toContain(`shard ${index}/4: ${expected.length} of the 20 stacks`);
      const report = JSON.parse(h.files["/work/r.json"]!);
      expect(report.shard).toEqual({ index, count: 4 });
      expect(report.project).toBe("infra");
      expect(report.stacks.map((s: StackReport) => s.stack).sort()).toEqual(expected.sort());
      expect(h.files["/work/r.md"]).toContain(`Shard ${index} of 4 of the project's stacks (\`--shard ${index}/4\`).`);
      expect(r.code).toBe(report.drifted ? 2 : 0);
      seen.push(...h.checked);
    }
    expect(seen.sort()).toEqual(Object.keys(kinds));
  });

  it("a shard that gets no stack checks none: exit 0, an empty report of that shard", async () => {
    const kinds = { prod: "clean", staging: "drift" } as const;
    // prod and staging fall in shards 2 and 1 of 4: shard 3 is empty.
    const h = harness(kinds);
    const r = await h.run(["--shard", "3/4", "--json", "-"]);
    expect(r.code).toBe(0);
    expect(h.checked).toEqual([]);
    expect(JSON.parse(r.stdout)).toEqual({
      stacks: [],
      drifted: false,
      shard: { index: 3, count: 4 },
      project: "infra",
    });
    expect(r.stderr).toContain("shard 3/4: 0 of the 2 stacks");
  });

  it("--help documents --shard and merge", async () => {
    const out: string[] = [];
    await main(["drift", "--help"], { stdout: (t) => out.push(t), stderr: () => undefined, env: {} });
    expect(out.join("\n")).toMatch(/--shard I\/N +check only shard I of N/);
    expect(out.join("\n")).toMatch(/cdnstream drift merge REPORT\.json\.\.\./);
    const merge: string[] = [];
    expect(
      await main(["drift", "merge", "-h"], { stdout: (t) => merge.push(t), stderr: () => undefined, env: {} }),
    ).toBe(0);
    expect(merge.join("\n")).toMatch(
      /^Usage: cdnstream drift merge REPORT\.json\.\.\. \[--json FILE\] \[--markdown FILE\]/,
    );
    expect(merge.join("\n")).toMatch(/1 when any stack could not\s+be checked \(even beside drift elsewhere/);
  });
});

const shardReport = (
  index: number,
  count: number,
  stacks: Record<string, Kind>,
  project?: string,
): DriftReport & { shard: Shard } => {
  const list = Object.entries(stacks).map(([s, k]) => stackResult(s, k));
  return {
    stacks: list,
    drifted: list.some((s) => s.drifted),
    shard: { index, count },
    ...(project ? { project } : {}),
  };
};

describe("drift merge", () => {
  const given = (...reports: (DriftReport & { shard: Shard })[]) =>
    reports.map((report) => ({ file: `drift-${report.shard.index}.json`, report }));

  it("combines every shard into one report, stacks by name, recording the shard count", () => {
    const merged = mergeReports(
      given(shardReport(2, 3, { c: "clean", a: "drift" }), shardReport(3, 3, {}), shardReport(1, 3, { b: "clean" })),
    );
    expect(merged).toEqual({
      stacks: [stackResult("a", "drift"), stackResult("b", "clean"), stackResult("c", "clean")],
      drifted: true,
      shards: 3,
    });
    // Shards naming their project make a report naming it; one written before they did is taken with them.
    expect(
      mergeReports(given(shardReport(1, 2, { a: "clean" }, "infra"), shardReport(2, 2, { b: "clean" }))).project,
    ).toBe("infra");
  });

  it.each([
    [
      "a missing shard",
      () => given(shardReport(1, 4, { a: "clean" }), shardReport(2, 4, {}), shardReport(4, 4, {})),
      "shard 3/4 missing: its stacks were not checked, so the fleet cannot be reported clean; give the report of every shard from 1 to 4",
    ],
    ["two missing shards", () => given(shardReport(2, 4, {})), "shards 1/4, 3/4, 4/4 missing"],
    [
      "a shard given twice",
      () => [
        ...given(shardReport(1, 2, { a: "clean" }), shardReport(2, 2, {})),
        { file: "again.json", report: shardReport(1, 2, { a: "clean" }) },
      ],
      "shard 1/2 is given twice (drift-1.json and again.json): give each shard's report once",
    ],
    [
      "shards of different counts",
      () => given(shardReport(1, 2, {}), shardReport(2, 3, {})),
      "the reports are of different shard counts (drift-1.json is shard 1/2, drift-2.json is shard 2/3): merge the reports of one run, every shard made with the same n",
    ],
    ["no report", () => [], "merge needs the JSON report of every shard"],
    [
      "a stack in two shards",
      () => given(shardReport(1, 2, { a: "clean", b: "clean" }), shardReport(2, 2, { b: "drift" })),
      "stack b is in two shards (drift-1.json and drift-2.json), and a stack is in one shard: merge the reports of one run of `cdnstream drift --shard i/n` over one project",
    ],
    [
      "shards of different projects",
      () => given(shardReport(1, 2, { a: "clean" }, "infra"), shardReport(2, 2, { b: "clean" }, "edge")),
      "the reports are of different projects (drift-1.json is of infra, drift-2.json is of edge): merge the shards of one project's run, and each project's apart",
    ],
  ])("refuses %s", (_what, reports, message) => {
    expect(() => mergeReports(reports())).toThrow(message);
  });

  // The fleet's exit code is the one drift gives for the same stacks in one run: 1 before 2 before 0.
  it.each([
    [{ a: "clean", b: "clean" }, { c: "clean" }, 0],
    [{ a: "clean", b: "drift" }, { c: "clean" }, 2],
    [{ a: "drift", b: "clean" }, { c: "error" }, 1],
    [{ a: "clean" }, { c: "error" }, 1],
  ] as const)("exits as one run over the same stacks would: %j + %j -> %i", async (one, two, code) => {
    const files: Record<string, string> = {
      "/r/drift-1.json": JSON.stringify(shardReport(1, 2, one)),
      "/r/drift-2.json": JSON.stringify(shardReport(2, 2, two)),
    };
    const merge = createMergeCommand({
      cwd: () => "/r",
      readReport: (f) => JSON.parse(files[f]!),
      writeFile: (f, t) => void (files[f] = t),
    });
    const out: string[] = [];
    const exit = await merge.run(["drift-1.json", "drift-2.json", "--json", "fleet.json", "--markdown", "fleet.md"], {
      stdout: (t) => out.push(t),
      stderr: () => undefined,
      env: {},
    });
    expect(exit).toBe(code);
    const single = harness({ ...one, ...two });
    const run = await single.run(["--json", "-"]);
    expect(run.code).toBe(code);
    // The merged report is the single run's, plus the shard count.
    expect(JSON.parse(files["/r/fleet.json"]!)).toEqual({ ...JSON.parse(run.stdout), shards: 2 });
    expect(files["/r/fleet.md"]).toContain("Merged from the reports of all 2 shards.");
    expect(out.join("\n")).toBe(files["/r/fleet.md"]);
  });

  describe("from files", () => {
    let dir: string;
    beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-merge-"))));
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    const merge = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(["drift", "merge", ...argv], {
        stdout: (t) => out.push(t),
        stderr: (t) => err.push(t),
        env: {},
      });
      return { code, stdout: out.join("\n"), stderr: err.join("\n") };
    };
    const write = (name: string, content: unknown) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
      return file;
    };

    it("writes the merged JSON and markdown and puts the JSON on stdout with --json -", async () => {
      const one = write("drift-1.json", shardReport(1, 2, { b: "drift" }));
      const two = write("drift-2.json", shardReport(2, 2, { a: "clean" }));
      const md = path.join(dir, "fleet.md");
      const r = await merge(one, two, "--json", "-", "--markdown", md);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ drifted: true, shards: 2 });
      expect(JSON.parse(r.stdout).stacks.map((s: StackReport) => s.stack)).toEqual(["a", "b"]);
      expect(fs.readFileSync(md, "utf8")).toMatch(
        /^## Drift detected\n\n2 stacks checked: 1 drifted, 1 clean\.\n\nMerged from the reports of all 2 shards\.\n\n### Stack `a`: No drift\n/,
      );
    });

    it.each([
      [
        "a file that is not there",
        () => path.join(dir, "nope.json"),
        /cannot read .*nope\.json \(ENOENT\): give the JSON report/,
      ],
      [
        "the markdown report",
        () => write("drift.md", "## No drift\n"),
        /drift\.md is not JSON: give the JSON report .* not the markdown/,
      ],
      [
        "JSON that is not a report",
        () => write("x.json", { hello: 1 }),
        /x\.json is not a drift report: it needs "stacks"/,
      ],
      [
        "a report of a run without --shard",
        () => write("all.json", { stacks: [], drifted: false }),
        /all\.json covers no shard \(it was written without --shard, or is a merged report\)/,
      ],
      [
        'a report with "shard": null',
        () => write("null.json", { stacks: [], drifted: false, shard: null }),
        /null\.json covers no shard \(it was written without --shard, or is a merged report\)/,
      ],
      [
        "a shard that is not i and n",
        () => write("text.json", { stacks: [], drifted: false, shard: "1/2" }),
        /text\.json covers no shard/,
      ],
      [
        "a project that is not a name",
        () => write("p.json", { stacks: [], drifted: false, shard: { index: 1, count: 1 }, project: 7 }),
        /p\.json is not a drift report: its "project" must be the project's name/,
      ],
      [
        "a merged report",
        () => write("fleet.json", { stacks: [], drifted: false, shards: 2 }),
        /fleet\.json covers no shard/,
      ],
    ])("%s is bad usage (exit 64); nothing is written", async (_what, file, message) => {
      const out = path.join(dir, "out.json");
      const r = await merge(file(), "--json", out);
      expect(r.code).toBe(64);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/Run `cdnstream drift merge --help` for usage/);
      expect(r.stdout).toBe("");
      expect(fs.existsSync(out)).toBe(false);
    });

    it("a missing shard is bad usage (exit 64), not a clean fleet", async () => {
      const one = write("drift-1.json", shardReport(1, 3, { a: "clean" }));
      const three = write("drift-3.json", shardReport(3, 3, {}));
      const r = await merge(one, three, "--markdown", path.join(dir, "fleet.md"));
      expect(r.code).toBe(64);
      expect(r.stderr).toMatch(
        /shard 2\/3 missing: its stacks were not checked, so the fleet cannot be reported clean/,
      );
      expect(fs.existsSync(path.join(dir, "fleet.md"))).toBe(false);
    });

    it("shards of two projects, or a stack in two shards, are bad usage (exit 64); nothing is written", async () => {
      const one = write("drift-1.json", shardReport(1, 2, { a: "clean" }, "infra"));
      const other = write("drift-2.json", shardReport(2, 2, { b: "clean" }, "edge"));
      const again = write("again-2.json", shardReport(2, 2, { a: "drift" }, "infra"));
      for (const [file, message] of [
        [other, /the reports are of different projects \(.*drift-1\.json is of infra, .*drift-2\.json is of edge\)/],
        [again, /stack a is in two shards \(.*drift-1\.json and .*again-2\.json\), and a stack is in one shard/],
      ] as const) {
        const r = await merge(one, file, "--json", path.join(dir, "fleet.json"));
        expect(r.code).toBe(64);
        expect(r.stderr).toMatch(message);
        expect(r.stderr).toMatch(/Run `cdnstream drift merge --help` for usage/);
        expect(fs.existsSync(path.join(dir, "fleet.json"))).toBe(false);
      }
    });

    it("an unknown option is bad usage", async () => {
      const r = await merge("--shard", "1/2");
      expect(r.code).toBe(64);
      expect(r.stderr).toMatch(/Unknown option '--shard'/);
    });
  });
});
