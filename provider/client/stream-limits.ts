/**
 * §4.19, §8: limits of a stream's settings, in a module of their own so that a kind's declaration
 * can state them without loading the streams family (its schemas), which every program would
 * then load with the SDK. streams.ts exports them with its operations.
 */

/** §4.19, §8: the most days a timeshift stream keeps its nDVR window and its recordings. */
export const RETENTION_MAX_DAYS = { ndvr: 180, record: 90 } as const;
