import { shimFor } from "../shim";
export = shimFor("http-domain-lock-bulk");
