// Package archtest enforces the dependency direction of the repository:
// server -> sqlbackend/sysprocs -> planner -> storage/table,catalog ->
// storage/* -> storage/spec -> storage/fileio.
package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
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
		module + "/planner",
		module + "/sqlbackend",
		module + "/sysprocs",
		module + "/server",
	},
	"./storage/spec/...": {
		module + "/storage/fileio",
	},
	"./storage/fileio/...": {
		module + "/storage/spec",
	},
	"./planner/...": {
		module + "/sqlbackend",
		module + "/sysprocs",
		module + "/server",
	},
	// The two halves of the SQL layer meet only in server, which hands the
	// procedures to the backend as a go-mysql-server interface.
	"./sysprocs/...": {
		module + "/sqlbackend",
		module + "/server",
	},
	"./sqlbackend/...": {
		module + "/sysprocs",
		module + "/server",
	},
}

// TestDirectImports parses every Go file, so the test result is invalidated by
// the go test cache whenever a source file changes (go list, run below as a
// child process, is invisible to the cache).
func TestDirectImports(t *testing.T) {
	root := repoRoot()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		patterns := patternsOf(filepath.ToSlash(rel))
		if len(patterns) == 0 {
			return nil
		}
		file, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range file.Imports {
			dep := strings.Trim(imp.Path.Value, `"`)
			for _, pattern := range patterns {
				for _, bad := range forbiddenFor[pattern] {
					if dep == bad || strings.HasPrefix(dep, bad+"/") {
						t.Errorf("%s imports %s (forbidden for %s)", rel, dep, pattern)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// patternsOf returns the forbiddenFor patterns covering a file.
func patternsOf(rel string) []string {
	var out []string
	for pattern := range forbiddenFor {
		dir := strings.TrimSuffix(strings.TrimPrefix(pattern, "./"), "/...")
		if strings.HasPrefix(rel, dir+"/") {
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
					if dep == bad || strings.HasPrefix(dep, bad+"/") {
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
