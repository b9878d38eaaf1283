/** What `pulumi new typescript` writes into a new project, verbatim: the projects users start from. */

/** Its tsconfig.json: no skipLibCheck, no esModuleInterop. */
export const PULUMI_NEW_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};
