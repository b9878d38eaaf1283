// The serialized provider of CampaignArchive resources (see ../shim.ts).
import { shimFor } from "../shim";
export = shimFor("campaign-archive");
