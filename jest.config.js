/**
 * Two projects: fast suites (client, emulator, provider units) and end-to-end suites that drive
 * the real Pulumi CLI. The engine's global setup runs only when an end-to-end suite is selected,
 * so `npx jest test/emulator` never waits for an engine build.
 */
const os = require("node:os");

// tsconfig.test.json sets isolatedModules: ts-jest then compiles each file alone, without a type
// checker in every worker; `npm test` type-checks every file once beforehand (`npm run typecheck`).
const transform = { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.test.json" }] };

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      displayName: "unit",
      testEnvironment: "node",
      // A kind's unit tests sit in its folder (kinds/<kind>/*.test.ts); the rest mirror the tree under test/.
      roots: ["<rootDir>/test", "<rootDir>/kinds"],
      testMatch: ["**/*.test.ts"],
      testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/e2e/", "\\.e2e\\.test\\.ts$"],
      transform,
    },
    {
      displayName: "e2e",
      // Node's, plus the error handling Pulumi's inline program runner expects of the process.
      testEnvironment: "<rootDir>/test/helpers/pulumi-environment.js",
      // A kind's lifecycle suite sits in its folder (kinds/<kind>/lifecycle.e2e.test.ts).
      roots: ["<rootDir>/test/e2e", "<rootDir>/kinds"],
      testMatch: ["<rootDir>/test/e2e/**/*.test.ts", "<rootDir>/kinds/**/*.e2e.test.ts"],
      globalSetup: "<rootDir>/test/global-setup.ts",
      // In each suite's module registry, before the suite: the Pulumi runtime's connections to each
      // run's CLI get their own subchannel pool, so that one run's dead connection cannot fail a
      // later run's first call (test/helpers/runtime-connections.ts).
      setupFiles: ["<rootDir>/test/suite-setup.ts"],
      transform,
    },
  ],
  // End-to-end suites run several engine operations per test, seconds each.
  testTimeout: 300_000,
  // One and a half workers per core: at one per core the end-to-end suites leave about a quarter of
  // the CPU idle, waiting on the engine's processes, the emulator's injected latency and the
  // client's backoff. Six suites on two cores: 241 s and 26 % idle with two workers, 187 s and 4 %
  // idle with three, the same CPU spent (docs/engine.md, "Supported versions").
  maxWorkers: Math.floor(1.5 * os.availableParallelism()),
};
