import { shimFor } from "../shim";
export = shimFor("ad-break-slot");
