/** The API client of pulumi-cdnstream (docs/client.md). Imports nothing from @pulumi/pulumi. */
// Before the operation families below load zod: the client speaks English (./zod-locales.ts).
import { deferZodLocales } from "./zod-locales";
deferZodLocales();

export { CdnstreamClient, type ClientOptions, type RawResponse } from "./client";
export {
  resolveConfig,
  configFailures,
  normalizeBaseUrl,
  CONFIG_NAMES,
  NUMERIC_SETTINGS,
  type ApiKeySource,
  type ClientSettings,
  type ConfigOptions,
  type ConfigSource,
} from "./config";
export * from "./errors";
export { describeIssues, propertyPath, type InputIssue } from "./input-issues";
export type { CallInput, CallOutput, Operation, RequestOptions } from "./operation";
export { Paginator, PaginationLimitError, type Listing, type PageResult, type PaginatorOptions } from "./pagination";
export { REDACTED, Secret } from "./redact";
export { findOperation, operations, retryKindFor } from "./registry";
export { RETRY_ERROR_CODES, RETRY_STATUSES, type RetryPolicy } from "./retry";

export * as adInsertion from "./ad-insertion";
export * as adManager from "./ad-manager";
export * as backups from "./backups";
export * as dns from "./dns";
export * as streams from "./streams";
export * as zones from "./zones";
