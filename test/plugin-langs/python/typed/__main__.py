"""A typed Pulumi program on the released Python SDK (the pulumi_cdnstream wheel), for the type
check of test/e2e/plugin-sdk-packages.test.ts: mypy --strict must accept it, with the SDK's own
annotations (the wheel ships py.typed), so a user's editor and checker see the same types.
"""

from typing import List, Optional

import pulumi
import pulumi_cdnstream as cdnstream
from pulumi_cdnstream.outputs import DnsZone

account = cdnstream.Provider("account", base_url="https://api.example.com")
options = pulumi.ResourceOptions(provider=account)

status = cdnstream.StreamStatus("main", stream_kind="push", stream_id="1234", disabled=False, opts=options)
delayed = cdnstream.TimeshiftStream(
    "delayed",
    name="main-delayed",
    parent=1234,
    timeshift=300,
    protocols=["HLS"],
    opts=options,
)
lock = cdnstream.HttpDomainLockBulk(
    "lock",
    args=cdnstream.HttpDomainLockBulkArgs(mode="save", enabled=True, domains=["example.com"]),
    opts=options,
)

disabled: pulumi.Output[bool] = status.disabled
stream_name: pulumi.Output[Optional[str]] = status.name


def domains_of(zones: List[DnsZone]) -> List[str]:
    return [zone.domain for zone in zones if zone.domain is not None]


zones = cdnstream.get_dns_zones_output(opts=pulumi.InvokeOutputOptions(provider=account))
domains: pulumi.Output[List[str]] = zones.domains.apply(domains_of)

pulumi.export("disabled", disabled)
pulumi.export("streamName", stream_name)
pulumi.export("domains", domains)
pulumi.export("lockMode", lock.mode)
pulumi.export("delayedId", delayed.id)
