/**
 * pulumi-cdnstream: the program-side SDK users import (`import * as cdn from "pulumi-cdnstream"`).
 *
 * The resource classes live each in its kind's folder (`kinds/<kind>/resource.ts`, listed in
 * `kinds/index.ts`); the data sources in `./data-sources`.
 */
// First: on a Node older than the floor the import fails with one sentence saying what to install.
import { throwOnUnsupportedNode } from "./supported-node";
throwOnUnsupportedNode();
export * from "../kinds";
export * from "./data-sources";
export { Provider, type ProviderArgs } from "../kinds/provider";
export { packageVersion } from "../kinds/package-info";
