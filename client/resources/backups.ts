/** Critical backups: §4.16 get, §4.17 list. Shape: §2.18. */
import { z } from "zod";
import { defineOperation } from "../core/operation";
import { envelope, intId, loose, timestamp } from "./shapes";

/** §2.18 critical backup job. */
export const Backup = loose({
  /** Backup job id. */
  id: z.number(),
  /** Account service id. */
  serviceid: z.number(),
  /** Job name. */
  name: z.string(),
  /** Job metadata. */
  meta: loose({
    /** Path prefix. */
    prefix: z.string(),
    /** Description. */
    description: z.string(),
  }),
  /** As the API sends it (a string, e.g. a file count). */
  files: z.string(),
  /** `YYYY-MM-DD HH:MM:SS`. */
  created_at: z.string(),
  /** `YYYY-MM-DD HH:MM:SS`. */
  updated_at: z.string(),
  /** Null, or when the job was deleted: a date string or Unix seconds. */
  deleted_at: timestamp,
  /** Ids of the zones this job backs up. */
  linkedZones: z.array(z.number()),
  /** Zones linked. */
  linksCount: z.number(),
  /** The storage provider, as a description. */
  providerText: z.string(),
}).required({ id: true });
export type Backup = z.infer<typeof Backup>;

/** §4.16 Get critical backup. */
export const getBackup = defineOperation({
  id: "4.16",
  method: "GET",
  path: "/v2/cb/{backupid}",
  params: z.strictObject({ backupid: intId }),
  response: z.looseObject({ ...envelope, backup: Backup }),
});
/** §4.17 List critical backups. */
export const listBackups = defineOperation({
  id: "4.17",
  method: "GET",
  path: "/v2/cb",
  response: z.looseObject({
    ...envelope,
    /** Every critical backup job of the account (the critical backup job). */
    backups: z.array(Backup),
  }),
});

export const ops = { getBackup, listBackups };
