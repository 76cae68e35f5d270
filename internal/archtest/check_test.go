package archtest

import (
	"fmt"
	"slices"
	"strings"
)

// layer is one rank of the stack: the packages of the repository (paths
// relative to the module) in it.
type layer struct {
	name     string
	packages []string
}

// arch is an architecture to check a graph against.
type arch struct {
	layers      []layer
	testSupport []string
}

// pkg is one package of the repository as its files import: Imports are
// the import paths of its non-test files, TestImports those of its _test.go
// files (of the package and of its external _test package).
type pkg struct {
	Path        string // relative to the module, e.g. "storage/scan"
	Imports     []string
	TestImports []string
}

// violations checks the packages against a and returns every violation,
// sorted. It reads nothing but its arguments, so that a test can feed it
// any graph.
//
// The rules: every package has a layer; no import, by a package's files or
// its tests, is of a package in a higher layer, except that tests may
// import test support (their way up the stack); and only test support and
// tests import test support.
func (a arch) violations(pkgs []pkg) []string {
	var out []string
	for _, p := range pkgs {
		rank, ok := a.rank(p.Path)
		if !ok {
			out = append(out, fmt.Sprintf("%s is in no layer: place it in layers", p.Path))
			continue
		}
		for _, dep := range moduleImports(p.Imports) {
			out = append(out, a.checkImport(p.Path, rank, dep)...)
		}
		for _, dep := range moduleImports(p.TestImports) {
			out = append(out, a.checkTestImport(p.Path, rank, dep)...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// checkImport checks an import of a package's non-test files.
func (a arch) checkImport(from string, rank int, dep string) []string {
	var out []string
	if a.isTestSupport(dep) && !a.isTestSupport(from) {
		out = append(out, fmt.Sprintf("%s imports %s: only tests and test support may", from, dep))
	}
	if depRank, ok := a.rank(dep); ok && depRank > rank {
		out = append(out, fmt.Sprintf("%s (layer %s) imports %s (layer %s), a higher layer",
			from, a.layers[rank].name, dep, a.layers[depRank].name))
	}
	return out
}

// checkTestImport checks an import of a package's tests.
func (a arch) checkTestImport(from string, rank int, dep string) []string {
	depRank, ok := a.rank(dep)
	if !ok || depRank <= rank || a.isTestSupport(dep) {
		return nil
	}
	return []string{fmt.Sprintf("tests of %s (layer %s) import %s (layer %s), a higher layer: "+
		"reach it through internal/testkit or test there", from, a.layers[rank].name, dep, a.layers[depRank].name)}
}

// rank returns the index of the layer of path: the layer listing it, or
// else the one listing the nearest directory above it.
func (a arch) rank(path string) (int, bool) {
	best, bestLen := -1, -1
	for i, l := range a.layers {
		for _, p := range l.packages {
			if within(path, p) && len(p) > bestLen {
				best, bestLen = i, len(p)
			}
		}
	}
	return best, best >= 0
}

func (a arch) isTestSupport(path string) bool {
	return slices.ContainsFunc(a.testSupport, func(p string) bool { return within(path, p) })
}

// within reports whether path is dir or a package in a directory under it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+"/")
}

// moduleImports returns the imports of the module's own packages, relative
// to the module.
func moduleImports(imports []string) []string {
	var out []string
	for _, imp := range imports {
		if rel, ok := strings.CutPrefix(imp, module+"/"); ok {
			out = append(out, rel)
		}
	}
	return out
}
