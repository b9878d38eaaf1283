/** The API client of pulumi-cdnstream (docs/client.md). Imports nothing from @pulumi/pulumi. */
// Before the operation families below load zod: the client speaks English (./core/zod-locales.ts).
import { deferZodLocales } from "./core/zod-locales";
deferZodLocales();

export { CdnstreamClient, type ClientOptions, type RawResponse } from "./core/client";
export {
  resolveConfig,
  configFailures,
  normalizeBaseUrl,
  CONFIG_NAMES,
  NUMERIC_SETTINGS,
  type ClientSettings,
  type ConfigOptions,
  type ConfigSource,
} from "./core/config";
export * from "./core/errors";
export { describeIssues, propertyPath, type InputIssue } from "./core/input-issues";
export type { CallInput, CallOutput, Operation, RequestOptions } from "./core/operation";
export * from "./core/pagination";
export { REDACTED, Secret } from "./core/redact";
export { findOperation, operations, retryKindFor } from "./registry";
export { RETRY_ERROR_CODES, RETRY_STATUSES, type RetryPolicy } from "./core/retry";

export * as adInsertion from "./resources/ad-insertion";
export * as adManager from "./resources/ad-manager";
export * as backups from "./resources/backups";
export * as dns from "./resources/dns";
export * as streams from "./resources/streams";
export * as zones from "./resources/zones";
