import { shimFor } from "../shim";
export = shimFor("stream-status");
