/** PushZoneSettings (§4.1): what it does for users is the class's doc (resource.ts). */
import * as zones from "../../client/resources/zones";
import { splitList } from "../common/rules";
import { settingsHandler } from "../common/handlers/settings";
import type { ArgsOf } from "../common/declare";
import { declaration } from "./declaration";

type Args = ArgsOf<typeof declaration>;

/** §2.3 cdnservice: the push zone's service addresses, by output name; the API's field is `<name in lowercase>url`. */
const SERVICE_ADDRESSES = ["info", "list", "rawList", "transcodeList", "add", "edit", "delete", "upload", "playlist"];

/** What the zone says of itself; `warnings` only come with a write (§4.1), so a read leaves them out. */
function outputsOf(zone: zones.Zone, warnings?: string[]) {
  const ftp = zone.ftpdetails as { username?: string; password?: string } | undefined;
  const server = zone.server as { meta?: { uploadHost?: string } } | undefined;
  const service = (zone.cdnservice ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    name: zone.name ?? null,
    fqdn: zone.fqdn ?? null,
    hashId: zone.hashid ?? null,
    customDomainFqdns: zone.cnamesArrFqdn ?? [],
    uploadHost: server?.meta?.uploadHost ?? null,
    serviceAddresses: Object.fromEntries(
      SERVICE_ADDRESSES.map((name) => [name, text(service[`${name.toLowerCase()}url`])]),
    ),
    ftpUsername: ftp?.username ?? null,
    // Credential (masked in some responses, plain in others, §2.2): the SDK marks it secret.
    ftpPassword: ftp?.password ?? null,
    // Credential (§2.3 cdnservice.authtoken): a secret output, absent (not null) when the API
    // sends none, because the engine stores every secret output, null included, as ciphertext.
    ...(text(service.authtoken) ? { authToken: service.authtoken } : {}),
    ...(warnings ? { warnings } : {}),
  };
}

export const handler = settingsHandler<Args>((context) => ({
  declaration,

  readPath: zones.ops.getPushZone,

  async read({ zoneId }) {
    const { zone } = await zones.getPushZone(context.client(), zoneId as number);
    const transcode = zone.transcodefile as { profiles?: string[]; webhooks?: string[] } | undefined;
    return {
      inputs: {
        customDomains: zone.cnamesArr ?? splitList(zone.cnames),
        transcodingProfiles: transcode?.profiles ?? [],
        transcodeWebhook: transcode?.webhooks?.[0] ?? "",
      },
      outputs: outputsOf(zone),
    };
  },

  async apply(args) {
    const answer = await zones.updatePushZone(context.client(), args.zoneId, {
      cnames: args.customDomains?.join(","),
      profiles: args.transcodingProfiles,
      webhook: args.transcodeWebhook,
    });
    // §4.1 answers with warnings (`null` is none), and may carry `message` and `errors` (§2.1).
    return outputsOf(answer.zone, context.reportNotes("PushZoneSettings", String(args.zoneId), answer));
  },

  released: (id) =>
    `PushZoneSettings ${id}: released from the stack; the zone keeps its custom domains, profiles and webhook (the API has no delete for settings).`,
}));
