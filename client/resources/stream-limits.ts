/**
 * §4.19, §8: the most days a timeshift stream keeps its nDVR window and its recordings; a module
 * of its own so a kind's declaration can state them without loading the streams family's schemas.
 */
export const RETENTION_MAX_DAYS = { ndvr: 180, record: 90 } as const;
