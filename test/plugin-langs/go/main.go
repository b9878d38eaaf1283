// Command driver is a Go program using the generated Go SDK (sdk/go), run through Pulumi's Go
// Automation API as an inline program, for the end-to-end suite test/e2e/plugin-go.test.ts.
//
//	driver up|preview|refresh|import|destroy|export
//
// What to declare comes as JSON in CDNSTREAM_DRIVER_SPEC (the same document the Python driver,
// test/plugin-langs/python/driver.py, reads). The backend and passphrase come from the
// environment. The engine's output goes to stderr; the last stdout line is one JSON object (the
// change summary, and the stack's outputs or its cdnstream resources; for export, the stack's
// deployment) for the test to assert on.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/cdnstream/pulumi-cdnstream/sdk/go/cdnstream"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type stream struct {
	ID         string `json:"id"`
	StreamKind string `json:"streamKind"`
	StreamID   string `json:"streamId"`
	Disabled   bool   `json:"disabled"`
}

type spec struct {
	Project string  `json:"project"`
	Stack   string  `json:"stack"`
	WorkDir string  `json:"workDir"`
	APIKey  string  `json:"apiKey"`
	BaseURL string  `json:"baseUrl"`
	Stream  stream  `json:"stream"`
	Import  *stream `json:"import"`
}

func program(s spec) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		// An explicit provider: its address is the program's to choose; without an "apiKey" in the
		// spec the key is the environment's (CDNSTREAM_API_KEY), which the provider reads itself.
		args := &cdnstream.ProviderArgs{BaseUrl: pulumi.StringPtr(s.BaseURL)}
		if s.APIKey != "" {
			args.ApiKey = pulumi.StringPtr(s.APIKey)
		}
		provider, err := cdnstream.NewProvider(ctx, "account", args)
		if err != nil {
			return err
		}
		status, err := cdnstream.NewStreamStatus(ctx, "live", &cdnstream.StreamStatusArgs{
			StreamKind: pulumi.String(s.Stream.StreamKind),
			StreamId:   pulumi.String(s.Stream.StreamID),
			Disabled:   pulumi.Bool(s.Stream.Disabled),
		}, pulumi.Provider(provider))
		if err != nil {
			return err
		}
		ctx.Export("id", status.ID())
		ctx.Export("status", status.Status)
		ctx.Export("disabled", status.Disabled)
		ctx.Export("name", status.Name)

		// The data source through the same account; the test counts its API call. (Only that it
		// resolves is exported: which fields its result declares is the schema's to say.)
		zones := cdnstream.GetDnsZonesOutput(ctx, cdnstream.GetDnsZonesOutputArgs{}, pulumi.Provider(provider))
		ctx.Export("dnsZoneDomains", zones.Domains().ApplyT(func(all []cdnstream.DnsZone) []string {
			domains := []string{}
			for _, zone := range all {
				if zone.Domain != nil {
					domains = append(domains, *zone.Domain)
				}
			}
			return domains
		}))
		// The same data source through the default provider, configured by the environment alone.
		defaultZones := cdnstream.GetDnsZonesOutput(ctx, cdnstream.GetDnsZonesOutputArgs{})
		ctx.Export("defaultDnsZoneCount", defaultZones.Domains().ApplyT(func(all []cdnstream.DnsZone) int {
			return len(all)
		}))

		if s.Import != nil {
			// The `import` option adopts the live object; once in state the option changes nothing.
			adopted, err := cdnstream.NewStreamStatus(ctx, "adopted", &cdnstream.StreamStatusArgs{
				StreamKind: pulumi.String(s.Import.StreamKind),
				StreamId:   pulumi.String(s.Import.StreamID),
				Disabled:   pulumi.Bool(s.Import.Disabled),
			}, pulumi.Provider(provider), pulumi.Import(pulumi.ID(s.Import.ID)))
			if err != nil {
				return err
			}
			ctx.Export("adoptedId", adopted.ID())
			ctx.Export("adoptedDisabled", adopted.Disabled)
		}
		return nil
	}
}

// cdnstreamResources is the stack's cdnstream resources as recorded (secret outputs left out), by name.
func cdnstreamResources(ctx context.Context, stack auto.Stack) (map[string]map[string]any, error) {
	exported, err := stack.Export(ctx)
	if err != nil {
		return nil, err
	}
	var deployment struct {
		Resources []struct {
			URN     string         `json:"urn"`
			Type    string         `json:"type"`
			Outputs map[string]any `json:"outputs"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(exported.Deployment, &deployment); err != nil {
		return nil, err
	}
	found := map[string]map[string]any{}
	for _, res := range deployment.Resources {
		if !strings.HasPrefix(res.Type, "cdnstream:index:") {
			continue
		}
		outputs := map[string]any{}
		for k, v := range res.Outputs {
			if _, secret := v.(map[string]any); !secret {
				outputs[k] = v
			}
		}
		parts := strings.Split(res.URN, "::")
		found[parts[len(parts)-1]] = outputs
	}
	return found, nil
}

func run(verb string) (map[string]any, error) {
	var s spec
	if err := json.Unmarshal([]byte(os.Getenv("CDNSTREAM_DRIVER_SPEC")), &s); err != nil {
		return nil, fmt.Errorf("CDNSTREAM_DRIVER_SPEC is not the driver's JSON spec: %w", err)
	}
	if verb == "import" && s.Import == nil {
		return nil, errors.New(`the "import" verb needs "import" in CDNSTREAM_DRIVER_SPEC: the id and inputs of the object to adopt`)
	}
	ctx := context.Background()
	stack, err := auto.UpsertStackInlineSource(ctx, s.Stack, s.Project, program(s),
		auto.WorkDir(s.WorkDir),
		auto.Project(workspace.Project{Name: tokens.PackageName(s.Project), Runtime: workspace.NewProjectRuntimeInfo("go", nil)}),
	)
	if err != nil {
		return nil, err
	}

	result := map[string]any{"verb": verb}
	switch verb {
	case "up", "import":
		up, err := stack.Up(ctx, optup.ProgressStreams(os.Stderr))
		if err != nil {
			return nil, err
		}
		result["changes"] = up.Summary.ResourceChanges
		outputs := map[string]any{}
		for k, v := range up.Outputs {
			if v.Secret {
				outputs[k] = "[secret]"
			} else {
				outputs[k] = v.Value
			}
		}
		result["outputs"] = outputs
	case "preview":
		preview, err := stack.Preview(ctx, optpreview.ProgressStreams(os.Stderr))
		if err != nil {
			return nil, err
		}
		result["changes"] = preview.ChangeSummary
	case "refresh":
		refresh, err := stack.Refresh(ctx, optrefresh.ProgressStreams(os.Stderr))
		if err != nil {
			return nil, err
		}
		result["changes"] = refresh.Summary.ResourceChanges
		if result["resources"], err = cdnstreamResources(ctx, stack); err != nil {
			return nil, err
		}
	case "destroy":
		destroy, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stderr))
		if err != nil {
			return nil, err
		}
		result["changes"] = destroy.Summary.ResourceChanges
		if result["resources"], err = cdnstreamResources(ctx, stack); err != nil {
			return nil, err
		}
	case "export":
		exported, err := stack.Export(ctx)
		if err != nil {
			return nil, err
		}
		result["changes"] = map[string]int{}
		result["deployment"] = exported.Deployment
	}
	return result, nil
}

func main() {
	verbs := []string{"up", "preview", "refresh", "import", "destroy", "export"}
	if len(os.Args) != 2 || !contains(verbs, os.Args[1]) {
		fmt.Fprintf(os.Stderr, "usage: driver %s\n", strings.Join(verbs, "|"))
		os.Exit(2)
	}
	result, err := run(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "driver %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	text, err := json.Marshal(result)
	if err != nil {
		fmt.Fprintf(os.Stderr, "driver %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	fmt.Println(string(text))
}

func contains(list []string, s string) bool {
	for _, item := range list {
		if item == s {
			return true
		}
	}
	return false
}
