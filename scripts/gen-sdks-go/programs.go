package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	tsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// programGenerators are the languages a YAML program is converted to, each with the generator
// `pulumi convert --language <name>` runs in that language's host.
var programGenerators = map[string]func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error){
	"python":     pygen.GenerateProgram,
	"go":         gogen.GenerateProgram,
	"typescript": tsgen.GenerateProgram,
}

// generatePrograms writes a PCL program (yaml2pcl's conversion of a YAML one) in each language
// of programGenerators, into <out>/<language>/, as the language hosts do for
// `pulumi convert --from yaml --language <language>` (for the examples of docs/examples.md).
func generatePrograms(schemaPath, pclPath, out string) error {
	pkg, err := loadPackage(schemaPath)
	if err != nil {
		return err
	}
	for _, language := range slices.Sorted(maps.Keys(programGenerators)) {
		// Bound afresh for each language: a generator rewrites the program it is given (Go's
		// wraps an optional argument of an invoke in goOptionalString, which Python's cannot
		// read), as each language host binds its own for `pulumi convert`.
		program, err := bindProgram(pclPath, pkg)
		if err != nil {
			return err
		}
		files, diags, err := programGenerators[language](program)
		if err != nil {
			return fmt.Errorf("generating the %s program: %w", language, err)
		}
		if err := reportDiagnostics(language, diags); err != nil {
			return err
		}
		if err := writeFiles(filepath.Join(out, language), files); err != nil {
			return err
		}
	}
	return nil
}

// reportDiagnostics prints warnings and fails on errors: a program that converts with errors is
// not one to show users.
func reportDiagnostics(what string, diags hcl.Diagnostics) error {
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning {
			fmt.Fprintf(os.Stderr, "gen-sdks: warning: %s: %s\n", what, d.Error())
		}
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s: %w", what, diags.Errs()[0])
	}
	return nil
}

// bindProgram parses and binds the PCL program at pclPath against the plugin's package.
func bindProgram(pclPath string, pkg *schema.Package) (*pcl.Program, error) {
	source, err := os.Open(pclPath)
	if err != nil {
		return nil, err
	}
	defer source.Close()
	parser := syntax.NewParser()
	if err := parser.ParseFile(source, filepath.Base(pclPath)); err != nil {
		return nil, err
	}
	if err := reportDiagnostics(pclPath, parser.Diagnostics); err != nil {
		return nil, err
	}
	program, diags, err := pcl.BindProgram(parser.Files, pcl.Loader(ownPackage{pkg}))
	if err != nil {
		return nil, fmt.Errorf("binding %s: %w", pclPath, err)
	}
	if err := reportDiagnostics(pclPath, diags); err != nil {
		return nil, err
	}
	return program, nil
}
