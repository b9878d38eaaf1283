/**
 * Data sources: every read operation of the API as a typed function for Pulumi programs, in the
 * Pulumi pair form: `getX(args)` returning a Promise and `getXOutput(inputs)` returning an Output.
 * They run in the program process through the shared client (client.ts); results are camelCased
 * (naming.ts). The result types (`*-types.ts`) are generated from the client's response schemas
 * by scripts/gen-data-source-types.ts, each field documented by its JSDoc in the client's schema.
 */
export * from "./ad-insertion";
export type * from "./ad-insertion-types";
export * from "./ad-manager";
export type * from "./ad-manager-types";
export * from "./backups";
export type * from "./backup-types";
export type * from "./common-types";
export { closeDataSourceClients, type DataSourceOptions, type InputArgs, type OutputFunction } from "./client";
export * from "./dns";
export type * from "./dns-types";
export * from "./zones";
export type * from "./zone-types";
