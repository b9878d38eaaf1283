/**
 * Every resource kind, one line each: a kind is its folder (`kinds/<kind>/`: declaration,
 * handler, resource class, tests). Adding a kind is adding its folder and its line here.
 */
export * from "./ad-break-slot/resource";
export * from "./campaign-archive/resource";
export * from "./http-domain-lock-bulk/resource";
export * from "./push-zone-settings/resource";
export * from "./stream-status/resource";
export * from "./timeshift-stream/resource";
export * from "./vod-pull-domain-lock/resource";
