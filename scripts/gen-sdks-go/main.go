// Command gen-sdks writes the Python and Go SDKs of the provider plugin from its schema with
// Pulumi's own code generators (github.com/pulumi/pulumi/pkg/v3/codegen/python and .../go),
// the code `pulumi package gen-sdk --language python|go` runs inside the pulumi-language-python
// and pulumi-language-go hosts. Those hosts are in no registry this project reaches, so the CLI
// alone cannot generate either language; this program calls the same functions the hosts call,
// at the CLI's release (go.mod).
//
//	gen-sdks <schema.json> <python|go> <out dir>
//
// The out dir is emptied first, as `pulumi package gen-sdk` does.
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
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// selfContained refuses references to other packages: the plugin's schema uses only its own
// types and Pulumi's built-ins, and no plugin host runs here to load another package's schema.
type selfContained struct{}

func (selfContained) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; only self-contained schemas are generated here", pkg)
}

func (selfContained) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; only self-contained schemas are generated here", d.Name)
}

func (selfContained) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %q; only self-contained schemas are generated here", pkg)
}

func (selfContained) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %q; only self-contained schemas are generated here", d.Name)
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "gen-sdks: error: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return errors.New("usage: gen-sdks <schema.json> <python|go> <out dir>")
	}
	schemaPath, language, out := args[0], args[1], args[2]

	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s is not a package schema: %w", schemaPath, err)
	}
	if spec.Meta == nil {
		// Each SDK is a package of its own (pyproject.toml, go.mod), as `pulumi package
		// gen-sdk` writes them for a schema that asks for it.
		spec.Meta = &schema.MetadataSpec{SupportPack: true}
	}
	// The language settings (the Python distribution's name, the Go module path, the version the
	// engine asks for) are the schema's own, written by scripts/gen-schema.ts: an SDK generated
	// without them would not match the plugin, so their absence is an error rather than a default.
	for _, lang := range []string{"python", "go"} {
		if _, ok := spec.Language[lang]; !ok {
			return fmt.Errorf("%s has no language.%s section; regenerate it with `npm run gen-schema`", schemaPath, lang)
		}
	}

	// The same binding the language hosts do before generating.
	pkg, diags, err := schema.BindSpec(spec, selfContained{}, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s does not bind: %w", schemaPath, diags)
	}

	var files map[string][]byte
	switch language {
	case "python":
		files, err = pygen.GeneratePackage("pulumi-language-python", pkg, map[string][]byte{}, selfContained{})
	case "go":
		files, err = gogen.GeneratePackage("pulumi-language-go", pkg, map[string]string{})
	default:
		return fmt.Errorf("language must be python or go, not %q", language)
	}
	if err != nil {
		return err
	}

	if err := os.RemoveAll(out); err != nil {
		return err
	}
	for name, data := range files {
		target := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
