package parquetio

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
)

// The storage layer's files are the Sources the reader is built for.
var _ Source = fileio.File(nil)

// openFixture opens a Parquet file of the bundled fixtures.
func openFixture(t testing.TB, path string) *Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(io.NewSectionReader(f, 0, info.Size()), filepath.Base(path))
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	return r
}

// readAll decodes every row of the requested columns.
func readAll(t testing.TB, r *Reader, columns []ColumnRequest) ([][]any, []int64, error) {
	t.Helper()
	it, err := r.NewRowIterator(columns)
	if err != nil {
		return nil, nil, err
	}
	defer it.Close()
	var rows [][]any
	var positions []int64
	for {
		row, err := it.Next()
		if errors.Is(err, io.EOF) {
			return rows, positions, nil
		}
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, row)
		positions = append(positions, it.Position())
	}
}

// dataFiles lists the Parquet files of a table directory, sorted.
func dataFiles(t testing.TB, tableDir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(tableDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// requestsFor builds requests for every file column typed by the given
// table schema, including the system columns of primary-key files; ok is
// false when a column is not in the schema.
func requestsFor(r *Reader, schema testSchema) ([]ColumnRequest, bool) {
	byName := map[string]spec.DataField{}
	for _, f := range schema.Fields {
		byName[f.Name] = f
	}
	var out []ColumnRequest
	for _, c := range r.Schema() {
		var typ spec.DataType
		switch {
		case c.Name == "_SEQUENCE_NUMBER" || c.Name == "_ROW_ID":
			typ = spec.DataType{Root: spec.BigInt}
		case c.Name == "_VALUE_KIND":
			typ = spec.DataType{Root: spec.TinyInt}
		case strings.HasPrefix(c.Name, "_KEY_"):
			f, ok := byName[strings.TrimPrefix(c.Name, "_KEY_")]
			if !ok {
				return nil, false
			}
			typ = f.Type.WithNullable(false)
		default:
			f, ok := byName[c.Name]
			if !ok {
				return nil, false
			}
			typ = f.Type
		}
		out = append(out, ColumnRequest{Name: c.Name, Type: typ})
	}
	return out, true
}

// TestAllFixtureFilesDecode opens every Java-written data file and decodes
// it completely, once with the column types of a table schema the file
// matches and once with the types inferred from the Parquet schema.
func TestAllFixtureFilesDecode(t *testing.T) {
	tables, err := fixtures.Tables()
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, table := range tables {
		schemas := loadSchemas(t, table.Dir)
		for _, path := range dataFiles(t, table.Dir) {
			files++
			rel, _ := filepath.Rel(fixtures.Root(), path)
			r := openFixture(t, path)
			decodeWithSchema(t, rel, r, schemas)
			decodeInferred(t, rel, r)
		}
	}
	if files < 100 {
		t.Fatalf("found only %d parquet fixture files", files)
	}
}

func decodeWithSchema(t *testing.T, rel string, r *Reader, schemas []testSchema) {
	t.Helper()
	var lastErr error
	for _, s := range schemas {
		requests, ok := requestsFor(r, s)
		if !ok {
			continue
		}
		rows, _, err := readAll(t, r, requests)
		if err == nil {
			if int64(len(rows)) != r.NumRows() {
				t.Errorf("%s: decoded %d rows, footer says %d", rel, len(rows), r.NumRows())
			}
			return
		}
		lastErr = err
	}
	t.Errorf("%s: no table schema decodes the file; last error: %v", rel, lastErr)
}

func decodeInferred(t *testing.T, rel string, r *Reader) {
	t.Helper()
	var requests []ColumnRequest
	for _, c := range r.Schema() {
		if c.Type.Root == 0 {
			t.Errorf("%s: column %s: no inferred type", rel, c.Name)
		}
		requests = append(requests, ColumnRequest{Name: c.Name, Type: c.Type})
	}
	if _, _, err := readAll(t, r, requests); err != nil {
		t.Errorf("%s: inferred types: %v", rel, err)
	}
}
