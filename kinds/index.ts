/** Every resource kind, one line each: adding a kind is adding its folder and its line here (docs/design.md). */
export * from "./ad-break-slot/resource";
export * from "./campaign-archive/resource";
export * from "./http-domain-lock-bulk/resource";
export * from "./push-zone-settings/resource";
export * from "./stream-status/resource";
export * from "./timeshift-stream/resource";
export * from "./vod-pull-domain-lock/resource";
