package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	modzip "golang.org/x/mod/zip"
)

// writeModuleZip writes the Go module in dir, at version, into proxyDir laid out as the Go module
// proxy serves it (<module>/@v/list, <version>.info, .mod, .zip; https://go.dev/ref/mod#goproxy-protocol),
// so that GOPROXY=file://<proxyDir> serves it to `go get`. The zip is made by golang.org/x/mod/zip,
// the code the go command checks downloaded zips with; the hashes it prints are the go.sum lines a
// user's module will record. The .info time is SOURCE_DATE_EPOCH when set (a release's commit
// time), the current time otherwise.
func writeModuleZip(dir, modulePath, version, proxyDir string) error {
	if err := module.Check(modulePath, version); err != nil {
		return err
	}
	goMod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	declared := modfile.ModulePath(goMod)
	if declared != modulePath {
		return fmt.Errorf("%s/go.mod declares module %q, not %q", dir, declared, modulePath)
	}
	escapedPath, err := module.EscapePath(modulePath)
	if err != nil {
		return err
	}
	escapedVersion, err := module.EscapeVersion(version)
	if err != nil {
		return err
	}
	at := filepath.Join(proxyDir, filepath.FromSlash(escapedPath), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	base := filepath.Join(at, escapedVersion)

	// Written through a temporary file, so a failed run leaves no partial zip.
	zipFile := base + ".zip"
	tmp, err := os.Create(zipFile + ".tmp")
	if err != nil {
		return fmt.Errorf("making the module zip: %w", err)
	}
	err = modzip.CreateFromDir(tmp, module.Version{Path: modulePath, Version: version}, dir)
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), zipFile)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("making the module zip: %w", err)
	}
	if err := os.WriteFile(base+".mod", goMod, 0o644); err != nil {
		return err
	}
	published := time.Now().UTC()
	if epoch := os.Getenv("SOURCE_DATE_EPOCH"); epoch != "" {
		seconds, err := strconv.ParseInt(epoch, 10, 64)
		if err != nil {
			return fmt.Errorf("SOURCE_DATE_EPOCH must be seconds since 1970, not %q", epoch)
		}
		published = time.Unix(seconds, 0).UTC()
	}
	info, err := json.Marshal(struct {
		Version string
		Time    string
	}{version, published.Format(time.RFC3339)})
	if err != nil {
		return err
	}
	if err := os.WriteFile(base+".info", append(info, '\n'), 0o644); err != nil {
		return err
	}
	if err := addToList(filepath.Join(at, "list"), version); err != nil {
		return err
	}

	zipHash, err := dirhash.HashZip(zipFile, dirhash.Hash1)
	if err != nil {
		return err
	}
	modHash, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(goMod)), nil
	})
	if err != nil {
		return err
	}
	fmt.Printf("%s %s %s\n%s %s/go.mod %s\n", modulePath, version, zipHash, modulePath, version, modHash)
	return nil
}

// addToList adds version to the proxy's list of the module's versions, once.
func addToList(list, version string) error {
	text, err := os.ReadFile(list)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	versions := strings.Fields(string(text))
	if slices.Contains(versions, version) {
		return nil
	}
	versions = append(versions, version)
	slices.Sort(versions)
	return os.WriteFile(list, []byte(strings.Join(versions, "\n")+"\n"), 0o644)
}
