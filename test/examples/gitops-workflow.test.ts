/**
 * The GitOps example's GitHub Actions workflow (examples/gitops/.github/workflows/cdnstream.yml),
 * checked as GitHub would read it: actionlint (built by scripts/ensure-actionlint from the Go
 * module proxy) finds no problem, and the jobs follow current conventions: Node 24, actions on
 * their Node 24 majors, pulumi/actions for preview (posting on the pull request itself) and up,
 * a nightly `cdnstream drift` whose exit codes decide the drift issue and whose report is kept, and
 * a `reconcile` job, run by hand after an approval, on that report. The workflow's drift
 * command itself runs against the emulator in test/e2e/examples.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { run as runCommand } from "../../scripts/child";

const yaml: { load(text: string): any } = require("js-yaml");

const repoRoot = path.resolve(__dirname, "../..");
const workflowFile = path.join(repoRoot, "examples", "gitops", ".github", "workflows", "cdnstream.yml");

/** The actionlint binary, from scripts/ensure-actionlint; fails (never skips) saying how to get it. */
async function actionlint(): Promise<string> {
  const run = await runCommand(path.join(repoRoot, "scripts", "ensure-actionlint"), [], {
    deadlineMs: 280_000,
    allowFailure: true,
  });
  const bin = run.stdout.trim().split("\n").pop() ?? "";
  if (run.status !== 0 || !bin || !fs.existsSync(bin)) {
    throw new Error(
      `actionlint is not available (scripts/ensure-actionlint exited ${run.status ?? run.signal}):\n${(run.stderr ?? "").trim()}\n` +
        "Install Go (https://go.dev/doc/install, or `apt-get install golang`) and run scripts/ensure-actionlint, which builds " +
        "`go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12` into a cache outside the repository; or put actionlint 1.7.12 on PATH.",
    );
  }
  return bin;
}

const lint = (bin: string, file: string) =>
  runCommand(bin, ["-no-color", "-oneline", file], { cwd: path.dirname(file), deadlineMs: 60_000, allowFailure: true });

describe("the GitOps example's workflow", () => {
  const text = fs.readFileSync(workflowFile, "utf8");
  const workflow = yaml.load(text);
  const steps = (job: string): { uses?: string; run?: string; with?: Record<string, unknown>; if?: string }[] =>
    workflow.jobs[job].steps;
  const uses = (job: string, action: string) => steps(job).filter((s) => s.uses?.split("@")[0] === action);

  it("passes actionlint, which does find a broken copy", async () => {
    const bin = await actionlint();
    const clean = await lint(bin, workflowFile);
    expect(clean.stdout + clean.stderr).toBe("");
    expect(clean.status).toBe(0);

    // The check is live: an expression with a double-quoted string and an unknown job key are refused.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-workflow-"));
    try {
      const broken = path.join(dir, "broken.yml");
      fs.writeFileSync(
        broken,
        text
          .replace("if: github.event_name == 'push'", 'if: github.event_name == "push"')
          .replace("runs-on: ubuntu-latest\n    environment", "runs-on: ubuntu-latest\n    enviroment"),
      );
      const r = await lint(bin, broken);
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/only single quotes are available for string delimiter/);
      expect(r.stdout).toMatch(/unexpected key "enviroment"/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs on Node 24 and on the Node 24 majors of the actions it uses", () => {
    expect(String(workflow.env.NODE_VERSION)).toBe("26");
    const artefacts: Record<string, string[]> = {
      drift: ["actions/upload-artifact@v6"],
      reconcile: ["actions/download-artifact@v7"],
    };
    for (const job of ["preview", "up", "drift", "reconcile"]) {
      const [setup] = uses(job, "actions/setup-node");
      expect(setup?.with?.["node-version"]).toBe("${{ env.NODE_VERSION }}");
      expect(
        steps(job)
          .map((s) => s.uses)
          .filter(Boolean),
      ).toEqual(["actions/checkout@v6", "actions/setup-node@v6", "pulumi/actions@v7", ...(artefacts[job] ?? [])]);
      expect(steps(job).some((s) => s.run === "npm ci")).toBe(true);
      // TypeScript runs as it is: no build step.
      expect(steps(job).some((s) => /npm run build|tsc/.test(s.run ?? ""))).toBe(false);
    }
  });

  it("pulumi/actions previews pull requests, posting the preview itself, and runs up on main", () => {
    expect(workflow.jobs.preview.if).toBe("github.event_name == 'pull_request'");
    expect(uses("preview", "pulumi/actions")[0]!.with).toMatchObject({
      command: "preview",
      "stack-name": "${{ env.STACK }}",
      "work-dir": "${{ env.PROJECT_DIR }}",
      "comment-on-pr": true,
    });
    expect(workflow.jobs.preview.permissions["pull-requests"]).toBe("write");
    // No hand-written comment step where the action does the job.
    expect(text).not.toMatch(/gh pr comment|--comment preview|pipeline\.js/);
    expect(workflow.jobs.up.if).toBe("github.event_name == 'push'");
    expect(uses("up", "pulumi/actions")[0]!.with).toMatchObject({
      command: "up",
      "stack-name": "${{ env.STACK }}",
      "work-dir": "${{ env.PROJECT_DIR }}",
    });
  });

  it("checks drift nightly with cdnstream drift, opening, updating or closing an issue by its exit code", () => {
    expect(workflow.on.schedule).toEqual([{ cron: "17 5 * * *" }]);
    expect(workflow.jobs.drift.if).toBe(
      "github.event_name == 'schedule' || github.event_name == 'workflow_dispatch' && inputs.reconcile-run-id == ''",
    );
    // The action only installs the CLI here (no command); cdnstream drift drives it.
    expect(uses("drift", "pulumi/actions")[0]!.with).toBeUndefined();
    const check = steps("drift").find((s) => s.run?.includes("cdnstream drift"))!;
    expect(check.run).toContain('npx cdnstream drift --stack "$STACK" --markdown drift.md --json drift.json');
    // 0 and 2 are answers; 1 (could not check) and 64 (bad usage) fail the job.
    expect(check.run).toContain('[ "$code" -eq 0 ] || [ "$code" -eq 2 ]');
    const byCode = Object.fromEntries(
      steps("drift")
        .filter((s) => s.if?.startsWith("steps.check.outputs.code"))
        .map((s) => [s.if, s.run]),
    );
    expect(byCode["steps.check.outputs.code == '2'"]).toMatch(
      /gh issue create --title "\$title" --body-file drift\.md/,
    );
    expect(byCode["steps.check.outputs.code == '0'"]).toMatch(/gh issue close/);
    expect(workflow.jobs.drift.permissions.issues).toBe("write");
    // The report a reviewer reads is kept for a reconcile.
    expect(uses("drift", "actions/upload-artifact")[0]).toMatchObject({
      if: "steps.check.outputs.code == '2'",
      with: { name: "drift-report", path: "${{ env.PROJECT_DIR }}/drift.json", "if-no-files-found": "error" },
    });
  });

  it("reconciles by hand, after an approval, exactly the report of the drift run it is given", () => {
    expect(workflow.on.workflow_dispatch.inputs["reconcile-run-id"]).toMatchObject({ required: false, type: "string" });
    const job = workflow.jobs.reconcile;
    expect(job.if).toBe("github.event_name == 'workflow_dispatch' && inputs.reconcile-run-id != ''");
    // Required reviewers of this environment hold the job until one approves.
    expect(job.environment).toBe("drift-reconcile");
    // Another run's artefact: by its run id, with a token allowed to read actions.
    expect(job.permissions).toEqual({ contents: "read", actions: "read", issues: "write" });
    expect(uses("reconcile", "actions/download-artifact")[0]!.with).toEqual({
      name: "drift-report",
      "run-id": "${{ inputs.reconcile-run-id }}",
      "github-token": "${{ github.token }}",
      path: "${{ env.PROJECT_DIR }}/reviewed",
    });
    const run = steps("reconcile").find((s) => s.run?.includes("cdnstream drift reconcile"))!;
    expect(run.run).toContain(
      "npx cdnstream drift reconcile reviewed/drift.json --cwd . --json reconciled.json --markdown reconciled.md",
    );
    expect(run.run).toContain('exit "$code"');
    // Never at once with an up or a drift check: the workflow's one concurrency group.
    expect(workflow.concurrency.group).toMatch(/'main'/);
  });
});
