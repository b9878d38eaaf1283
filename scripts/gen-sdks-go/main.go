// Command gen-sdks writes the Python and Go SDKs of the provider plugin from its schema with
// Pulumi's own code generators (github.com/pulumi/pulumi/pkg/v3/codegen/python and .../go),
// the code `pulumi package gen-sdk --language python|go` runs inside the pulumi-language-python
// and pulumi-language-go hosts. Those hosts are in no registry this project reaches, so the CLI
// alone can neither generate either language nor convert a program to them (programs.go); this
// program calls the same functions the hosts call, at the CLI's release (go.mod). Its commands:
// usage, below; module-zip (modzip.go) is for scripts/release-go.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"golang.org/x/mod/modfile"
)

// ownPackage serves the plugin's bound schema (pkg) to the program generators, as the plugin
// would for `pulumi convert`, and refuses any other package (every package, with no pkg): the
// schema uses only its own types and Pulumi's built-ins, and no plugin host runs here.
type ownPackage struct{ pkg *schema.Package }

func (l ownPackage) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	if l.pkg == nil || name != l.pkg.Name {
		return nil, fmt.Errorf("the schema refers to package %q; only self-contained schemas are generated here", name)
	}
	return l.pkg, nil
}

func (l ownPackage) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

func (l ownPackage) LoadPackageReference(name string, v *semver.Version) (schema.PackageReference, error) {
	pkg, err := l.LoadPackage(name, v)
	if err != nil {
		return nil, err
	}
	return pkg.Reference(), nil
}

func (l ownPackage) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, d.Version)
}

const usage = `usage:
  gen-sdks sdk <schema.json> <python|go> <out dir>
  gen-sdks programs <schema.json> <program.pp> <out dir>
  gen-sdks module-zip <module dir> <module path> <version> <proxy dir>`

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "gen-sdks: error: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 4 && args[0] == "sdk":
		return generateSDK(args[1], args[2], args[3])
	case len(args) == 4 && args[0] == "programs":
		return generatePrograms(args[1], args[2], args[3])
	case len(args) == 5 && args[0] == "module-zip":
		return writeModuleZip(args[1], args[2], args[3], args[4])
	}
	return errors.New(usage)
}

// loadPackage reads and binds the plugin's schema, as the language hosts do before generating.
func loadPackage(schemaPath string) (*schema.Package, error) {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, fmt.Errorf("%s is not a package schema: %w", schemaPath, err)
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
			return nil, fmt.Errorf("%s has no language.%s section; regenerate it with `npm run gen`", schemaPath, lang)
		}
	}

	pkg, diags, err := schema.BindSpec(spec, ownPackage{}, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s does not bind: %w", schemaPath, diags)
	}
	return pkg, nil
}

// generateSDK writes the SDK of one language into out, emptied first as `pulumi package gen-sdk` does.
func generateSDK(schemaPath, language, out string) error {
	pkg, err := loadPackage(schemaPath)
	if err != nil {
		return err
	}

	var files map[string][]byte
	switch language {
	case "python":
		files, err = pygen.GeneratePackage("pulumi-language-python", pkg, map[string][]byte{}, ownPackage{})
	case "go":
		files, err = gogen.GeneratePackage("pulumi-language-go", pkg, map[string]string{})
		if err == nil {
			files["go.mod"], err = requireGeneratorSDK(files["go.mod"])
		}
	default:
		return fmt.Errorf("language must be python or go, not %q", language)
	}
	if err != nil {
		return err
	}
	return writeFiles(out, files)
}

// writeFiles replaces dir with files (by their paths relative to it).
func writeFiles(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for name, data := range files {
		target := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// pulumiGoSDK is the module of Pulumi's Go SDK, which the generated Go SDK imports.
const pulumiGoSDK = "github.com/pulumi/pulumi/sdk/v3"

// requireGeneratorSDK makes the generated go.mod ask for the Pulumi Go SDK of the generators'
// own release. The Go generator writes a fixed floor (v3.30.0) whatever code it writes, and the
// code of this release calls functions that floor lacks; the release is the one go.mod pins here,
// read from this binary's build information so that it is stated once. scripts/gen-sdks then
// completes the requirements with `go mod tidy`.
func requireGeneratorSDK(goMod []byte) ([]byte, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil, errors.New("this binary carries no build information to read the Pulumi Go SDK release from")
	}
	version := ""
	for _, dep := range info.Deps {
		if dep.Path == pulumiGoSDK {
			version = dep.Version
			if dep.Replace != nil {
				version = dep.Replace.Version
			}
		}
	}
	if version == "" {
		return nil, fmt.Errorf("this binary was built without %s, so its release is unknown", pulumiGoSDK)
	}
	file, err := modfile.Parse("go.mod", goMod, nil)
	if err != nil {
		return nil, fmt.Errorf("the generated go.mod does not parse: %w", err)
	}
	if err := file.AddRequire(pulumiGoSDK, version); err != nil {
		return nil, err
	}
	return modfile.Format(file.Syntax), nil
}
