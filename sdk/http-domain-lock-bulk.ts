import * as pulumi from "@pulumi/pulumi";

/** Arguments of an {@link HttpDomainLockBulk}: a `mode` and at least one setting. */
export interface HttpDomainLockBulkArgs {
  /**
   * What a write does (§4.11 `mode`; DESIGN.md "Bulk domain lock"):
   * - `save`: stores the settings as the account default only; existing zones are unchanged;
   * - `append`: also merges `domains` and `ips` into every HTTP push and pull zone's domain lock
   *   as a set union (re-applying adds nothing) and sets the declared flags on them;
   * - `overwrite`: also replaces every HTTP push and pull zone's domains, IPs and declared flags.
   *
   * Changing it is an in-place update that writes again with the new mode. The API does not
   * keep it, so a refresh never reports it as drift.
   */
  mode: pulumi.Input<"save" | "append" | "overwrite">;
  /** Whether the domain lock is on (§4.11 `enabled`, sent as `Y`/`N`). */
  enabled?: pulumi.Input<boolean>;
  /**
   * §4.11 `policy`, kept as `"Y" | "N"` because the spec describes it three ways (§2.4):
   * - VoD pull zone domain-lock update: `Y` = whitelist, `N` = blacklist;
   * - bulk domain-lock update (this operation): `Y` = blacklist, `N` = whitelist;
   * - timeshift create: `Y` = allow listed domains, `N` = deny.
   *
   * Which description is authoritative is not shown; check the behaviour on your account.
   */
  policy?: pulumi.Input<"Y" | "N">;
  /**
   * Host names the lock lists (§4.11 `list`, sent comma-separated), e.g. `player.example.com`
   * or `*.example.com`. Compared as a set, ignoring order, duplicates and case.
   */
  domains?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * IP addresses or CIDR ranges allowed regardless of the domain lock (§4.11 `ips`, sent
   * comma-separated). Compared as a set, ignoring order, duplicates and case.
   */
  ips?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * §4.11 `noreferer`, kept as `"Y" | "N"` because the spec describes it three ways (§2.4):
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

/** The account default as the API holds it (§4.11 settings; §2.4 `domainlock` fields). */
export interface HttpDomainLockDefault {
  enabled: "Y" | "N" | null;
  policy: "Y" | "N" | null;
  noreferer: "Y" | "N" | null;
  /** Comma-separated domains. */
  list: string | null;
  /** Comma-separated IPs / CIDR ranges. */
  ips: string | null;
}

/**
 * The account-wide HTTP zone domain lock (§4.11). There is one per account: the resource id
 * (and import/adopt id) is always `account`.
 *
 * Drift: refresh reads the account default that every mode saves
 * (`GET /v2/zones/http/settings/security/domainlock`, an extension) and reports a changed flag,
 * domain or IP (as sets). It cannot see per-zone values written by `append`/`overwrite`: a zone
 * whose lock is changed out of band afterwards is not reported, and neither is `mode`, which the
 * API does not keep. Where the API has no such read, refresh keeps the last applied state and warns
 * once. The API has no delete: destroying the resource leaves the account default and every
 * zone's lock as they are, and says so.
 */
export class HttpDomainLockBulk extends pulumi.dynamic.Resource {
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
  /** The account default as of the last write or refresh; null where the API has no read for it. */
  declare readonly accountDefault: pulumi.Output<HttpDomainLockDefault | null>;

  constructor(name: string, args: HttpDomainLockBulkArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      require("../provider/shims/http-domain-lock-bulk"),
      name,
      {
        enabled: undefined,
        policy: undefined,
        domains: undefined,
        ips: undefined,
        noreferer: undefined,
        ...args,
        accountDefault: undefined,
      },
      opts,
      "cdnstream",
      "HttpDomainLockBulk",
    );
  }
}
