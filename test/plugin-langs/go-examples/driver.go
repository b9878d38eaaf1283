// Command driver previews the Go example (docs/examples/go/main.go) as written, run through
// Pulumi's Go Automation API as an inline program, for test/e2e/examples-languages.test.ts.
//
// The test puts this file and the example into one package, in a module with the requirements of
// test/plugin-langs/go, renaming the example's main to example and its pulumi.Run to run, which
// only keeps the program it is given: the program then runs inline here, where no Go language
// host is needed to launch it.
//
//	driver preview
//
// The stack comes as JSON in CDNSTREAM_EXAMPLES_SPEC: {"project", "stack", "workDir", "apiKey",
// "baseUrl"}; the account is the stack's provider configuration (cdnstream:apiKey, as a secret,
// and cdnstream:baseUrl), which the example's resources take through the default provider. The
// engine's output goes to stderr; the last stdout line is the preview's change summary as JSON.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// exampleProgram is the program the example hands to run.
var exampleProgram pulumi.RunFunc

// run stands in for pulumi.Run in the example: it keeps the program for the inline stack.
func run(body pulumi.RunFunc, _ ...pulumi.RunOption) {
	exampleProgram = body
}

type spec struct {
	Project string `json:"project"`
	Stack   string `json:"stack"`
	WorkDir string `json:"workDir"`
	APIKey  string `json:"apiKey"`
	BaseURL string `json:"baseUrl"`
}

func preview() (map[string]any, error) {
	var s spec
	if err := json.Unmarshal([]byte(os.Getenv("CDNSTREAM_EXAMPLES_SPEC")), &s); err != nil {
		return nil, fmt.Errorf("CDNSTREAM_EXAMPLES_SPEC is not the driver's JSON spec: %w", err)
	}
	example()
	if exampleProgram == nil {
		return nil, errors.New("the example handed no program to pulumi.Run")
	}
	ctx := context.Background()
	stack, err := auto.UpsertStackInlineSource(ctx, s.Stack, s.Project, exampleProgram,
		auto.WorkDir(s.WorkDir),
		auto.Project(workspace.Project{Name: tokens.PackageName(s.Project), Runtime: workspace.NewProjectRuntimeInfo("go", nil)}),
	)
	if err != nil {
		return nil, err
	}
	if err := stack.SetConfig(ctx, "cdnstream:apiKey", auto.ConfigValue{Value: s.APIKey, Secret: true}); err != nil {
		return nil, err
	}
	if err := stack.SetConfig(ctx, "cdnstream:baseUrl", auto.ConfigValue{Value: s.BaseURL}); err != nil {
		return nil, err
	}
	result, err := stack.Preview(ctx, optpreview.ProgressStreams(os.Stderr))
	if err != nil {
		return nil, err
	}
	return map[string]any{"changes": result.ChangeSummary}, nil
}

func main() {
	if len(os.Args) != 2 || os.Args[1] != "preview" {
		fmt.Fprintln(os.Stderr, "usage: driver preview")
		os.Exit(2)
	}
	result, err := preview()
	if err != nil {
		fmt.Fprintf(os.Stderr, "driver preview: %v\n", err)
		os.Exit(1)
	}
	text, err := json.Marshal(result)
	if err != nil {
		fmt.Fprintf(os.Stderr, "driver preview: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(string(text))
}
