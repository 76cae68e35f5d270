package commit

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestORCKeys reads the primary keys of ORC data files, as the
// write-write check does for a Java-written file.format = orc table: the
// _KEY_ columns of Java's KeyValue layout, or the values of a thin-mode
// file, in key order (testdata/orc, written by pyarrow: see gen.py).
func TestORCKeys(t *testing.T) {
	fileFields := []spec.DataField{
		{ID: 0, Name: "id", Type: spec.DataType{Root: spec.BigInt}},
		{ID: 1, Name: "k", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}},
		{ID: 2, Name: "v", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}},
	}
	keyFields := fileFields[:2]
	mapping, err := schema.NewRowMapping(fileFields, keyFields, schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	keyTypes := []spec.DataType{keyFields[0].Type, keyFields[1].Type}
	c := &Committer{io: localio.New()}
	for _, name := range []string{"keyvalue.orc", "thin.orc"} {
		keys, err := c.orcKeys(context.Background(), filepath.Join("testdata", "orc", name), mapping, keyTypes)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := fmt.Sprint(keys); got != "[[1 a] [2 b] [3 c]]" {
			t.Errorf("%s: keys %s", name, got)
		}
	}
}
