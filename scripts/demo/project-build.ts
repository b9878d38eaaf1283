/**
 * Getting a Pulumi project of this repository ready to run, the way a user's project is: the
 * package packed and unpacked into `node_modules/pulumi-cdnstream` (docs/design.md §1: examples
 * install a packed tarball, never a symlink), then the project's TypeScript compiled against
 * that installed package's types.
 *
 * Why the package must be a real copy under node_modules: a resource's serialized provider is
 * one `require("pulumi-cdnstream/provider/shims/<kind>")` line only when the shim module lives
 * inside node_modules; from the repository's own dist/ it would be serialized by value and
 * fail. And why each project has its own package.json: without one, the nearest package scope
 * is this repository's, so `require("pulumi-cdnstream")` would be a self-reference to dist/.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { CommandFailed, run, runNpm } from "../child";

/** The repository root: the nearest ancestor holding both package.json and the demo's Pulumi.yaml (from scripts/ or dist/scripts/). */
export const repoRoot = ((): string => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(path.join(dir, "Pulumi.yaml"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no repository root above ${__dirname}`);
  }
})();

/** Where projects below the repository resolve `pulumi-cdnstream` from. */
export const installedPackageDir = path.join(repoRoot, "node_modules", "pulumi-cdnstream");

/** Files of the built package whose installed copy must be byte-identical. */
function packageFiles(root: string): string[] {
  // The package's own list of what it ships (package.json `files`), so a new folder is never missed.
  const shipped: string[] = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).files;
  const built = shipped
    .filter((entry) => entry.startsWith("dist/"))
    .flatMap((dir) =>
      fs.readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" }).map((f) => path.join(dir, f)),
    )
    .filter((f) => /\.(js|d\.ts)$/.test(f));
  return ["package.json", "emulator/fixtures/default.json", "scripts/ensure-pulumi", ...built];
}

/** True when node_modules/pulumi-cdnstream holds exactly the files dist/ holds now. */
function installedPackageIsCurrent(): boolean {
  try {
    return packageFiles(repoRoot).every((f) =>
      fs.readFileSync(path.join(repoRoot, f)).equals(fs.readFileSync(path.join(installedPackageDir, f))),
    );
  } catch {
    return false;
  }
}

/**
 * `npm pack`s the built package and unpacks it into node_modules/pulumi-cdnstream, unless the
 * installed copy is already current. The new copy is unpacked beside the old one and renamed
 * into place, so a program loading the package meanwhile never sees a half-written directory.
 * Returns whether it installed.
 */
export async function installPackedPackage(): Promise<boolean> {
  if (!fs.existsSync(path.join(repoRoot, "dist", "sdk", "index.js")))
    throw new Error("dist/ is missing: run `npm run build` first");
  if (installedPackageIsCurrent()) return false;
  const scratch = path.join(repoRoot, "node_modules", `.pulumi-cdnstream-${crypto.randomBytes(4).toString("hex")}`);
  fs.mkdirSync(path.join(scratch, "pkg"), { recursive: true });
  try {
    // A pack of dist/: a few seconds (a hang is tried once more).
    const [packed] = JSON.parse(
      (
        await runNpm(["pack", "--json", "--silent", "--pack-destination", scratch], {
          cwd: repoRoot,
          deadlineMs: 3 * 60_000,
        })
      ).stdout,
    );
    await run(
      "tar",
      ["-xzf", path.join(scratch, packed.filename), "-C", path.join(scratch, "pkg"), "--strip-components=1"],
      {
        deadlineMs: 2 * 60_000,
      },
    );
    const old = `${scratch}-old`;
    if (fs.existsSync(installedPackageDir)) fs.renameSync(installedPackageDir, old);
    fs.renameSync(path.join(scratch, "pkg"), installedPackageDir);
    fs.rmSync(old, { recursive: true, force: true });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return true;
}

/**
 * Compiles a project with its own tsconfig.json (`tsc -p`), type-checking it against the
 * installed package. Output goes to a scratch directory first and each file is renamed into the
 * project's bin/, so a concurrent run of the same program (another test, a drift check) reads
 * either the old or the new file, never a truncated one. Throws with tsc's diagnostics.
 */
export async function compileProject(projectDir: string): Promise<void> {
  const tsc = path.join(path.dirname(require.resolve("typescript/package.json", { paths: [repoRoot] })), "bin", "tsc");
  const scratch = path.join(projectDir, `.bin-${crypto.randomBytes(4).toString("hex")}`);
  try {
    try {
      // One small program against the package's declarations: seconds.
      await run(process.execPath, [tsc, "-p", projectDir, "--outDir", scratch], { deadlineMs: 3 * 60_000 });
    } catch (e) {
      if (!(e instanceof CommandFailed)) throw e;
      throw new Error(`tsc -p ${path.relative(repoRoot, projectDir) || "."} failed:\n${e.result.output.trim()}`);
    }
    for (const file of fs.readdirSync(scratch, { recursive: true, encoding: "utf8" })) {
      const target = path.join(projectDir, "bin", file);
      if (fs.statSync(path.join(scratch, file)).isDirectory()) continue;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.renameSync(path.join(scratch, file), target);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
