/** Critical backups (§4.16, §4.17). */
import { lookup, Route } from "../route";
import { Obj } from "../store";

// §2.18: linksCount is derived from linkedZones, so an out-of-band change to one keeps both true.
const present = (b: Obj): Obj => ({ ...b, linksCount: Array.isArray(b.linkedZones) ? b.linkedZones.length : 0 });

export const routes: Route[] = [
  {
    method: "GET",
    path: "/v2/cb",
    handler: (ctx) => ({ result: "success", backups: ctx.store.list("backups").map(present) }),
  },
  {
    method: "GET",
    path: "/v2/cb/{backupid}",
    handler: (ctx) => ({
      result: "success",
      backup: present(lookup(ctx, "backups", ctx.params.backupid, "critical backup")),
    }),
  },
];
