import { shimFor } from "../shim";
export = shimFor("timeshift-stream");
