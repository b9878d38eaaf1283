/** Critical backups: §4.16 get, §4.17 list. Shape: §2.18. */
import { z } from "zod";
import { defineOperation } from "../core/operation";
import { envelope, intId, loose, timestamp } from "./shapes";

/** §2.18 critical backup job. */
export const Backup = loose({
  id: z.number(),
  serviceid: z.number(),
  name: z.string(),
  meta: loose({ prefix: z.string(), description: z.string() }),
  files: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Null, or when the job was deleted: a date string or Unix seconds (§2.18). */
  deleted_at: timestamp,
  /** Zone ids this job backs up. */
  linkedZones: z.array(z.number()),
  linksCount: z.number(),
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
  response: z.looseObject({ ...envelope, backups: z.array(Backup) }),
});

export const ops = { getBackup, listBackups };
