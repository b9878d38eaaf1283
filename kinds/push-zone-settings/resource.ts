import * as pulumi from "@pulumi/pulumi";
import { registration } from "../resource";
import type { Declares } from "../common/declare";
import type { declaration } from "./declaration";
import { KINDS } from "../registry";

/** Arguments of a {@link PushZoneSettings}: declare at least one setting. */
export interface PushZoneSettingsArgs {
  /** The HTTP push zone's id (`{zoneid}` of `POST /v2/zones/http/push/{zoneid}`). Changing it replaces the resource. */
  zoneId: pulumi.Input<number>;
  /**
   * Custom domains of the zone (`cnames` of `POST /v2/zones/http/push/{zoneid}`, sent comma-separated). Compared as a set,
   * ignoring order and case. The API warns until a CNAME record points at the zone.
   */
  customDomains?: pulumi.Input<pulumi.Input<string>[]>;
  /** Transcoding profile ids applied automatically to uploads (`profiles` of `POST /v2/zones/http/push/{zoneid}`); compared as a set. */
  transcodingProfiles?: pulumi.Input<pulumi.Input<number | string>[]>;
  /**
   * URL that receives the list of transcoded files as a raw JSON post every minute after files
   * are transcoded (`webhook` of `POST /v2/zones/http/push/{zoneid}`, the API's events); `""` clears it.
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

/** The push zone's service addresses (`cdnservice` of the zone's sub-objects), each null when the API does not send it. */
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
 * Manages an HTTP push zone's custom domains, transcoding profiles and transcode webhook, leaving
 * its other settings alone.
 *
 * Written through `POST /v2/zones/http/push/{zoneid}`; only the settings declared are managed.
 * Refresh reads the zone through `GET /v2/zones/http/push/{id}` and detects changed domains,
 * profiles and webhook. The API has no delete for settings: destroying the resource leaves the
 * zone's values as they are, and says so. Where the API has no such read, refresh keeps the last
 * applied state and says once that drift cannot be detected. What the API says beside a change
 * (its `message`, `warnings` and `errors`) is shown in the CLI; warnings and errors are also kept in
 * `warnings`.
 *
 * @typescriptOnly In TypeScript, a zone's settings are taken over with `adoptId` where other
 * languages run `pulumi import`.
 */
export class PushZoneSettings extends pulumi.CustomResource {
  /** The zone's id. */
  declare readonly zoneId: pulumi.Output<number>;
  /** Managed custom domains, as declared (or as found, after a refresh that found drift). */
  declare readonly customDomains: pulumi.Output<string[] | undefined>;
  /** Managed transcoding profile ids. */
  declare readonly transcodingProfiles: pulumi.Output<(number | string)[] | undefined>;
  /** Managed transcode webhook. */
  declare readonly transcodeWebhook: pulumi.Output<string | undefined>;
  /** The zone's name (the API's zone object). */
  declare readonly name: pulumi.Output<string | null>;
  /** The zone's own domain (`fqdn` of the API's zone object): the target of the custom domains' CNAME records. */
  declare readonly fqdn: pulumi.Output<string | null>;
  /** The zone's hash identifier (`hashid` of the API's zone object). */
  declare readonly hashId: pulumi.Output<string | null>;
  /** Fully qualified custom domains (`cnamesArrFqdn` of the API's zone object). */
  declare readonly customDomainFqdns: pulumi.Output<string[]>;
  /** Where uploads go (`server.meta.uploadHost` of the API's zone object). */
  declare readonly uploadHost: pulumi.Output<string | null>;
  /** The zone's service addresses (`cdnservice` of the zone's sub-objects: info, list, upload, playlist...). */
  declare readonly serviceAddresses: pulumi.Output<PushZoneServiceAddresses>;
  /** The service's auth token (`cdnservice.authtoken` of the zone's sub-objects), a credential: secret; undefined when the API sends none. */
  declare readonly authToken: pulumi.Output<string | undefined>;
  /** FTP user of the zone's storage (`ftpdetails.username` of the API's zone object). */
  declare readonly ftpUsername: pulumi.Output<string | null>;
  /** FTP password of the zone's storage (`ftpdetails.password` of the API's zone object); secret. */
  declare readonly ftpPassword: pulumi.Output<string | null>;
  /** Warnings the API returned with the last change (`warnings` of `POST /v2/zones/http/push/{zoneid}`; `errors` too, prefixed `error: `). */
  declare readonly warnings: pulumi.Output<string[]>;

  constructor(name: string, args: PushZoneSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    const registered = registration(KINDS.PushZoneSettings, name, args, opts);
    try {
      super(registered.type, name, registered.props, registered.options);
    } finally {
      registered.restoreStacks();
    }
  }
}

const _bound: Declares<typeof declaration, PushZoneSettingsArgs, PushZoneSettings> = true;
