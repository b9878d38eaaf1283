/**
 * `npm run bench`: what the provider adds to what the Pulumi engine itself costs, and its API
 * calls (docs/benchmarks.md); or with `--drift-fleet`, one `cdnstream drift` run over a fleet
 * (./drift-fleet.ts). stdout gets the markdown report only; progress goes to stderr.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseOptions, UsageError, type Io as CommandIo } from "../../provider/cli/command";
import {
  benchRoot,
  ENGINE_PROFILE_DIR_VARIABLE,
  ensureEngineOnPath,
  installPackedPackage,
  pulumiFacts,
} from "./engine";
import { driftFleetBench, driftFleetMarkdown, type DriftFleetReport, type FleetSize } from "./drift-fleet";
import { MIXES, writeFloorPackage, type Mix } from "./mix";
import { writeReadFloorPackage } from "./read-floor";
import { loadAverage, machine, markdown, sizesReport, type Report } from "./report";

const USAGE = `usage: npm run bench [-- --sizes 50,200,500] [--mix cycle|account] [--json FILE] [--repeat 3] [--client-seconds 3]
                  [--host-starts 10] [--concurrency 32] [--no-warmup] [--skip-checkpoints] [--profile-host DIR] [--profile-engine DIR] [--keep]
                  [--anchor-up-to N]
  --sizes           stack sizes N (default 50,200,500)
  --mix             the stacks' shape: cycle (default: each kind in turn, one object per resource) or
                    account (like a real account: per 49 resources, 4 zones of 8 AdBreakSlots, 10
                    StreamStatus, 2 TimeshiftStreams, the settings kinds; API calls against objects)
  --json FILE       also write the report as JSON
  --repeat          cycles of up, preview, refresh, destroy per side; medians are reported (default 3)
  --client-seconds  seconds per client throughput run (8 runs, ABBA BAAB; default 3)
  --host-starts     fresh provider hosts per side whose first call is measured, and fresh programs
                    per side whose import of the package is (default 10)
  --concurrency     requests in flight in the client runs (default 32)
  --no-warmup       skip the untimed N=2 round that warms the engine, the disk cache and the JIT
  --skip-checkpoints  run both sides with PULUMI_SKIP_CHECKPOINTS=true: the engine then writes the
                    state once per operation instead of after every step (an experiment that
                    separates the engine's state writes, which grow with state size, from the rest)
  --profile-host DIR  write a V8 CPU profile (.cpuprofile, for Chrome DevTools) of every dynamic-provider
                    host of both sides into DIR (scripts/bench/profile-host.ts, preloaded through
                    NODE_OPTIONS; profiling slows the hosts, so time ratios of such a run are not comparable)
  --profile-engine DIR  write the Pulumi CLI's own profiles (pulumi --profiling: Go CPU and heap profiles and
                    an execution trace, for go tool pprof) of every up, preview, refresh and destroy of every
                    side into DIR, named bench-<side>-n<N>-<operation>.<pid>.cpu (.mem, .trace); the engine
                    is where a provider's outputs are serialized at every checkpoint
  --anchor-up-to N  the hand-written anchor runs only at sizes up to N (default: every size): its up and
                    destroy grow fastest, and at N=2000 would take most of the run
  --keep            keep the run's directory under .tmp/bench/ (backend, projects, fixtures)

  --drift-fleet SxR[,SxR...]  instead of the sections above: one \`cdnstream drift\` run over S stacks of
                    R resources each, per size and concurrency: wall time, CPU, peak memory, API calls
                    (e.g. 20x100; opt-in: a 20x100 run takes minutes)
  --drift-concurrency  the concurrencies (\`drift --concurrency\`) of --drift-fleet (default 1,2,4)`;

function options(argv: string[]) {
  const { values } = parseOptions({
    args: argv,
    options: {
      sizes: { type: "string", default: "50,200,500" },
      mix: { type: "string", default: "cycle" },
      json: { type: "string" },
      repeat: { type: "string", default: "3" },
      "skip-checkpoints": { type: "boolean", default: false },
      "profile-host": { type: "string" },
      "profile-engine": { type: "string" },
      "client-seconds": { type: "string", default: "3" },
      "host-starts": { type: "string", default: "10" },
      concurrency: { type: "string", default: "32" },
      "no-warmup": { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
      "anchor-up-to": { type: "string" },
      "drift-fleet": { type: "string" },
      "drift-concurrency": { type: "string", default: "1,2,4" },
    },
  });
  const sizes = values.sizes.split(",").map((s) => Number(s.trim()));
  if (!sizes.length || sizes.some((n) => !Number.isInteger(n) || n < 1))
    throw new UsageError(`--sizes must be positive integers separated by commas (got ${values.sizes})`);
  const clientSeconds = Number(values["client-seconds"]);
  if (!(clientSeconds > 0))
    throw new UsageError(`--client-seconds must be a positive number (got ${values["client-seconds"]})`);
  const positiveInteger = (option: "concurrency" | "host-starts" | "repeat") => {
    const value = Number(values[option]);
    if (!Number.isInteger(value) || value < 1)
      throw new UsageError(`--${option} must be a positive integer (got ${values[option]})`);
    return value;
  };
  const concurrency = positiveInteger("concurrency");
  const hostStarts = positiveInteger("host-starts");
  const repeat = positiveInteger("repeat");
  const anchorUpTo = values["anchor-up-to"] === undefined ? undefined : Number(values["anchor-up-to"]);
  if (anchorUpTo !== undefined && !(Number.isInteger(anchorUpTo) && anchorUpTo >= 1))
    throw new UsageError(`--anchor-up-to must be a positive integer (got ${values["anchor-up-to"]})`);
  const engineEnv: Record<string, string> = values["skip-checkpoints"] ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {};
  const profileDir = values["profile-host"];
  if (profileDir) {
    fs.mkdirSync(profileDir, { recursive: true });
    // The engine's environment reaches the hosts; the preload profiles those and nothing else.
    engineEnv.NODE_OPTIONS = `--require ${path.join(__dirname, "profile-host.js")}`;
    engineEnv.CDNSTREAM_BENCH_PROFILE_DIR = path.resolve(profileDir);
  }
  const engineProfileDir = values["profile-engine"];
  if (engineProfileDir) {
    fs.mkdirSync(engineProfileDir, { recursive: true });
    // Set for the stacks' engine runs only: the launcher that ensureEngineOnPath puts first profiles those.
    engineEnv[ENGINE_PROFILE_DIR_VARIABLE] = path.resolve(engineProfileDir);
  }
  if (!(MIXES as readonly string[]).includes(values.mix))
    throw new UsageError(`--mix must be one of ${MIXES.join(", ")} (got ${values.mix})`);
  let driftFleet: { sizes: FleetSize[]; concurrencies: number[] } | undefined;
  if (values["drift-fleet"] !== undefined) {
    const sizes = values["drift-fleet"].split(",").map((part) => {
      const match = /^\s*(\d+)x(\d+)\s*$/.exec(part);
      const size = { stacks: Number(match?.[1]), resources: Number(match?.[2]) };
      if (!match || size.stacks < 1 || size.resources < 1)
        throw new UsageError(
          `--drift-fleet takes sizes SxR (stacks x resources per stack), e.g. 20x100,5x10 (got ${values["drift-fleet"]})`,
        );
      return size;
    });
    const concurrencies = values["drift-concurrency"].split(",").map((s) => Number(s.trim()));
    if (concurrencies.some((c) => !Number.isInteger(c) || c < 1 || c > 32))
      throw new UsageError(
        `--drift-concurrency must be whole numbers from 1 to 32 separated by commas (got ${values["drift-concurrency"]})`,
      );
    driftFleet = { sizes, concurrencies };
  }
  return {
    driftFleet,
    sizes,
    json: values.json,
    clientSeconds,
    concurrency,
    hostStarts,
    warmup: !values["no-warmup"],
    keep: values.keep,
    profileEngine: Boolean(engineProfileDir),
    size: { repeat, engineEnv, mix: values.mix as Mix, anchorUpTo },
  };
}

/** Where the report and the progress lines go (the smoke test captures them). */
export type Io = Pick<CommandIo, "stdout" | "stderr">;

const processIo: Io = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };

/** Runs the bench: prints the report, and writes it as JSON with --json. */
export async function runBench(argv: string[], io: Io = processIo): Promise<void> {
  const opts = options(argv);
  const progress = (line: string) => io.stderr(`bench: ${line}\n`);
  // First: the engine's PATH holds the provider plugin laid out from the installed package.
  await installPackedPackage();
  ensureEngineOnPath({ profiling: opts.profileEngine });
  if (!opts.driftFleet) {
    writeFloorPackage();
    writeReadFloorPackage();
  }
  const startedAt = new Date().toISOString();
  const host = machine(pulumiFacts());
  const what = opts.driftFleet ? "drift fleet" : `${opts.size.mix} mix, sizes ${opts.sizes.join(", ")}`;
  progress(`load average ${host.loadAverage.join(" / ")} on ${host.cpus} cpus; ${what}`);
  const runName = `${opts.driftFleet ? "drift-fleet" : "run"}-${startedAt.replace(/[:.]/g, "-")}-${process.pid}`;
  const runDir = path.join(benchRoot, runName);
  fs.mkdirSync(runDir, { recursive: true });
  try {
    let report: Report | { driftFleet: DriftFleetReport };
    if (opts.driftFleet) {
      const driftFleet = await driftFleetBench(opts.driftFleet, runDir, progress);
      const loadAverageAtEnd = loadAverage();
      io.stdout(
        `${driftFleetMarkdown(driftFleet)}\n\nMachine: ${host.cpus} cpus (${host.model}), Node ${host.node}, Pulumi ${host.pulumi}; load average ${host.loadAverage.join(" / ")} at the start, ${loadAverageAtEnd.join(" / ")} at the end.\n`,
      );
      report = { machine: host, startedAt, loadAverageAtEnd, driftFleet };
    } else {
      report = { machine: host, startedAt, ...(await sizesReport(opts, runDir, progress)) };
      io.stdout(`${markdown(report)}\n`);
    }
    if (opts.json) {
      fs.writeFileSync(opts.json, `${JSON.stringify(report, null, 2)}\n`);
      progress(`wrote ${opts.json}`);
    }
  } finally {
    if (!opts.keep) fs.rmSync(runDir, { recursive: true, force: true });
  }
}

/** The command: 0 on a completed run (targets missed included: the report says so), 1 on failure, 2 on bad usage. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  try {
    await runBench(argv, io);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`bench: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    io.stderr(`bench: ${e instanceof Error ? e.stack : String(e)}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
