// Command schemacheck holds the plugin's schema to Pulumi's own codegen (the module
// github.com/pulumi/pulumi/pkg/v3, at the release of ../go.mod), for test/plugin/codegen.test.ts:
// the schema must bind with no diagnostic at all (an error, a warning or a note), and the SDK of
// each language the package ships is written as `pulumi package gen-sdk` writes it, for the test
// to read: the Node.js SDK's imports and doc comments, and that it type-checks; the doc comments
// of the Python and Go SDKs.
//
//	schemacheck <schema.json> <out dir>    writes <out dir>/{nodejs,python,go}
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	tsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noPackages refuses every other package: the schema uses only its own types and Pulumi's
// built-ins, and no plugin host runs here.
type noPackages struct{}

func (noPackages) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; it must be self-contained", name)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

func (l noPackages) LoadPackageReference(name string, v *semver.Version) (schema.PackageReference, error) {
	_, err := l.LoadPackage(name, v)
	return nil, err
}

func (l noPackages) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, d.Version)
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: schemacheck <schema.json> <out dir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "schemacheck: error: %v\n", err)
		os.Exit(1)
	}
}

// bind reads and binds the schema as the language hosts do, failing on any diagnostic. Each
// language binds its own copy: a generator records its settings in the package it is given.
func bind(schemaPath string) (*schema.Package, error) {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, fmt.Errorf("%s is not a package schema: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if len(diags) > 0 {
		return nil, fmt.Errorf("%s binds with %d diagnostics: %w", schemaPath, len(diags), diags)
	}
	return pkg, nil
}

func run(schemaPath, out string) error {
	generators := map[string]func(*schema.Package) (map[string][]byte, error){
		"nodejs": func(pkg *schema.Package) (map[string][]byte, error) {
			return tsgen.GeneratePackage("pulumi-language-nodejs", pkg, map[string][]byte{}, nil, false, noPackages{})
		},
		"python": func(pkg *schema.Package) (map[string][]byte, error) {
			return pygen.GeneratePackage("pulumi-language-python", pkg, map[string][]byte{}, noPackages{})
		},
		"go": func(pkg *schema.Package) (map[string][]byte, error) {
			return gogen.GeneratePackage("pulumi-language-go", pkg, map[string]string{})
		},
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	for language, generate := range generators {
		pkg, err := bind(schemaPath)
		if err != nil {
			return err
		}
		files, err := generate(pkg)
		if err != nil {
			return fmt.Errorf("generating the %s SDK: %w", language, err)
		}
		for name, data := range files {
			target := filepath.Join(out, language, name)
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(target, data, 0o644); err != nil {
				return err
			}
		}
	}
	if _, err := os.Stat(filepath.Join(out, "nodejs", "package.json")); err != nil {
		return errors.New("the Node.js generator wrote no package.json")
	}
	return nil
}
