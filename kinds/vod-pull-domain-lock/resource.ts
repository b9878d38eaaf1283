import * as pulumi from "@pulumi/pulumi";
import { registration } from "../resource";
import type { Declares } from "../common/declare";
import type { declaration } from "./declaration";
import { KINDS } from "../registry";

/** Arguments of a {@link VodPullDomainLock}: declare at least one setting besides `zoneId`. */
export interface VodPullDomainLockArgs {
  /** The VoD pull zone's id (`{zoneid}` of `POST /v2/zones/vod/pull/{zoneid}/domainlock`). Changing it replaces the resource. */
  zoneId: pulumi.Input<number>;
  /** Whether the domain lock is on (`enabled` of `POST /v2/zones/vod/pull/{zoneid}/domainlock`, sent as `Y`/`N`). */
  enabled?: pulumi.Input<boolean>;
  /**
   * `policy` of `POST /v2/zones/vod/pull/{zoneid}/domainlock`, kept as `"Y" | "N"` because the spec describes it three ways (the API's access-control objects):
   * - VoD pull zone domain-lock update (this operation): `Y` = whitelist, `N` = blacklist;
   * - bulk domain-lock update: `Y` = blacklist, `N` = whitelist;
   * - timeshift create: `Y` = allow listed domains, `N` = deny.
   *
   * Which description is authoritative is not shown; check the behaviour on your account.
   */
  policy?: pulumi.Input<"Y" | "N">;
  /**
   * Host names the lock lists (`list` of `POST /v2/zones/vod/pull/{zoneid}/domainlock`, sent comma-separated), e.g. `player.example.com`
   * or `*.example.com`. Compared as a set, ignoring order, duplicates and case; `[]` clears it.
   */
  domains?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * IP addresses or CIDR ranges allowed regardless of the domain lock (`ips` of `POST /v2/zones/vod/pull/{zoneid}/domainlock`, sent
   * comma-separated). Compared as a set, ignoring order, duplicates and case; `[]` clears it.
   */
  ips?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * `noreferer` of `POST /v2/zones/vod/pull/{zoneid}/domainlock`, kept as `"Y" | "N"` because the spec describes it three ways (the API's access-control objects):
   * - VoD pull zone domain-lock update (this operation): `Y` = allow requests without referer;
   * - bulk domain-lock update: `Y` = block requests with empty referer;
   * - timeshift create: `Y` = blocked.
   *
   * Which description is authoritative is not shown; check the behaviour on your account.
   */
  noreferer?: pulumi.Input<"Y" | "N">;
  /**
   * `active` of `POST /v2/zones/vod/pull/{zoneid}/domainlock` (sent as `Y`/`N`). The spec describes it as enabling or disabling the ZONE,
   * not only its lock: `false` may take the whole zone out of service.
   */
  active?: pulumi.Input<boolean>;
  /**
   * Adopt the existing lock of this zone (format `401`, the zone id) instead of writing the
   * declared settings: `create` reads it and fails, naming each difference, unless the declared
   * values equal the live ones, so adopting changes nothing. Use it where you would use the
   * `import` option, which dynamic resources of @pulumi/pulumi 3.246 cannot serve. Ignored after
   * creation.
   */
  adoptId?: pulumi.Input<string>;
}

/** The domain lock as the API holds it (`domainlock` of the API's access-control objects), whatever the program declares. */
export interface VodPullLiveLock {
  /** `Y` when the domain lock is on, `N` when off. */
  enabled: "Y" | "N" | null;
  /**
   * The list's meaning, as the API holds it. The spec describes it three ways: `Y` = whitelist
   * (VoD pull zone update), `Y` = blacklist (bulk update), `Y` = allow listed domains (timeshift).
   */
  policy: "Y" | "N" | null;
  /**
   * Requests without a referer, as the API holds it. The spec describes it three ways: `Y` =
   * allowed (VoD pull zone update), `Y` = blocked (bulk update and timeshift create).
   */
  noreferer: "Y" | "N" | null;
  /** `Y` when the zone is active; the spec ties this flag to the whole zone, not only its lock. */
  active: "Y" | "N" | null;
  /** Comma-separated domains. */
  list: string | null;
  /** Comma-separated IPs / CIDR ranges. */
  ips: string | null;
}

/**
 * Restricts which domains and IPs may play a VoD pull zone's content: the zone's domain lock.
 *
 * Written through `POST /v2/zones/vod/pull/{zoneid}/domainlock`; only the settings declared are
 * managed. Refresh reads the zone through `GET /v2/zones/vod/pull/{id}` and detects a changed flag,
 * domain or IP (as sets: reordering or a change of case is no drift). The API has no delete for a
 * lock: destroying the resource leaves the zone's lock as it is, and says so.
 *
 * @typescriptOnly In TypeScript, a zone's lock is taken over with `adoptId` where other languages
 * run `pulumi import`.
 */
export class VodPullDomainLock extends pulumi.CustomResource {
  /** The zone's id. */
  declare readonly zoneId: pulumi.Output<number>;
  /** Managed `enabled`, as declared (or as found, after a refresh that found drift). */
  declare readonly enabled: pulumi.Output<boolean | undefined>;
  /** Managed `policy` (see {@link VodPullDomainLockArgs.policy} for its three meanings). */
  declare readonly policy: pulumi.Output<"Y" | "N" | undefined>;
  /** Managed domains. */
  declare readonly domains: pulumi.Output<string[] | undefined>;
  /** Managed IPs / CIDR ranges. */
  declare readonly ips: pulumi.Output<string[] | undefined>;
  /** Managed `noreferer` (see {@link VodPullDomainLockArgs.noreferer} for its three meanings). */
  declare readonly noreferer: pulumi.Output<"Y" | "N" | undefined>;
  /** Managed `active` (described by `POST /v2/zones/vod/pull/{zoneid}/domainlock` as enabling or disabling the zone). */
  declare readonly active: pulumi.Output<boolean | undefined>;
  /** The zone's name (`name` of the API's zone object). */
  declare readonly name: pulumi.Output<string | null>;
  /** The zone's domain (`fqdn` of the API's zone object). */
  declare readonly fqdn: pulumi.Output<string | null>;
  /** The zone's VoD domain (`fqdnVoD` of the API's zone object). */
  declare readonly fqdnVoD: pulumi.Output<string | null>;
  /** Whether SSL is enabled on the zone (`ssl_enabled` of the API's zone object, returned by `POST /v2/zones/vod/pull/{zoneid}/domainlock`). */
  declare readonly sslEnabled: pulumi.Output<boolean | null>;
  /** The lock as the API holds it, as of the last write or refresh (the API's access-control objects). */
  declare readonly liveLock: pulumi.Output<VodPullLiveLock>;

  constructor(name: string, args: VodPullDomainLockArgs, opts?: pulumi.CustomResourceOptions) {
    const registered = registration(KINDS.VodPullDomainLock, name, args, opts);
    try {
      super(registered.type, name, registered.props, registered.options);
    } finally {
      registered.restoreStacks();
    }
  }
}

const _bound: Declares<typeof declaration, VodPullDomainLockArgs, VodPullDomainLock> = true;
