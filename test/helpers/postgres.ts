/**
 * A real PostgreSQL server for end-to-end tests: the programs from `scripts/ensure-postgres`, a
 * cluster made by initdb in a temporary directory, the server on a free loopback port, stopped
 * (and the directory removed) by `stop()`.
 *
 * The server refuses to run as root, and CI runs the tests as root. So when this process is
 * root, initdb and postgres run as a dedicated unprivileged user, `postgres` (which Debian's
 * package creates), else `nobody`, through `setpriv`, which changes the user and then execs the
 * program: the process the suite starts is the server itself, and stopping it is one signal to
 * its pid. The temporary directory is handed to that user. Otherwise they run as this process's
 * user.
 *
 * The cluster: superuser `postgres`, reached without a password over its Unix socket in the
 * temporary directory (the suite's own psql and pg_dump); a login role and a database of its own
 * for the Pulumi backend, reached over TCP on 127.0.0.1 with a password (scram-sha-256), as a
 * team's backend URL reaches a shared server.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { run as runCommand } from "../../scripts/child";
import { repoRoot } from "./engine";

const howToInstall =
  "Run `scripts/ensure-postgres` from the repository root: it finds an installed PostgreSQL server " +
  "(Debian's /usr/lib/postgresql/<major>/bin, or `pg_config --bindir`) or installs Debian's package " +
  "(`apt-get update && apt-get install -y postgresql`, as root); or set CDNSTREAM_POSTGRES_BIN to the " +
  "directory holding postgres, initdb, psql and pg_dump.";

/**
 * Runs `scripts/ensure-postgres` and returns the directory it prints last. Throws, with the
 * script's own diagnostics and how to fix them, when there is no server to be had.
 */
export async function ensurePostgres(): Promise<string> {
  // Finding the server: a second; installing Debian's package: a minute or two.
  const ran = await runCommand(path.join(repoRoot, "scripts", "ensure-postgres"), [], {
    deadlineMs: 10 * 60_000,
    allowFailure: true,
  });
  const binDir = ran.stdout.trim().split("\n").pop() ?? "";
  if (ran.status !== 0 || !binDir || !fs.existsSync(path.join(binDir, "postgres"))) {
    throw new Error(
      `PostgreSQL is not available (scripts/ensure-postgres exited ${ran.status ?? ran.signal}).\n` +
        `${ran.stderr.trim()}\n${howToInstall}`,
    );
  }
  return binDir;
}

/**
 * How long one of the cluster's client commands (id, pg_isready, psql, pg_dump) may take: they
 * answer in milliseconds. They run synchronously (the suite reads their answers inline), which
 * blocks nothing the test needs: the server is a process of its own.
 */
const CLIENT_TIMEOUT_MS = 60_000;

export interface TestPostgres {
  /** Where postgres, initdb, psql and pg_dump are. */
  binDir: string;
  /** The server's `--version` line. */
  version: string;
  port: number;
  /** The database and login role the backend uses, and the role's password. */
  database: string;
  user: string;
  password: string;
  /** `postgres://<user>:<password>@127.0.0.1:<port>/<database>?sslmode=disable` */
  backendUrl: string;
  /** The operating-system user the server runs as. */
  runsAs: string;
  /** Runs SQL with psql as the superuser in the backend's database; resolves to its unaligned, tuples-only output. */
  psql(sql: string): string;
  /** `pg_dump --data-only` of the backend's database: every table's rows, as SQL text. */
  dumpData(): string;
  /** Stops the server (fast shutdown) and removes its directory. */
  stop(): Promise<void>;
}

/** Who runs the server: this process's user, or, for root, an unprivileged one. */
function serverUser(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    const uid = spawnSync("id", ["-u", name], { encoding: "utf8", timeout: CLIENT_TIMEOUT_MS });
    const gid = spawnSync("id", ["-g", name], { encoding: "utf8", timeout: CLIENT_TIMEOUT_MS });
    if (uid.status === 0 && gid.status === 0) return { name, uid: Number(uid.stdout), gid: Number(gid.stdout) };
  }
  throw new Error(
    "The tests run as root, which PostgreSQL refuses to run as, and there is neither a `postgres` nor a " +
      "`nobody` user to run it as. Create one (`useradd --system postgres`, or install Debian's postgresql " +
      "package, which creates it) and run the tests again.",
  );
}

/** The command line that runs `program` as `user` (setpriv: change user, then exec). */
function asUser(user: ReturnType<typeof serverUser>, program: string, args: string[]): [string, string[]] {
  if (!user) return [program, args];
  return ["setpriv", [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--", program, ...args]];
}

/** A TCP port free on 127.0.0.1 right now (the server may still lose it to another process: then the start is retried). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The environment the server's programs get: none of the caller's PG* settings, a fixed locale. */
function serverEnv(home: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("PG")));
  return { ...env, HOME: home, LANG: "C", LC_ALL: "C" };
}

/** Starts postgres and resolves once it accepts connections; rejects with its log if it exits first. */
async function startServer(
  binDir: string,
  user: ReturnType<typeof serverUser>,
  dir: string,
  port: number,
): Promise<ChildProcess> {
  const log = path.join(dir, "server.log");
  const out = fs.openSync(log, "a");
  // fsync off: the cluster is thrown away with the directory; durability is not under test here.
  const [command, args] = asUser(user, path.join(binDir, "postgres"), [
    "-D",
    path.join(dir, "data"),
    "-k",
    path.join(dir, "socket"),
    "-p",
    String(port),
    "-h",
    "127.0.0.1",
    "-c",
    "fsync=off",
    "-c",
    "logging_collector=off",
  ]);
  const server = spawn(command, args, { env: serverEnv(dir), stdio: ["ignore", out, out] });
  fs.closeSync(out);
  const exited = new Promise<never>((_, reject) =>
    server.once("exit", (code, signal) =>
      reject(
        new Error(`postgres exited (${code ?? signal}) before accepting connections:\n${fs.readFileSync(log, "utf8")}`),
      ),
    ),
  );
  const ready = (async () => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const check = spawnSync(
        path.join(binDir, "pg_isready"),
        ["-q", "-h", path.join(dir, "socket"), "-p", String(port)],
        {
          timeout: CLIENT_TIMEOUT_MS,
        },
      );
      if (check.status === 0) return;
      if (Date.now() > deadline)
        throw new Error(`postgres did not accept connections within 60 s:\n${fs.readFileSync(log, "utf8")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  await Promise.race([ready, exited]);
  return server;
}

export async function startPostgres(): Promise<TestPostgres> {
  const binDir = await ensurePostgres();
  const user = serverUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-postgres-"));
  const database = "pulumi_state";
  const role = "pulumi";
  const password = crypto.randomBytes(18).toString("base64url");
  const superPassword = crypto.randomBytes(18).toString("base64url");
  fs.mkdirSync(path.join(dir, "socket"));
  fs.writeFileSync(path.join(dir, "superuser-password"), superPassword, { mode: 0o600 });
  if (user) {
    for (const entry of [dir, path.join(dir, "socket"), path.join(dir, "superuser-password")])
      fs.chownSync(entry, user.uid, user.gid);
  }

  const run = async (program: string, args: string[], what: string): Promise<string> => {
    const [command, argv] = asUser(user, path.join(binDir, program), args);
    // initdb without fsync: a few seconds.
    const result = await runCommand(command, argv, { env: serverEnv(dir), deadlineMs: 5 * 60_000, allowFailure: true });
    if (result.status !== 0)
      throw new Error(`${what} failed (${program} exited ${result.status ?? result.signal}):\n${result.stderr}`);
    return result.stdout;
  };

  let server: ChildProcess | undefined;
  let port = 0;
  try {
    await run(
      "initdb",
      [
        "-D",
        path.join(dir, "data"),
        "-U",
        "postgres",
        `--pwfile=${path.join(dir, "superuser-password")}`,
        "--auth-local=trust",
        "--auth-host=scram-sha-256",
        "--locale=C",
        "--encoding=UTF8",
        "--no-sync",
      ],
      "initdb",
    );
    for (let attempt = 1; !server; attempt++) {
      port = await freePort();
      try {
        server = await startServer(binDir, user, dir, port);
      } catch (e) {
        // Another process took the port meanwhile: try another one, twice at most.
        if (attempt >= 3 || !/could not bind|Address already in use/.test(String(e))) throw e;
      }
    }
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }

  const socket = path.join(dir, "socket");
  /** psql as the superuser over the socket; `db` defaults to the backend's database. */
  const psqlIn = (db: string, sql: string): string => {
    const result = spawnSync(
      path.join(binDir, "psql"),
      [
        "-X",
        "-q",
        "-A",
        "-t",
        "-v",
        "ON_ERROR_STOP=1",
        "-h",
        socket,
        "-p",
        String(port),
        "-U",
        "postgres",
        "-d",
        db,
        "-c",
        sql,
      ],
      { env: serverEnv(dir), encoding: "utf8", timeout: CLIENT_TIMEOUT_MS },
    );
    if (result.status !== 0)
      throw new Error(`psql failed (${result.status ?? result.signal}) on ${sql}:\n${result.stderr}`);
    return result.stdout;
  };
  const version = (await run("postgres", ["--version"], "postgres --version")).trim();

  const stop = async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGINT"); // fast shutdown: ends the sessions, checkpoints, exits
      const timer = setTimeout(() => server!.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    psqlIn("postgres", `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    psqlIn("postgres", `CREATE DATABASE ${database} OWNER ${role}`);
  } catch (e) {
    await stop();
    throw e;
  }

  return {
    binDir,
    version,
    port,
    database,
    user: role,
    password,
    backendUrl: `postgres://${role}:${password}@127.0.0.1:${port}/${database}?sslmode=disable`,
    runsAs: user?.name ?? os.userInfo().username,
    psql: (sql) => psqlIn(database, sql),
    dumpData: () => {
      const result = spawnSync(
        path.join(binDir, "pg_dump"),
        ["--data-only", "--no-owner", "-h", socket, "-p", String(port), "-U", "postgres", database],
        { env: serverEnv(dir), encoding: "utf8", maxBuffer: 256 * 1024 * 1024, timeout: CLIENT_TIMEOUT_MS },
      );
      if (result.status !== 0) throw new Error(`pg_dump failed (${result.status ?? result.signal}):\n${result.stderr}`);
      return result.stdout;
    },
    stop,
  };
}
