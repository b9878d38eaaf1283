// The serialized provider of AdBreakSlot resources (see ../shim.ts).
import { shimFor } from "../shim";
export = shimFor("ad-break-slot");
