package write

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/spec"
)

// The stats a column keeps under each mode, from the values a file holds:
// what Java's TruncateSimpleColStatsCollector, CountsSimpleColStatsCollector,
// NoneSimpleColStatsCollector and FullSimpleColStatsCollector keep of the
// same footer stats.
func TestColumnStatsResult(t *testing.T) {
	trunc := func(n int) spec.StatsMode { return spec.StatsMode{Kind: spec.StatsTruncate, Length: n} }
	t16, full := trunc(16), spec.StatsMode{Kind: spec.StatsFull}
	counts, none := spec.StatsMode{Kind: spec.StatsCounts}, spec.StatsMode{Kind: spec.StatsNone}
	binType := spec.DataType{Root: spec.VarBinary, Nullable: true, Length: spec.MaxVarLength}
	arrayType := spec.DataType{Root: spec.Array, Nullable: true, Element: &stringType}
	rep := strings.Repeat
	ff := func(n int) []byte { return bytes.Repeat([]byte{0xff}, n) }
	unknown := int64(-1)
	tests := []struct {
		name     string
		typ      spec.DataType
		values   []any
		mode     spec.StatsMode
		min, max any
		nulls    int64 // -1: unknown
	}{
		{"16 characters stay whole", stringType, []any{"abcdefghijklmnop"}, t16, "abcdefghijklmnop", "abcdefghijklmnop", 0},
		{"17 characters: min cut, max cut and rounded up", stringType, []any{"abcdefghijklmnopq"}, t16,
			"abcdefghijklmnop", "abcdefghijklmnoq", 0},
		{"bounds from different values", stringType, []any{"apple", nil, "abcdefghijklmnopqrstuvwxyz"}, t16,
			"abcdefghijklmnop", "apple", 1},
		{"truncate(4)", stringType, []any{"hello", "world!"}, trunc(4), "hell", "worm", 0},
		{"2-byte characters count as one", stringType, []any{rep("é", 17)}, t16, rep("é", 16), rep("é", 15) + "ê", 0},
		{"4-byte characters count as one", stringType, []any{rep("😀", 17)}, t16, rep("😀", 16), rep("😀", 15) + "😁", 0},
		{"16 multi-byte characters stay whole", stringType, []any{rep("日", 16)}, t16, rep("日", 16), rep("日", 16), 0},
		{"last code point at U+10FFFF: the one before is incremented", stringType,
			[]any{"a" + rep("\U0010FFFF", 16)}, t16, "a" + rep("\U0010FFFF", 15), "b", 0},
		{"no code point can be incremented: no bounds", stringType, []any{rep("\U0010FFFF", 17), "a"}, t16, nil, nil, 0},
		{"U+D7FF rounds up past the surrogates", stringType, []any{rep("a", 15) + "\uD7FFz"}, t16,
			rep("a", 15) + "\uD7FF", rep("a", 15) + "\uE000", 0},
		{"invalid UTF-8 cannot be rounded up: no bounds", stringType, []any{string(ff(20))}, t16, nil, nil, 0},
		{"binary of 16 bytes stays whole", binType, []any{ff(16)}, t16, ff(16), ff(16), 0},
		{"binary: bytes, not characters", binType, []any{append(bytes.Repeat([]byte{1}, 16), 9)}, t16,
			bytes.Repeat([]byte{1}, 16), append(bytes.Repeat([]byte{1}, 15), 2), 0},
		{"binary: trailing 0xff dropped", binType, []any{append([]byte{1}, ff(16)...)}, t16, append([]byte{1}, ff(15)...), []byte{2}, 0},
		{"binary: all 0xff cannot be rounded up", binType, []any{ff(17)}, t16, nil, nil, 0},
		{"numbers are never cut", bigintType, []any{int64(123456789012345678), int64(-5)}, trunc(1),
			int64(-5), int64(123456789012345678), 0},
		{"all null", stringType, []any{nil, nil}, t16, nil, nil, 2},
		{"full keeps whole strings", stringType, []any{rep("z", 40), nil}, full, rep("z", 40), rep("z", 40), 1},
		{"counts keeps the null count", stringType, []any{"a", nil}, counts, nil, nil, 1},
		{"none keeps nothing", stringType, []any{"a", nil}, none, nil, nil, unknown},
		{"composite columns keep nothing", arrayType, []any{[]any{"a"}, nil}, full, nil, nil, unknown},
	}
	for _, tt := range tests {
		c := newColumnStats(tt.typ)
		for _, v := range tt.values {
			c.observe(v)
		}
		got := c.result(tt.mode)
		nulls := unknown
		if got.nulls != nil {
			nulls = *got.nulls
		}
		if !reflect.DeepEqual(got.min, tt.min) || !reflect.DeepEqual(got.max, tt.max) || nulls != tt.nulls {
			t.Errorf("%s: got %#v..%#v nulls %d, want %#v..%#v nulls %d", tt.name, got.min, got.max, nulls, tt.min, tt.max, tt.nulls)
		}
	}
}

// A table written with default options has the stats Java wrote for the
// same rows: value stats truncate(16), key stats truncate(128) (the _KEY_
// columns are system columns), dense with every column kept. The rows are
// those of the first data file of the Java fixture
// pk_dv_index_in_data_no_external (its README); lakesql writes the table
// without its deletion-vector options, which do not change stats.
func TestDefaultStatsMatchJava(t *testing.T) {
	stringNotNull, intNotNull := notNull(stringType), notNull(intType)
	tt := newTestTable(t, catalog.TableDefinition{
		Fields:        []spec.DataField{field("f0", stringNotNull), field("f1", intNotNull), field("f2", intNotNull), field("f3", doubleType)},
		PartitionKeys: []string{"f1"}, PrimaryKeys: []string{"f0", "f1", "f2"},
		Options: map[string]string{"bucket": "2", "bucket-key": "f2"}})
	w := tt.writer()
	long := "Two roads diverged in a wood, and I took the one less traveled by, And that has made all the difference."
	tt.writeAll(w, []tabletest.Record{tabletest.Insert(long, int32(10), int32(1), 11.0), tabletest.Insert("Alice", int32(10), int32(1), 11.1)})
	msgs := tt.prepare(w)
	if len(msgs) != 1 || len(msgs[0].NewFiles) != 1 {
		t.Fatalf("want one file, got %+v", msgs)
	}
	ours := msgs[0].NewFiles[0]
	java := javaDataFile(t, "paimon-java/pk_dv_index_in_data_no_external", "data-430fa8f2-a4df-42c0-a7c7-c4a86f93f58f-0.parquet")
	if !reflect.DeepEqual(ours.KeyStats, java.KeyStats) || !reflect.DeepEqual(ours.ValueStats, java.ValueStats) ||
		!reflect.DeepEqual(ours.ValueStatsCols, java.ValueStatsCols) {
		t.Errorf("stats differ from Java's:\n ours key %+v value %+v cols %v\n java key %+v value %+v cols %v",
			ours.KeyStats, ours.ValueStats, ours.ValueStatsCols, java.KeyStats, java.ValueStats, java.ValueStatsCols)
	}
}

// javaDataFile finds the ADD entry of a data file in a fixture's manifests.
func javaDataFile(t *testing.T, table, name string) spec.DataFileMeta {
	t.Helper()
	manifests, err := filepath.Glob(filepath.Join(fixtures.TableDir(table), "manifest", "manifest-[0-9a-f]*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range manifests {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := spec.DecodeManifestEntries(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, e := range entries {
			if e.Kind == spec.FileKindAdd && e.File.FileName == name {
				return e.File
			}
		}
	}
	t.Fatalf("%s: no manifest adds %s", table, name)
	return spec.DataFileMeta{}
}

// Table options choose each column's mode; dense stats leave out the
// columns that keep nothing and name the others.
func TestStatsModesFromOptions(t *testing.T) {
	long := strings.Repeat("x", 20)
	fields := []spec.DataField{field("id", notNull(bigintType)), field("name", stringType), field("note", stringType), field("tags",
		spec.DataType{Root: spec.Array, Nullable: true, Element: &stringType})}
	row := []any{int64(1), long, long, []any{"t"}}
	zero := int64(0)
	tests := []struct {
		name    string
		options map[string]string
		cols    []string
		stats   []spec.ColumnStats // of id, name, note, tags
	}{
		{"table full, field none", map[string]string{"metadata.stats-mode": "full", "fields.note.stats-mode": "none"},
			[]string{"id", "name"}, []spec.ColumnStats{{Min: int64(1), Max: int64(1), NullCount: &zero},
				{Min: long, Max: long, NullCount: &zero}, {}, {}}},
		{"field counts and truncate(2), not dense", map[string]string{"metadata.stats-dense-store": "false",
			"fields.name.stats-mode": "counts", "fields.note.stats-mode": "truncate(2)"},
			nil, []spec.ColumnStats{{Min: int64(1), Max: int64(1), NullCount: &zero},
				{NullCount: &zero}, {Min: "xx", Max: "xy", NullCount: &zero}, {}}},
		{"all none", map[string]string{"metadata.stats-mode": "none"}, []string{}, []spec.ColumnStats{{}, {}, {}, {}}},
	}
	for _, tc := range tests {
		tt := newTestTable(t, catalog.TableDefinition{Fields: fields, Options: tc.options})
		w := tt.writer()
		tt.writeAll(w, []tabletest.Record{tabletest.Insert(row...)})
		// Not tt.prepare: its checks expect the default options' stats.
		msgs, err := w.PrepareCommit(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		f := msgs[0].NewFiles[0]
		got, err := spec.DecodeValueStats(f.ValueStats, tt.Schema().Fields, f.ValueStatsCols)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f.ValueStatsCols, tc.cols) || !reflect.DeepEqual(got, tc.stats) {
			t.Errorf("%s: cols %v stats %s\n want cols %v stats %s", tc.name, f.ValueStatsCols, renderStats(got), tc.cols, renderStats(tc.stats))
		}
	}
}

func renderStats(stats []spec.ColumnStats) string {
	var parts []string
	for _, s := range stats {
		parts = append(parts, tabletest.RenderRow([]any{s.Min, s.Max})+" nulls "+renderCount(s.NullCount))
	}
	return strings.Join(parts, "; ")
}

// Compaction output takes the stats mode metadata.stats-mode.per.level
// gives its level, as Java's KeyValueFileWriterFactory does.
func TestCompactionStatsModeOfLevel(t *testing.T) {
	tt := newTestTable(t, catalog.TableDefinition{Fields: []spec.DataField{field("id", bigintType), field("name", stringType)},
		PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "1", "metadata.stats-mode.per.level": "0:full,2:counts"}})
	long := strings.Repeat("n", 20)
	zero := int64(0)
	for _, tc := range []struct {
		level int
		name  spec.ColumnStats
	}{
		{0, spec.ColumnStats{Min: long, Max: long, NullCount: &zero}},
		{1, spec.ColumnStats{Min: long[:16], Max: long[:15] + "o", NullCount: &zero}},
		{2, spec.ColumnStats{NullCount: &zero}},
	} {
		w, err := NewCompactionWriter(CompactionWriterOptions{FileIO: tt.FS, Schema: tt.Schema(),
			BucketDir: tt.dataPath("", 0, ""), Level: tc.level, NewUUID: tt.NewUUID})
		if err != nil {
			t.Fatal(err)
		}
		kv := lsm.KeyValue{Key: []any{int64(1)}, Seq: 1, Kind: spec.RowKindInsert, Value: []any{int64(1), long}}
		if err := w.WriteKeyValue(t.Context(), kv); err != nil {
			t.Fatal(err)
		}
		files, err := w.Finish(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		got, err := spec.DecodeValueStats(files[0].ValueStats, tt.Schema().Fields, files[0].ValueStatsCols)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[1], tc.name) {
			t.Errorf("level %d: name stats %s, want %s", tc.level, renderStats(got[1:]), renderStats([]spec.ColumnStats{tc.name}))
		}
	}
}
