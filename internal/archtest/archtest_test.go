// Package archtest enforces the dependency direction of the repository:
// the layers of layers_test.go, bottom to top storage/fileio,
// storage/spec, the rest of storage/*, storage/table, catalog and commit,
// the writers and maintenance, planner, the parts of sqlbackend,
// sqlbackend and sysprocs, server, cmd; test support (internal/testkit)
// above them all, imported only by tests. forbiddenFor adds what layers
// cannot say: which outside modules a layer may not use, and which
// packages of one layer must not meet.
package archtest

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/lakesql/lakesql"

// forbiddenFor lists, per package pattern, import path prefixes that must not
// appear anywhere in its transitive dependencies.
var forbiddenFor = map[string][]string{
	"./storage/...": {
		"github.com/dolthub/go-mysql-server",
		"github.com/dolthub/vitess",
	},
	// The codecs are pure: they decode bytes they are given.
	"./storage/spec/...": {
		module + "/storage/fileio",
	},
	// The two halves of the SQL layer meet only in server, which hands the
	// procedures to the backend as a go-mysql-server interface.
	"./sysprocs/...": {
		module + "/sqlbackend",
	},
	"./sqlbackend/...": {
		module + "/sysprocs",
	},
}

// TestDirectImports checks every file's imports, tests' included, against
// forbiddenFor.
func TestDirectImports(t *testing.T) {
	pkgs, err := loadPackages(repoRoot())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for _, pattern := range patternsOf(p.Path) {
			for _, dep := range append(p.Imports, p.TestImports...) {
				for _, bad := range forbiddenFor[pattern] {
					if within(dep, bad) {
						t.Errorf("%s imports %s (forbidden for %s)", p.Path, dep, pattern)
					}
				}
			}
		}
	}
}

// patternsOf returns the forbiddenFor patterns covering a package.
func patternsOf(path string) []string {
	var out []string
	for pattern := range forbiddenFor {
		if within(path, strings.TrimSuffix(strings.TrimPrefix(pattern, "./"), "/...")) {
			out = append(out, pattern)
		}
	}
	return out
}

func TestDependencyDirection(t *testing.T) {
	for pattern, forbidden := range forbiddenFor {
		for pkg, deps := range dependencies(t, pattern) {
			for _, dep := range deps {
				for _, bad := range forbidden {
					if within(dep, bad) {
						t.Errorf("%s depends on %s (forbidden for %s)", pkg, dep, pattern)
					}
				}
			}
		}
	}
}

// dependencies maps each package matching pattern to its transitive imports.
// A pattern that matches no package yet maps to nothing.
func dependencies(t *testing.T, pattern string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, pattern)
	cmd.Dir = repoRoot()
	out, err := cmd.CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "matched no packages") {
			return nil
		}
		t.Fatalf("go list %s: %v\n%s", pattern, err, out)
	}
	result := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 0 && strings.HasPrefix(fields[0], module) {
			result[fields[0]] = fields[1:]
		}
	}
	return result
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// TestLayers checks the repository against its layers.
func TestLayers(t *testing.T) {
	pkgs, err := loadPackages(repoRoot())
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 50 {
		t.Fatalf("found %d packages; the walk missed the repository", len(pkgs))
	}
	for _, v := range repo.violations(pkgs) {
		t.Error(v)
	}
}
