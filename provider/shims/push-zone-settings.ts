// The serialized provider of PushZoneSettings resources (see ../shim.ts).
import { shimFor } from "../shim";
export = shimFor("push-zone-settings");
