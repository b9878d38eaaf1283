// The serialized provider of VodPullDomainLock resources (see ../shim.ts).
import { shimFor } from "../shim";
export = shimFor("vod-pull-domain-lock");
