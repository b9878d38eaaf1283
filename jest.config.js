/** Jest runs the TypeScript sources through ts-jest; end-to-end suites import the built package. */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.test.json" }],
  },
  // End-to-end suites drive the real Pulumi CLI; each `up` takes seconds.
  testTimeout: 300_000,
  // Two cores: more workers than that only make the engine runs fight for CPU.
  maxWorkers: 2,
};
