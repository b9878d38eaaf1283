// The serialized provider of HttpDomainLockBulk resources (see ../shim.ts).
import { shimFor } from "../shim";
export = shimFor("http-domain-lock-bulk");
