import { shimFor } from "../shim";
export = shimFor("push-zone-settings");
