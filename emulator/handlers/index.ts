/** The routing table: every handler module's routes (spec §4 plus the documented read extensions). */
import { Route } from "../route";
import { routes as adInsertion } from "./ad-insertion";
import { routes as adAnalytics } from "./ad-analytics";
import { routes as adManager } from "./ad-manager";
import { routes as backups } from "./backups";
import { routes as dns } from "./dns";
import { routes as domainLock } from "./domain-lock";
import { routes as streams } from "./streams";
import { routes as timeshift } from "./timeshift";
import { routes as zones } from "./zones";

/** All routes; literal paths are unambiguous against templates, so order does not matter. */
export const routes: Route[] = [
  ...zones,
  ...domainLock,
  ...streams,
  ...timeshift,
  ...dns,
  ...backups,
  ...adInsertion,
  ...adAnalytics,
  ...adManager,
];
