// The serialized provider of TimeshiftStream resources (see ../shim.ts).
import { shimFor } from "../shim";
export = shimFor("timeshift-stream");
