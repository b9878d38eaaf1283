/**
 * The GitOps workflow's fleet drift jobs (examples/gitops/.github/workflows/cdnstream.yml): shipped
 * commented out, so the workflow runs as before; uncommented as its instructions say, they must be
 * a workflow GitHub accepts (actionlint) that fans the nightly check out over a matrix of shards
 * and merges their reports into one issue, deciding by the merge's exit code.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { run as runCommand } from "../../scripts/child";

const yaml: { load(text: string): any } = require("js-yaml");

const repoRoot = path.resolve(__dirname, "../..");
const workflowFile = path.join(repoRoot, "examples", "gitops", ".github", "workflows", "cdnstream.yml");

/** The workflow with the fleet jobs uncommented: "# " removed from `drift-shard:` to the block's end. */
function enabled(text: string): string {
  const lines = text.split("\n");
  const from = lines.indexOf("  # drift-shard:");
  const to = lines.findIndex((l) => l.startsWith("  # <<< drift over a fleet"));
  if (from < 0 || to < from) throw new Error(`no commented drift-shard job in ${workflowFile}`);
  return [
    ...lines.slice(0, from),
    ...lines.slice(from, to).map((l) => l.replace(/^ {2}# ?/, "  ")),
    ...lines.slice(to),
  ].join("\n");
}

async function actionlint(): Promise<string> {
  const run = await runCommand(path.join(repoRoot, "scripts", "ensure-actionlint"), [], {
    deadlineMs: 280_000,
    allowFailure: true,
  });
  const bin = run.stdout.trim().split("\n").pop() ?? "";
  if (run.status !== 0 || !bin || !fs.existsSync(bin))
    throw new Error(
      `actionlint is not available (scripts/ensure-actionlint exited ${run.status ?? run.signal}):\n${(run.stderr ?? "").trim()}\n` +
        "Install Go (https://go.dev/doc/install, or `apt-get install golang`) and run scripts/ensure-actionlint.",
    );
  return bin;
}

describe("the GitOps workflow's fleet drift jobs", () => {
  const text = fs.readFileSync(workflowFile, "utf8");
  const on = yaml.load(enabled(text));

  it("are disabled as shipped: the workflow has no such jobs until they are uncommented", () => {
    expect(Object.keys(yaml.load(text).jobs)).toEqual(["preview", "up", "drift", "reconcile"]);
    expect(Object.keys(on.jobs)).toEqual(["preview", "up", "drift", "reconcile", "drift-shard", "drift-fleet"]);
  });

  it("uncommented, pass actionlint", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-fleet-workflow-"));
    try {
      const file = path.join(dir, "cdnstream.yml");
      fs.writeFileSync(file, enabled(text));
      const r = await runCommand(await actionlint(), ["-no-color", "-oneline", file], {
        cwd: dir,
        deadlineMs: 60_000,
        allowFailure: true,
      });
      expect(r.stdout + r.stderr).toBe("");
      expect(r.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("check one shard per matrix job, n taken from the matrix, and hand every report to the merge", () => {
    const shard = on.jobs["drift-shard"];
    expect(shard.if).toBe(
      "github.event_name == 'schedule' || github.event_name == 'workflow_dispatch' && inputs.reconcile-run-id == ''",
    );
    expect(shard.strategy).toEqual({ "fail-fast": false, matrix: { shard: [1, 2, 3, 4] } });
    const check = shard.steps.find((s: any) => s.run?.includes("cdnstream drift"));
    expect(check.run).toContain('shard="${{ matrix.shard }}/${{ strategy.job-total }}"');
    expect(check.run).toContain('npx cdnstream drift --shard "$shard" --json "drift-${{ matrix.shard }}.json"');
    const upload = shard.steps.find((s: any) => s.uses?.startsWith("actions/upload-artifact@"));
    expect(upload.with).toMatchObject({ name: "drift-${{ matrix.shard }}", "if-no-files-found": "error" });
  });

  it("merge the shards' reports into one issue by the fleet's exit code, also after a failed shard", () => {
    const fleet = on.jobs["drift-fleet"];
    expect(fleet.needs).toBe("drift-shard");
    expect(fleet.if).toMatch(/^\$\{\{ !cancelled\(\) && /);
    const download = fleet.steps.find((s: any) => s.uses?.startsWith("actions/download-artifact@"));
    expect(download.with).toMatchObject({ pattern: "drift-*", "merge-multiple": true });
    const merge = fleet.steps.find((s: any) => s.id === "fleet");
    expect(merge.run).toContain("npx cdnstream drift merge shards/drift-*.json --markdown drift.md --json drift.json");
    expect(merge.run).toContain('[ "$code" -eq 0 ] || [ "$code" -eq 2 ]');
    const byCode = Object.fromEntries(
      fleet.steps.filter((s: any) => s.if?.startsWith("steps.fleet.outputs.code")).map((s: any) => [s.if, s.run]),
    );
    expect(byCode["steps.fleet.outputs.code == '2'"]).toMatch(
      /gh issue create --title "\$title" --body-file drift\.md/,
    );
    expect(byCode["steps.fleet.outputs.code == '0'"]).toMatch(/gh issue close/);
    expect(fleet.permissions.issues).toBe("write");
  });
});
