// The serialized provider of StreamStatus resources (see ../shim.ts).
import { shimFor } from "../shim";
export = shimFor("stream-status");
