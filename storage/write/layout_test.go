package write

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestLayoutMatchesJava writes a table with the schema of a Java fixture
// and compares the Parquet schema of a file it writes with a Java-written
// file of the fixture: column names, order, field ids, repetition and
// physical and logical types.
func TestLayoutMatchesJava(t *testing.T) {
	cases := []struct {
		fixture string
		row     []any
	}{
		{"paimon-java/pk_table_scan_and_read_mor", []any{"Alice", int32(10), int32(1), 11.5}},
		{"paimon-java/append_10", []any{"Alice", int32(10), int32(1), 11.5}},
		{"paimon-java/parquet_append_table", []any{true, int8(1), int16(2), int32(3), int64(4), float32(5), 6.0, "s", []byte("b"),
			spec.MapValue{Keys: []any{[]any{float32(1)}}, Values: []any{[]any{true, int64(2)}}},
			spec.TimestampValue{Millis: 1, NanoOfMilli: 2}, spec.DateValue(3), spec.NewDecimal(12, 2)}},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			dir := fixtures.TableDir(c.fixture)
			js, err := schema.NewManager(localio.New(), dir, "").Latest(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			tt := newTestTable(t, catalog.TableDefinition{Fields: js.Fields, PartitionKeys: js.PartitionKeys,
				PrimaryKeys: js.PrimaryKeys, Options: js.Options})
			msgs := tt.prepare(tt.writerFor(t, c.row))
			ours, err := tt.FS.ReadFile(context.Background(), tt.filePath(msgs[0], msgs[0].NewFiles[0]))
			if err != nil {
				t.Fatal(err)
			}
			javaFile, err := os.ReadFile(dataFilesUnder(t, dir)[0])
			if err != nil {
				t.Fatal(err)
			}
			compareParquetSchemas(t, parquetSchema(t, ours), parquetSchema(t, javaFile))
		})
	}
}

// writerFor opens a writer and writes one row.
func (tt *testTable) writerFor(t *testing.T, row []any) *TableWriter {
	w := tt.writer()
	if err := w.Write(context.Background(), row, spec.RowKindInsert); err != nil {
		t.Fatal(err)
	}
	return w
}

func parquetSchema(t *testing.T, data []byte) []format.SchemaElement {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return f.Metadata().Schema
}

func compareParquetSchemas(t *testing.T, ours, java []format.SchemaElement) {
	t.Helper()
	if len(ours) != len(java) {
		t.Fatalf("%d schema elements, Java has %d", len(ours), len(java))
	}
	for i := range java {
		o, j := ours[i], java[i]
		got := []any{o.Name, o.Type, o.RepetitionType, o.ConvertedType, o.LogicalType, o.FieldID, o.NumChildren, o.Scale, o.Precision, o.TypeLength}
		want := []any{j.Name, j.Type, j.RepetitionType, j.ConvertedType, j.LogicalType, j.FieldID, j.NumChildren, j.Scale, j.Precision, j.TypeLength}
		if tabletest.RenderRow(got) != tabletest.RenderRow(want) {
			t.Errorf("schema element %d:\n ours %v\n java %v", i, tabletest.RenderRow(got), tabletest.RenderRow(want))
		}
	}
}

// TestManifestSchemaMatchesJava commits files written here and checks that
// the manifest entries carrying them use Java's Avro writer schema, byte
// for byte, as written by Paimon master (the dv-golden fixture).
func TestManifestSchemaMatchesJava(t *testing.T) {
	tt := newTestTable(t, catalog.TableDefinition{Fields: []spec.DataField{field("id", notNull(bigintType)), field("v", stringType)},
		PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "1"}})
	tt.commit(tt.prepare(tt.writerFor(t, []any{int64(1), "x"})))
	var ours string
	for _, p := range memFiles(tt) {
		if strings.Contains(p, "/manifest/manifest-") && !strings.Contains(p, "manifest-list") {
			data, err := tt.FS.ReadFile(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			ours = avroSchemaOf(t, data)
		}
	}
	javaDir := filepath.Join(fixtures.TableDir("paimon-java-dv-golden/test_pk_full_text_golden"), "manifest")
	entries, err := os.ReadDir(javaDir)
	if err != nil {
		t.Fatal(err)
	}
	var java string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "manifest-") && !strings.HasPrefix(e.Name(), "manifest-list") {
			data, err := os.ReadFile(filepath.Join(javaDir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			java = avroSchemaOf(t, data)
			break
		}
	}
	if ours == "" || ours != java {
		t.Fatalf("manifest writer schema differs from Java's:\n ours %s\n java %s", ours, java)
	}
}

// TestParquetLayoutOptions: the table options Java's Parquet writer takes
// (parquet.page.row.count.limit, parquet.block.size) lay out the files
// lakesql writes too, and a value parquet-mr refuses is refused.
func TestParquetLayoutOptions(t *testing.T) {
	fields := []spec.DataField{field("id", notNull(bigintType)), field("name", stringType)}
	tt := newTestTable(t, catalog.TableDefinition{Fields: fields, PrimaryKeys: []string{"id"}, Options: map[string]string{
		"bucket": "1", spec.OptionParquetPageRowLimit: "1000", spec.OptionParquetBlockSize: "65536"}})
	var records []tabletest.Record
	for i := range 20_000 {
		records = append(records, tabletest.Insert(int64(i), fmt.Sprintf("name %d", i)))
	}
	msgs := tt.writeCommit(tt.writer(), records)
	r := tt.openDataFile(tt.filePath(msgs[0], msgs[0].NewFiles[0]))
	groups := r.RowGroups()
	if len(groups) < 2 {
		t.Errorf("%d row groups under parquet.block.size 65536", len(groups))
	}
	for g, group := range groups {
		pages, ok, err := r.PageStats(g, parquetio.ColumnRequest{Name: "id", Type: notNull(bigintType)})
		if err != nil || !ok {
			t.Fatalf("row group %d: page stats %v, %v", g, ok, err)
		}
		for i, p := range pages {
			end := group.NumRows
			if i+1 < len(pages) {
				end = pages[i+1].FirstRow
			}
			if end-p.FirstRow > 1000 {
				t.Errorf("row group %d, page %d holds %d rows under parquet.page.row.count.limit 1000", g, i, end-p.FirstRow)
			}
		}
	}
	bad := newTestTable(t, catalog.TableDefinition{Fields: fields, PrimaryKeys: []string{"id"}, Options: map[string]string{
		"bucket": "1", spec.OptionParquetPageRowLimit: "0"}})
	if _, err := Open(context.Background(), bad.options()); err == nil || !strings.Contains(err.Error(), spec.OptionParquetPageRowLimit) {
		t.Errorf("parquet.page.row.count.limit 0: %v, want an error naming the option", err)
	}
}
