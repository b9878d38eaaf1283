/**
 * pulumi-cdnstream: the program-side SDK users import (`import * as cdn from "pulumi-cdnstream"`).
 *
 * Resource classes and data-source functions are exported from here as they land; each one's
 * provider-side behaviour lives in `provider/`.
 */

/** The package version, as published; stamped into nothing that reaches state. */
export const packageVersion: string = require("../../package.json").version;
