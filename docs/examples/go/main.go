package main

import (
	"github.com/cdnstream/pulumi-cdnstream/sdk/go/cdnstream"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		_, err := cdnstream.NewPushZoneSettings(ctx, "assets", &cdnstream.PushZoneSettingsArgs{
			ZoneId: pulumi.Int(101),
			CustomDomains: pulumi.StringArray{
				pulumi.String("cdn.example.com"),
			},
		})
		if err != nil {
			return err
		}
		_, err = cdnstream.NewVodPullDomainLock(ctx, "vod", &cdnstream.VodPullDomainLockArgs{
			ZoneId:  pulumi.Int(401),
			Enabled: pulumi.Bool(true),
			Domains: pulumi.StringArray{
				pulumi.String("player.example.com"),
			},
		})
		if err != nil {
			return err
		}
		_, err = cdnstream.NewHttpDomainLockBulk(ctx, "lock", &cdnstream.HttpDomainLockBulkArgs{
			Mode:    pulumi.String("save"),
			Enabled: pulumi.Bool(true),
			Domains: pulumi.StringArray{
				pulumi.String("example.com"),
			},
		})
		if err != nil {
			return err
		}
		_, err = cdnstream.NewStreamStatus(ctx, "main", &cdnstream.StreamStatusArgs{
			StreamKind: pulumi.String("push"),
			StreamId:   pulumi.String("1234"),
			Disabled:   pulumi.Bool(false),
		})
		if err != nil {
			return err
		}
		_, err = cdnstream.NewTimeshiftStream(ctx, "delayed", &cdnstream.TimeshiftStreamArgs{
			Name:      pulumi.String("main-delayed"),
			Parent:    pulumi.Int(1234),
			Timeshift: pulumi.Int(300),
			Protocols: pulumi.StringArray{
				pulumi.String("HLS"),
			},
		})
		if err != nil {
			return err
		}
		_, err = cdnstream.NewAdBreakSlot(ctx, "preroll", &cdnstream.AdBreakSlotArgs{
			ZoneId:       pulumi.Int(301),
			Type:         pulumi.String("preroll"),
			MaxDurationS: pulumi.Int(30),
		})
		if err != nil {
			return err
		}
		_, err = cdnstream.NewCampaignArchive(ctx, "old", &cdnstream.CampaignArchiveArgs{
			ProjectId:  pulumi.Int(1),
			CampaignId: pulumi.String("cmp_7Hq2xK9d"),
		})
		if err != nil {
			return err
		}
		return nil
	})
}
