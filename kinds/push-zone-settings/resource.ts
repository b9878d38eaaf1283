import * as pulumi from "@pulumi/pulumi";
import { CdnstreamResource } from "../../sdk/resource";
import type { Declares } from "../declare";
import { declaration } from "./declaration";

/** Arguments of a {@link PushZoneSettings}: declare at least one setting. */
export interface PushZoneSettingsArgs {
  /** The HTTP push zone's id (§4.1 `{zoneid}`). Changing it replaces the resource. */
  zoneId: pulumi.Input<number>;
  /**
   * Custom domains of the zone (§4.1 `cnames`, sent comma-separated). Compared as a set,
   * ignoring order and case. The API warns until a CNAME record points at the zone.
   */
  customDomains?: pulumi.Input<pulumi.Input<string>[]>;
  /** Transcoding profile ids applied automatically to uploads (§4.1 `profiles`); compared as a set. */
  transcodingProfiles?: pulumi.Input<pulumi.Input<number | string>[]>;
  /**
   * URL that receives the list of transcoded files as a raw JSON post every minute after files
   * are transcoded (§4.1 `webhook`, §6); `""` clears it.
   */
  transcodeWebhook?: pulumi.Input<string>;
  /**
   * Adopt the existing object with this id (format `101`) instead of writing the declared
   * settings: `create` reads it and fails, naming each difference, unless the declared values
   * equal the live ones, so adopting changes nothing. Use it where you would use the `import`
   * option, which dynamic resources of @pulumi/pulumi 3.246 cannot serve. Ignored after creation.
   */
  adoptId?: pulumi.Input<string>;
}

/** The push zone's service addresses (§2.3 `cdnservice`), each null when the API does not send it. */
export interface PushZoneServiceAddresses {
  /** `infourl`. */
  info: string | null;
  /** `listurl`. */
  list: string | null;
  /** `rawlisturl`. */
  rawList: string | null;
  /** `transcodelisturl`. */
  transcodeList: string | null;
  /** `addurl`. */
  add: string | null;
  /** `editurl`. */
  edit: string | null;
  /** `deleteurl`. */
  delete: string | null;
  /** `uploadurl`. */
  upload: string | null;
  /** `playlisturl`. */
  playlist: string | null;
}

/**
 * Custom domains, transcoding profiles and the transcode webhook of an HTTP push zone (§4.1).
 *
 * Only the settings declared are managed. Import id: the zone id, e.g. `101`. Refresh reads the
 * zone through `GET /v2/zones/http/push/{id}` and detects changed domains, profiles and webhook.
 * The API has no delete for settings: destroying the resource leaves the zone's values as they
 * are, and says so. Where the API has no such read, refresh keeps the last applied state and says
 * once that drift cannot be detected. What the API says beside a change (its `message`, `warnings`
 * and `errors`) is shown in the CLI; warnings and errors are also kept in `warnings`.
 */
export class PushZoneSettings extends CdnstreamResource {
  /** The zone's id. */
  declare readonly zoneId: pulumi.Output<number>;
  /** Managed custom domains, as declared (or as found, after a refresh that found drift). */
  declare readonly customDomains: pulumi.Output<string[] | undefined>;
  /** Managed transcoding profile ids. */
  declare readonly transcodingProfiles: pulumi.Output<(number | string)[] | undefined>;
  /** Managed transcode webhook. */
  declare readonly transcodeWebhook: pulumi.Output<string | undefined>;
  /** The zone's name (§2.2). */
  declare readonly name: pulumi.Output<string | null>;
  /** The zone's own domain (§2.2 `fqdn`): the target of the custom domains' CNAME records. */
  declare readonly fqdn: pulumi.Output<string | null>;
  /** The zone's hash identifier (§2.2 `hashid`). */
  declare readonly hashId: pulumi.Output<string | null>;
  /** Fully qualified custom domains (§2.2 `cnamesArrFqdn`). */
  declare readonly customDomainFqdns: pulumi.Output<string[]>;
  /** Where uploads go (§2.2 `server.meta.uploadHost`). */
  declare readonly uploadHost: pulumi.Output<string | null>;
  /** The zone's service addresses (§2.3 `cdnservice`: info, list, upload, playlist...). */
  declare readonly serviceAddresses: pulumi.Output<PushZoneServiceAddresses>;
  /** The service's auth token (§2.3 `cdnservice.authtoken`), a credential: secret; undefined when the API sends none. */
  declare readonly authToken: pulumi.Output<string | undefined>;
  /** FTP user of the zone's storage (§2.2 `ftpdetails.username`). */
  declare readonly ftpUsername: pulumi.Output<string | null>;
  /** FTP password of the zone's storage (§2.2 `ftpdetails.password`); secret. */
  declare readonly ftpPassword: pulumi.Output<string | null>;
  /** Warnings the API returned with the last change (§4.1 `warnings`; `errors` too, prefixed `error: `). */
  declare readonly warnings: pulumi.Output<string[]>;

  constructor(name: string, args: PushZoneSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super(declaration.identity, name, args, opts);
  }
}

const _bound: Declares<typeof declaration, PushZoneSettingsArgs, PushZoneSettings> = true;
