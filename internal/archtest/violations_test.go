package archtest

import (
	"slices"
	"testing"
)

// The tests of this file feed the checker graphs with known violations:
// a checker that passes the repository because it checks nothing fails
// them.

// TestViolationsReportTheScantestCycle is the layout issue 15 found:
// storage/scan/scantest, a table writer inside storage/scan, imported
// storage/commit, which imports storage/scan. storage/table's tests import
// the helper, which is not a violation by itself.
func TestViolationsReportTheScantestCycle(t *testing.T) {
	graph := []pkg{
		{Path: "storage/spec"},
		{Path: "storage/scan", Imports: []string{module + "/storage/spec"}},
		{Path: "storage/commit", Imports: []string{module + "/storage/scan", module + "/storage/spec"}},
		{Path: "storage/scan/scantest", Imports: []string{module + "/storage/commit", module + "/storage/spec"}},
		{Path: "storage/table", Imports: []string{module + "/storage/scan"},
			TestImports: []string{module + "/storage/scan/scantest", "testing"}},
	}
	want := []string{"storage/scan/scantest (layer storage) imports storage/commit (layer table), a higher layer"}
	if got := repo.violations(graph); !slices.Equal(got, want) {
		t.Fatalf("violations\n %q\nwant\n %q", got, want)
	}
}

// TestViolationsOfEachRule checks each rule on a graph that breaks it, and
// the graph that breaks none.
func TestViolationsOfEachRule(t *testing.T) {
	lease := pkg{Path: "storage/lease", Imports: []string{module + "/storage/fileio"}}
	for _, c := range []struct {
		name  string
		graph []pkg
		want  []string
	}{{
		name: "imports go down, tests reach up through test support",
		graph: []pkg{
			{Path: "storage/fileio"},
			lease,
			{Path: "internal/testkit/leasetest", Imports: []string{module + "/storage/lease"}},
			{Path: "storage/commit", Imports: []string{module + "/storage/lease"},
				TestImports: []string{module + "/internal/testkit/leasetest", module + "/storage/fileio"}},
		},
	}, {
		name:  "a package in no layer",
		graph: []pkg{{Path: "storage/newthing"}},
		want:  []string{"storage/newthing is in no layer: place it in layers"},
	}, {
		name:  "an upward import by a package's files",
		graph: []pkg{{Path: "storage/fileio", Imports: []string{module + "/storage/spec"}}},
		want:  []string{"storage/fileio (layer fileio) imports storage/spec (layer spec), a higher layer"},
	}, {
		name:  "an upward import by tests",
		graph: []pkg{{Path: "storage/table", TestImports: []string{module + "/storage/compact"}}},
		want: []string{"tests of storage/table (layer table) import storage/compact (layer table operations), " +
			"a higher layer: reach it through internal/testkit or test there"},
	}, {
		name:  "test support imported by a package's files",
		graph: []pkg{{Path: "server", Imports: []string{module + "/internal/testkit/servertest"}}},
		want: []string{
			"server (layer server) imports internal/testkit/servertest (layer tests), a higher layer",
			"server imports internal/testkit/servertest: only tests and test support may",
		},
	}, {
		name:  "test support below its importer is still test support",
		graph: []pkg{{Path: "storage/fileio/memio", Imports: []string{module + "/storage/fileio/fileiotest"}}},
		want:  []string{"storage/fileio/memio imports storage/fileio/fileiotest: only tests and test support may"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			if got := repo.violations(c.graph); !slices.Equal(got, c.want) {
				t.Fatalf("violations\n %q\nwant\n %q", got, c.want)
			}
		})
	}
}

// TestAnUpwardEdgeInTheRepositoryFails adds one upward import to the
// repository's real graph, once in a package's files and once in its
// tests, and expects exactly that edge reported.
func TestAnUpwardEdgeInTheRepositoryFails(t *testing.T) {
	for _, c := range []struct {
		name string
		add  func(p *pkg)
		want string
	}{{
		name: "files",
		add:  func(p *pkg) { p.Imports = append(p.Imports, module+"/storage/commit") },
		want: "storage/scan (layer storage) imports storage/commit (layer table), a higher layer",
	}, {
		name: "tests",
		add:  func(p *pkg) { p.TestImports = append(p.TestImports, module+"/storage/commit") },
		want: "tests of storage/scan (layer storage) import storage/commit (layer table), a higher layer: reach it through internal/testkit or test there",
	}} {
		t.Run(c.name, func(t *testing.T) {
			pkgs, err := loadPackages(repoRoot())
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(pkgs, func(p pkg) bool { return p.Path == "storage/scan" })
			if i < 0 {
				t.Fatal("no storage/scan in the graph")
			}
			c.add(&pkgs[i])
			if got := repo.violations(pkgs); !slices.Equal(got, []string{c.want}) {
				t.Fatalf("violations\n %q\nwant\n %q", got, []string{c.want})
			}
		})
	}
}
