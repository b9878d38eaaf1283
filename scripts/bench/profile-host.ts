/**
 * Preloaded into the dynamic-provider hosts by `npm run bench -- --profile-host DIR`
 * (NODE_OPTIONS=--require): records a V8 CPU profile of the host and writes it to DIR as
 * `host-<pid>.cpuprofile` (open it in Chrome DevTools) when the host exits, also when the engine
 * stops it with a signal, which `--cpu-prof` would not. Other node processes are left alone.
 */
import * as fs from "node:fs";
import * as inspector from "node:inspector";
import * as path from "node:path";

const dir = process.env.CDNSTREAM_BENCH_PROFILE_DIR;
if (dir && process.argv.some((arg) => arg.includes("dynamic-provider"))) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 200 });
  session.post("Profiler.start");
  // The in-thread session answers synchronously, so this works in an exit handler.
  process.on("exit", () =>
    session.post("Profiler.stop", (err, result) => {
      if (!err) fs.writeFileSync(path.join(dir, `host-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    }),
  );
  // A signal ends the host through process.exit, whose exit handler above writes the profile.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(0));
}
