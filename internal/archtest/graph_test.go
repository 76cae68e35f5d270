package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// loadPackages parses the imports of every Go file of the repository,
// whatever its build constraints, and groups them by package directory.
// Parsing the files, rather than asking go list, makes the go test cache
// rerun the tests whenever a source file changes.
func loadPackages(root string) ([]pkg, error) {
	byPath := map[string]*pkg{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return skipDir(root, path, d.Name())
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		return addFile(byPath, root, path)
	})
	if err != nil {
		return nil, err
	}
	var out []pkg
	for _, p := range byPath {
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b pkg) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// skipDir skips what holds no package of the repository: test data and
// hidden or vendored directories.
func skipDir(root, path, name string) error {
	if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
		return filepath.SkipDir
	}
	return nil
}

// addFile records the imports of one file under its package.
func addFile(byPath map[string]*pkg, root, path string) error {
	file, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, filepath.Dir(path))
	if err != nil {
		return err
	}
	rel = filepath.ToSlash(rel)
	p := byPath[rel]
	if p == nil {
		p = &pkg{Path: rel}
		byPath[rel] = p
	}
	for _, imp := range file.Imports {
		dep := strings.Trim(imp.Path.Value, `"`)
		if strings.HasSuffix(path, "_test.go") {
			p.TestImports = append(p.TestImports, dep)
		} else {
			p.Imports = append(p.Imports, dep)
		}
	}
	return nil
}
