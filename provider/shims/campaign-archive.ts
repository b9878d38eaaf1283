import { shimFor } from "../shim";
export = shimFor("campaign-archive");
