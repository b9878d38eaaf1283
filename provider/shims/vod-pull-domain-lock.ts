import { shimFor } from "../shim";
export = shimFor("vod-pull-domain-lock");
