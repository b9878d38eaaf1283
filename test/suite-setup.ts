/**
 * Runs in each end-to-end suite's own module registry (jest's `setupFiles`), before the suite: what
 * the suite's copy of @pulumi/pulumi must be set to before its first engine operation.
 */
import { isolateRuntimeConnections } from "./helpers/runtime-connections";

isolateRuntimeConnections();
