import pulumi
import pulumi_cdnstream as cdnstream

assets = cdnstream.PushZoneSettings("assets",
    zone_id=101,
    custom_domains=["cdn.example.com"])
vod = cdnstream.VodPullDomainLock("vod",
    zone_id=401,
    enabled=True,
    domains=["player.example.com"])
lock = cdnstream.HttpDomainLockBulk("lock",
    mode="save",
    enabled=True,
    domains=["example.com"])
main = cdnstream.StreamStatus("main",
    stream_kind="push",
    stream_id="1234",
    disabled=False)
delayed = cdnstream.TimeshiftStream("delayed",
    name="main-delayed",
    parent=1234,
    timeshift=300,
    protocols=["HLS"])
preroll = cdnstream.AdBreakSlot("preroll",
    zone_id=301,
    type="preroll",
    max_duration_s=30)
old = cdnstream.CampaignArchive("old",
    project_id=1,
    campaign_id="cmp_7Hq2xK9d")
