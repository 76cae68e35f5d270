package parquetio

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/parquet-go/parquet-go/format"
)

// The writer's footer schema must match what Java wrote for the same table
// schema, element by element, field ids included (format.SchemaElement
// reads a missing id as 0, so the ids are compared apart).
func TestWriterSchemaMatchesJava(t *testing.T) {
	cases := []struct{ table, file string }{
		{"paimon-java/parquet_append_table", "bucket-0/data-9ea62f34-1dca-49c1-bf7a-d37303d8fb76-0.parquet"},
		{"paimon-java/append_complex_build_in_fieldid", "bucket-0/data-3570e113-9ede-4c86-bf5d-040085424886-0.parquet"},
		{"paimon-java/append_with_cast_timestamp", "bucket-0/data-ac91592e-f1c2-4cbe-adb2-cbfe71764ede-0.parquet"},
		{"paimon-java/append_complex_data", "f1=10/bucket-0/data-f8754699-0c43-4e53-be00-7e8af1754913-0.parquet"},
		{"paimon-java/pk_table_scan_and_read_mor", "f1=10/bucket-1/data-7c8140d1-a34f-4634-9814-beb4ff65ebce-0.parquet"},
	}
	for _, c := range cases {
		dir := fixtures.TableDir(c.table)
		schemas := loadSchemas(t, dir)
		schema := schemas[len(schemas)-1]
		fields := schema.Fields
		if len(schema.PrimaryKeys) > 0 {
			layout, err := NewKeyValueLayout(trimmedKeys(schema), fields, false)
			if err != nil {
				t.Fatal(err)
			}
			fields = layout.Fields()
		}
		java := openFixture(t, filepath.Join(dir, c.file)).meta.Schema
		data := writeFile(t, fields, nil, WriterOptions{})
		r, err := Open(bytes.NewReader(data), "parity.parquet")
		if err != nil {
			t.Fatal(err)
		}
		compareSchemas(t, c.table, java, r.meta.Schema)
		javaIDs := footerFieldIDs(t, mustReadFile(t, filepath.Join(dir, c.file)))
		if ours := footerFieldIDs(t, data); !reflect.DeepEqual(ours, javaIDs) {
			t.Errorf("%s field ids:\n java %v\n ours %v", c.table, javaIDs, ours)
		}
	}
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func trimmedKeys(s testSchema) []string {
	var out []string
	for _, k := range s.PrimaryKeys {
		partition := false
		for _, p := range s.Partitions {
			partition = partition || p == k
		}
		if !partition {
			out = append(out, k)
		}
	}
	return out
}

func compareSchemas(t *testing.T, table string, java, ours []format.SchemaElement) {
	t.Helper()
	if len(java) != len(ours) {
		t.Fatalf("%s: %d schema elements, Java has %d", table, len(ours), len(java))
	}
	for i := range java {
		if !reflect.DeepEqual(java[i], ours[i]) {
			t.Errorf("%s element %d:\n java %+v\n ours %+v", table, i, java[i], ours[i])
		}
	}
}
