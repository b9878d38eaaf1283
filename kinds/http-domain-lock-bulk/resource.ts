import * as pulumi from "@pulumi/pulumi";
import { registration } from "../resource";
import type { Declares } from "../common/declare";
import type { declaration } from "./declaration";
import { KINDS } from "../registry";

/** Arguments of an {@link HttpDomainLockBulk}: a `mode` and at least one setting. */
export interface HttpDomainLockBulkArgs {
  /**
   * What a write does (`mode` of `POST /v2/zones/http/settings/security/domainlock`; docs/design.md, "`POST /v2/zones/http/settings/security/domainlock`: which zones"):
   * - `save`: stores the settings as the account default only; existing zones are unchanged;
   * - `append`: also merges `domains` and `ips` into every HTTP push and pull zone's domain lock
   *   as a set union (re-applying adds nothing) and sets the declared flags on them;
   * - `overwrite`: also replaces every HTTP push and pull zone's domains, IPs and declared flags.
   *
   * Changing it is an in-place update that writes again with the new mode. The API does not
   * keep it, so a refresh never reports it as drift.
   */
  mode: pulumi.Input<"save" | "append" | "overwrite">;
  /** Whether the domain lock is on (`enabled` of `POST /v2/zones/http/settings/security/domainlock`, sent as `Y`/`N`). */
  enabled?: pulumi.Input<boolean>;
  /**
   * `policy` of `POST /v2/zones/http/settings/security/domainlock`, kept as `"Y" | "N"` because the spec describes it three ways (the API's access-control objects):
   * - VoD pull zone domain-lock update: `Y` = whitelist, `N` = blacklist;
   * - bulk domain-lock update (this operation): `Y` = blacklist, `N` = whitelist;
   * - timeshift create: `Y` = allow listed domains, `N` = deny.
   *
   * Which description is authoritative is not shown; check the behaviour on your account.
   */
  policy?: pulumi.Input<"Y" | "N">;
  /**
   * Host names the lock lists (`list` of `POST /v2/zones/http/settings/security/domainlock`, sent comma-separated), e.g. `player.example.com`
   * or `*.example.com`. Compared as a set, ignoring order, duplicates and case.
   */
  domains?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * IP addresses or CIDR ranges allowed regardless of the domain lock (`ips` of `POST /v2/zones/http/settings/security/domainlock`, sent
   * comma-separated). Compared as a set, ignoring order, duplicates and case.
   */
  ips?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * `noreferer` of `POST /v2/zones/http/settings/security/domainlock`, kept as `"Y" | "N"` because the spec describes it three ways (the API's access-control objects):
   * - VoD pull zone domain-lock update: `Y` = allow requests without referer;
   * - bulk domain-lock update (this operation): `Y` = block requests with empty referer;
   * - timeshift create: `Y` = blocked.
   *
   * Which description is authoritative is not shown; check the behaviour on your account.
   */
  noreferer?: pulumi.Input<"Y" | "N">;
  /**
   * Adopt the account's domain lock (the only id is `account`) instead of writing the declared
   * settings: `create` reads the account default and fails, naming each difference, unless the
   * declared values equal it; it writes nothing, so no zone is touched whatever the `mode`. Use
   * it where you would use the `import` option, which dynamic resources of @pulumi/pulumi 3.246
   * cannot serve. Ignored after creation.
   */
  adoptId?: pulumi.Input<string>;
}

/** The account default's settings in the API's form (`POST /v2/zones/http/settings/security/domainlock` settings; `domainlock` of the API's access-control objects fields), null where not given. */
export interface HttpDomainLockDefault {
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
  /** Comma-separated domains. */
  list: string | null;
  /** Comma-separated IPs / CIDR ranges. */
  ips: string | null;
}

/**
 * Restricts which domains and IPs may embed or hotlink the account's HTTP zones: the account-wide
 * domain lock, saved as the account default or also applied to every HTTP pull zone.
 *
 * Written through `POST /v2/zones/http/settings/security/domainlock`. There is one per account:
 * the resource id is always `account`. A write is not read back (the answer carries no settings):
 * `accountDefault` records what the last write sent. Drift, found by refresh or `preview --refresh`:
 * - the account default that every mode saves, through `GET /v2/zones/http/settings/security/domainlock`
 *   (a path the spec does not list): a changed flag, domain or IP (lists compared as sets);
 * - after `append` or `overwrite`, every HTTP pull zone's lock, from the pull-zone listing (`GET /v2/zones/http/pull`,
 *   every page): a zone that no longer holds what the last write sent (with `append`, the sent
 *   domains and IPs among its own; with `overwrite`, exactly them; and the sent flags) is named in
 *   `zonesOutOfStep` and in a warning, and the property it breaks shows as drift (for a list, the sent
 *   entries every pull zone still holds; for a flag, the first such zone's value), so the next `up`
 *   writes again. HTTP push zones cannot be listed by any operation, so their locks are not compared.
 *
 * `mode` is never drift: the API does not keep it. Where nothing can be read (`save`, on an API
 * without the account default's read), refresh keeps the last applied state and says once that
 * drift cannot be detected. The API has no delete: destroying the resource leaves the account
 * default and every zone's lock as they are, and says so.
 *
 * @typescriptOnly In TypeScript, the account's lock is taken over with `adoptId` where other
 * languages run `pulumi import`.
 */
export class HttpDomainLockBulk extends pulumi.CustomResource {
  /** How the last write was applied. */
  declare readonly mode: pulumi.Output<"save" | "append" | "overwrite">;
  /** Managed `enabled`, as declared (or as found in the account default after a refresh). */
  declare readonly enabled: pulumi.Output<boolean | undefined>;
  /** Managed `policy` (see {@link HttpDomainLockBulkArgs.policy} for its three meanings). */
  declare readonly policy: pulumi.Output<"Y" | "N" | undefined>;
  /** Managed domains. */
  declare readonly domains: pulumi.Output<string[] | undefined>;
  /** Managed IPs / CIDR ranges. */
  declare readonly ips: pulumi.Output<string[] | undefined>;
  /** Managed `noreferer` (see {@link HttpDomainLockBulkArgs.noreferer} for its three meanings). */
  declare readonly noreferer: pulumi.Output<"Y" | "N" | undefined>;
  /**
   * What the last write sent as the account default (null for a setting not declared); after
   * adoption, the account default as read then.
   */
  declare readonly accountDefault: pulumi.Output<HttpDomainLockDefault | null>;
  /**
   * After `append` or `overwrite`: ids of the HTTP pull zones whose lock no longer holds what the
   * last write sent, as the last refresh found them (empty after a write); undefined with `save`.
   */
  declare readonly zonesOutOfStep: pulumi.Output<number[] | undefined>;

  constructor(name: string, args: HttpDomainLockBulkArgs, opts?: pulumi.CustomResourceOptions) {
    const registered = registration(KINDS.HttpDomainLockBulk, name, args, opts);
    try {
      super(registered.type, name, registered.props, registered.options);
    } finally {
      registered.restoreStacks();
    }
  }
}

const _bound: Declares<typeof declaration, HttpDomainLockBulkArgs, HttpDomainLockBulk> = true;
