// Package cdnstream is the Go SDK of pulumi-cdnstream, the Pulumi provider for the CDN,
// live-streaming, ad-insertion and ad-manager API.
//
// Manage the account's zone settings, domain locks, stream statuses, timeshift streams, ad-break
// slots and archived campaigns as code, and read its zones, backups and ad reports through data
// sources. The engine downloads the provider plugin, pulumi-resource-cdnstream, the first time a
// program needs it.
//
// # Install
//
//	go get github.com/cdnstream/pulumi-cdnstream/sdk/go/cdnstream
//
// # Configure
//
//	pulumi config set --secret cdnstream:apiKey <key>    # or CDNSTREAM_API_KEY
//	pulumi config set cdnstream:baseUrl https://…         # or CDNSTREAM_BASE_URL
//
// Every setting, its environment variable and its default:
// https://github.com/cdnstream/pulumi-cdnstream/blob/main/docs/installation-configuration.md
//
// # A first program
//
//	package main
//
//	import (
//		"github.com/cdnstream/pulumi-cdnstream/sdk/go/cdnstream"
//		"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
//	)
//
//	func main() {
//		pulumi.Run(func(ctx *pulumi.Context) error {
//			_, err := cdnstream.NewPushZoneSettings(ctx, "assets", &cdnstream.PushZoneSettingsArgs{
//				ZoneId: pulumi.Int(101),
//				CustomDomains: pulumi.StringArray{
//					pulumi.String("cdn.example.com"),
//				},
//			})
//			if err != nil {
//				return err
//			}
//			return nil
//		})
//	}
package cdnstream
