package write

import (
	"fmt"
	"math"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

var statsFields = []spec.DataField{
	field("id", bigintType), field("name", stringType), field("price", spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 10, Scale: 2}),
	field("at", spec.DataType{Root: spec.Timestamp, Nullable: true, Precision: 6}), field("raw", spec.DataType{Root: spec.VarBinary, Nullable: true, Length: spec.MaxVarLength}),
	field("ratio", doubleType), field("tags", spec.DataType{Root: spec.Array, Nullable: true, Element: &stringType}),
}

// statsRow is row i of the rolling tests: every column has nulls, strings
// have multi-byte characters, and ratio holds a NaN in some files.
func statsRow(i int) []any {
	row := []any{int64(i), fmt.Sprintf("näme-%03d", (i*37)%101), spec.NewDecimal(int64(i*13%97-40), 2),
		spec.TimestampValue{Millis: int64(1_700_000_000_000 - i*1000), NanoOfMilli: int32(i%7) * 1000},
		[]byte{byte(i * 31), byte(i)}, float64(i%11) - 5, []any{"t", nil}}
	for c := 1; c < len(row); c++ {
		if (i+c)%9 == 0 {
			row[c] = nil
		}
	}
	if i%50 == 17 {
		row[5] = math.NaN()
	}
	return row
}

func TestRollingPrimaryKeyFiles(t *testing.T) {
	tt := newTestTable(t, catalog.TableDefinition{Fields: statsFields, PrimaryKeys: []string{"id"},
		Options: map[string]string{"bucket": "1", "target-file-size": "2 kb"}})
	w := tt.writer()
	for i := range 400 {
		id := (i * 7919) % 400 // shuffled keys
		kind := spec.RowKindInsert
		if id%13 == 0 {
			kind = spec.RowKindDelete
		}
		if err := w.Write(t.Context(), statsRow(id), kind); err != nil {
			t.Fatal(err)
		}
	}
	msgs := tt.prepare(w)
	files := msgs[0].NewFiles
	if len(files) < 3 {
		t.Fatalf("%d files, want several at a 2 kb target", len(files))
	}
	var lastMax []any
	for _, f := range files {
		records := readKeyValues(t, tt, msgs[0], f)
		checkKeyValueFile(t, f, records)
		minKey, maxKey := decodeKey(t, f.MinKey), decodeKey(t, f.MaxKey)
		if lastMax != nil && spec.CompareRows(nil, lastMax, minKey) >= 0 {
			t.Errorf("%s starts at key %v, not after the previous file's %v", f.FileName, minKey, lastMax)
		}
		lastMax = maxKey
	}
}

func decodeKey(t *testing.T, b []byte) []any {
	t.Helper()
	key, err := spec.DeserializeBinaryRow([]spec.DataType{bigintType}, b)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// checkKeyValueFile compares a primary-key file's metadata with its records.
func checkKeyValueFile(t *testing.T, f spec.DataFileMeta, records []parquetio.KeyValue) {
	t.Helper()
	var rows [][]any
	var deletes int64
	minSeq, maxSeq := int64(math.MaxInt64), int64(math.MinInt64)
	for _, kv := range records {
		rows = append(rows, kv.Value)
		if kv.Kind.IsRetract() {
			deletes++
		}
		minSeq, maxSeq = min(minSeq, kv.Seq), max(maxSeq, kv.Seq)
	}
	if f.RowCount != int64(len(records)) || *f.DeleteRowCount != deletes || f.MinSequenceNumber != minSeq || f.MaxSequenceNumber != maxSeq {
		t.Errorf("%s: rows %d deletes %d seq %d..%d, file has %d %d %d..%d", f.FileName, f.RowCount, *f.DeleteRowCount,
			f.MinSequenceNumber, f.MaxSequenceNumber, len(records), deletes, minSeq, maxSeq)
	}
	first, last := records[0].Key, records[len(records)-1].Key
	if tabletest.RenderRow(decodeKey(t, f.MinKey)) != tabletest.RenderRow(first) || tabletest.RenderRow(decodeKey(t, f.MaxKey)) != tabletest.RenderRow(last) {
		t.Errorf("%s: key range %v..%v, records %v..%v", f.FileName, decodeKey(t, f.MinKey), decodeKey(t, f.MaxKey), first, last)
	}
	checkStats(t, f.FileName+" values", f.ValueStats, f.ValueStatsCols, statsFields, rows)
	keys := make([][]any, len(rows))
	for i, r := range rows {
		keys[i] = r[:1]
	}
	checkStats(t, f.FileName+" keys", f.KeyStats, nil, statsFields[:1], keys)
}

// checkStats compares stats (dense when cols is not nil) with the exact
// bounds and null counts of rows; columns with a NaN must have null
// bounds, and nothing is known of composite columns.
func checkStats(t *testing.T, what string, stats spec.SimpleStats, cols []string, fields []spec.DataField, rows [][]any) {
	t.Helper()
	decoded, err := spec.DecodeValueStats(stats, fields, cols)
	if err != nil {
		t.Fatal(err)
	}
	for c, fld := range fields {
		want := exactStats(fld.Type, rows, c)
		got := decoded[c]
		if renderCount(got.NullCount) != renderCount(want.NullCount) ||
			tabletest.RenderRow([]any{got.Min, got.Max}) != tabletest.RenderRow([]any{want.Min, want.Max}) {
			t.Errorf("%s, column %s: stats %v..%v nulls %s, want %v..%v nulls %s",
				what, fld.Name, got.Min, got.Max, renderCount(got.NullCount), want.Min, want.Max, renderCount(want.NullCount))
		}
	}
}

func exactStats(typ spec.DataType, rows [][]any, c int) spec.ColumnStats {
	var s spec.ColumnStats
	if typ.Root == spec.Array {
		return s
	}
	nulls, bounded := int64(0), true
	for _, r := range rows {
		v := r[c]
		switch {
		case v == nil:
			nulls++
		case isNaN(v):
			bounded = false
		case s.Min == nil:
			s.Min, s.Max = v, v
		default:
			if spec.CompareValues(typ, v, s.Min) < 0 {
				s.Min = v
			}
			if spec.CompareValues(typ, v, s.Max) > 0 {
				s.Max = v
			}
		}
	}
	if !bounded {
		s.Min, s.Max = nil, nil
	}
	s.NullCount = &nulls
	return s
}

func TestRollingAppendFiles(t *testing.T) {
	tt := newTestTable(t, catalog.TableDefinition{Fields: statsFields,
		Options: map[string]string{"target-file-size": "2 kb"}})
	w := tt.writer()
	for i := range 300 {
		if err := w.Write(t.Context(), statsRow(i), spec.RowKindInsert); err != nil {
			t.Fatal(err)
		}
	}
	msgs := tt.prepare(w)
	files := msgs[0].NewFiles
	if len(files) < 3 {
		t.Fatalf("%d files, want several at a 2 kb target", len(files))
	}
	next := int64(0)
	for _, f := range files {
		rows := readRows(t, tt.openDataFile(tt.filePath(msgs[0], f)), statsFields)
		if f.MinSequenceNumber != next || f.MaxSequenceNumber != next+int64(len(rows))-1 || f.RowCount != int64(len(rows)) {
			t.Errorf("%s: sequences %d..%d for %d rows starting at %d", f.FileName, f.MinSequenceNumber, f.MaxSequenceNumber, len(rows), next)
		}
		next += int64(len(rows))
		checkStats(t, f.FileName, f.ValueStats, f.ValueStatsCols, statsFields, rows)
		checkAppendKeyFields(t, f)
	}
	if next != 300 {
		t.Errorf("files hold %d rows, want 300", next)
	}
	tt.commit(msgs)
}

func checkAppendKeyFields(t *testing.T, f spec.DataFileMeta) {
	t.Helper()
	empty := spec.EmptyStats()
	if tabletest.RenderRow([]any{f.MinKey, f.MaxKey, f.KeyStats.MinValues, f.KeyStats.MaxValues, len(f.KeyStats.NullCounts)}) !=
		tabletest.RenderRow([]any{empty.MinValues, empty.MaxValues, empty.MinValues, empty.MaxValues, 0}) || *f.DeleteRowCount != 0 {
		t.Errorf("%s: append file key fields %x %x %+v", f.FileName, f.MinKey, f.MaxKey, f.KeyStats)
	}
}

func renderCount(n *int64) string {
	if n == nil {
		return "unknown"
	}
	return fmt.Sprint(*n)
}
