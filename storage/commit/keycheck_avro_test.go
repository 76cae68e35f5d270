package commit

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/storage/avroio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestAvroKeys reads the primary keys of Java-written Avro data files, as
// the write-write check does for a file.format = avro table: the _KEY_
// columns of the KeyValue layout, or the value columns of a thin-mode
// file. Each file's keys must be its rows' key value columns, sorted.
func TestAvroKeys(t *testing.T) {
	str := spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}
	for _, tc := range []struct {
		dir  string
		file []spec.DataField // the file's value columns
		keys int              // how many of them are the trimmed key
	}{
		{"keyvalue", []spec.DataField{{ID: 1, Name: "id", Type: spec.DataType{Root: spec.Int}}, {ID: 2, Name: "v", Type: str.WithNullable(true)}}, 1},
		{"thin", []spec.DataField{{ID: 0, Name: "id", Type: spec.DataType{Root: spec.BigInt}}, {ID: 1, Name: "k2", Type: str}, {ID: 2, Name: "v", Type: str.WithNullable(true)}}, 2},
	} {
		keyFields := tc.file[:tc.keys]
		mapping, err := schema.NewRowMapping(tc.file, keyFields, schema.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var keyTypes []spec.DataType
		for _, f := range keyFields {
			keyTypes = append(keyTypes, f.Type)
		}
		files, _ := filepath.Glob(filepath.Join("testdata", "avro", tc.dir, "*.avro"))
		if len(files) == 0 {
			t.Fatalf("no files in testdata/avro/%s", tc.dir)
		}
		c := &Committer{io: localio.New()}
		for _, p := range files {
			keys, err := c.avroKeys(context.Background(), p, mapping, keyTypes)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			want := sortedKeys(valueColumns(t, p, keyFields), keyTypes)
			if len(keys) == 0 || fmt.Sprint(keys) != fmt.Sprint(want) {
				t.Errorf("%s: keys %v, want the rows' %v", p, keys, want)
			}
		}
	}
}

// valueColumns reads the value columns fields of every row of an Avro
// data file.
func valueColumns(t *testing.T, p string, fields []spec.DataField) [][]any {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	r, err := avroio.Open(io.NewSectionReader(f, 0, st.Size()), p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	columns := make([]avroio.Column, len(fields))
	for i, fl := range fields {
		columns[i] = avroio.Column{Name: fl.Name, Type: fl.Type}
	}
	it, err := r.NewRowIterator(columns)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var rows [][]any
	for {
		row, err := it.Next()
		if err == io.EOF {
			return slices.Clip(rows)
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
}
