/** Critical backup data sources: list, get. Result types in backup-types.ts (generated); names follow naming.ts. */
import { id } from "./args";
import { outputForm, type DataSourceOptions } from "./client";
import type { CriticalBackup, GetCriticalBackupResult, GetCriticalBackupsResult } from "./backup-types";
import { invoke, toResult } from "./invoke";
import { clientModule, onFirstCall } from "./lazy-client";
import { camelize } from "./naming";

/** Arguments of {@link getCriticalBackups}: none. */
export interface GetCriticalBackupsArgs {}

/** Arguments of {@link getCriticalBackup}. */
export interface GetCriticalBackupArgs {
  /** The backup job's id (`{backupid}` of `GET /v2/cb/{backupid}`). */
  backupId: number;
}

const specs = onFirstCall(({ backups }, z) => ({
  list: { fn: "getCriticalBackups", op: backups.ops.listBackups, what: "critical backups", names: {} },
  get: {
    fn: "getCriticalBackup",
    op: backups.ops.getBackup,
    what: "critical backups",
    names: { backupId: "backupid" },
    args: z.object({ backupId: id("critical backup") }),
  },
}));

/**
 * List critical backups.
 *
 * Calls `GET /v2/cb`.
 */
export function getCriticalBackups(
  args?: GetCriticalBackupsArgs,
  options?: DataSourceOptions,
): Promise<GetCriticalBackupsResult> {
  return invoke(specs().list, args, options, async (client, _api, request) =>
    toResult(await clientModule().backups.listBackups(client, request)),
  );
}

/**
 * Get one critical backup job by id.
 *
 * Calls `GET /v2/cb/{backupid}`.
 */
export function getCriticalBackup(
  args: GetCriticalBackupArgs,
  options?: DataSourceOptions,
): Promise<GetCriticalBackupResult> {
  return invoke(specs().get, args, options, async (client, api, request) => {
    const { backup, ...rest } = await clientModule().backups.getBackup(client, api.backupid, request);
    // Flattened, as Pulumi's single-object reads are; other top-level fields (none in `GET /v2/cb/{backupid}`) are kept beside.
    return { ...toResult<object>(rest), ...(camelize(backup) as CriticalBackup) };
  });
}

/** {@link getCriticalBackups} as an Output. */
export const getCriticalBackupsOutput = outputForm(getCriticalBackups);
/** {@link getCriticalBackup} as an Output. */
export const getCriticalBackupOutput = outputForm(getCriticalBackup);
