// Command yaml2pcl converts a YAML program to PCL, Pulumi's program language, with the YAML
// language's own converter (github.com/pulumi/pulumi-yaml), the step `pulumi convert --from yaml`
// takes before a language host writes the program in its language. The plugin's schema is read
// from a file instead of from the plugin.
//
//	yaml2pcl <schema.json> <Pulumi.yaml> <out.pp>
//
// It is a module of its own because pulumi-yaml pins an older Pulumi than the SDK generators
// (../go.mod): at the release of the YAML language host the tests run (scripts/ensure-language-yaml),
// it shares that build. `gen-sdks programs` then writes each language from the PCL.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi-yaml/pkg/pulumiyaml"
	yamlgen "github.com/pulumi/pulumi-yaml/pkg/pulumiyaml/codegen"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// ownPackage serves the plugin's bound schema, and refuses any other package.
type ownPackage struct{ pkg *schema.Package }

func (l ownPackage) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	if name != l.pkg.Name {
		return nil, fmt.Errorf("the program uses package %q; only %q is converted here", name, l.pkg.Name)
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
	ctx context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, d.Version)
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "yaml2pcl: error: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return errors.New("usage: yaml2pcl <schema.json> <Pulumi.yaml> <out.pp>")
	}
	schemaPath, yamlPath, out := args[0], args[1], args[2]

	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s is not a package schema: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, nil, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s does not bind: %w", schemaPath, diags)
	}

	source, err := os.ReadFile(yamlPath)
	if err != nil {
		return err
	}
	template, yamlDiags, err := pulumiyaml.LoadYAMLBytes(yamlPath, source)
	if err != nil {
		return err
	}
	if yamlDiags.HasErrors() {
		return fmt.Errorf("%s is not a YAML program: %w", yamlPath, yamlDiags)
	}
	program, convertDiags, err := yamlgen.ConvertTemplateIL(template, ownPackage{pkg})
	for _, d := range convertDiags {
		fmt.Fprintf(os.Stderr, "yaml2pcl: %s\n", d.Error())
	}
	if err != nil {
		return fmt.Errorf("converting %s: %w", yamlPath, err)
	}
	if convertDiags.HasErrors() {
		return fmt.Errorf("converting %s failed (see above)", yamlPath)
	}
	return os.WriteFile(out, []byte(program), 0o644)
}
