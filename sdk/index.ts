/**
 * pulumi-cdnstream: the program-side SDK users import (`import * as cdn from "pulumi-cdnstream"`).
 *
 * The resource classes live each in its kind's folder (`kinds/<kind>/resource.ts`, listed in
 * `kinds/index.ts`); the data sources in `./data-sources`.
 */
import { deferZodLocales } from "../provider/zod-locales";

// Before anything loads zod (a data source's first call does; the resource classes do not). A
// program, like a provider host, speaks only English (../provider/zod-locales.ts says how the
// other locales' loading moves to first use; nothing changes for a program that reads one).
deferZodLocales();

export * from "../kinds";
export * from "./data-sources";
export { Provider, type ProviderArgs, packageVersion } from "./provider";
