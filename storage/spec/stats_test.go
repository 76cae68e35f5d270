package spec

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Java writes SimpleStats.EMPTY_STATS as the key stats of every append-table
// file; EmptyStats must be exactly that.
func TestEmptyStatsMatchesJava(t *testing.T) {
	checked := 0
	for _, tb := range fxAvroTables(t) {
		if len(tb.PrimaryKeys) > 0 {
			continue
		}
		for _, s := range tb.statsOfEntries(t) {
			if strings.HasSuffix(s.Where, "key stats") && len(s.Types) == 0 {
				if !reflect.DeepEqual(s.Stats, EmptyStats()) {
					t.Errorf("%s: Java wrote %+v", s.Where, s.Stats)
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d empty stats", checked)
	}
	if cols, err := EmptyStats().Decode(nil); err != nil || len(cols) != 0 {
		t.Errorf("EmptyStats decodes as %v, %v", cols, err)
	}
}

// Decoding every fixture stats record and rebuilding it with NewSimpleStats
// reproduces Java's min/max bytes and null counts exactly.
func TestNewSimpleStatsReproducesJavaStats(t *testing.T) {
	for _, tb := range fxAvroTables(t) {
		for _, s := range tb.statsOfEntries(t) {
			cols, err := s.Stats.Decode(s.Types)
			if err != nil {
				t.Fatalf("%s: %v", s.Where, err)
			}
			min, max, counts := make([]any, len(cols)), make([]any, len(cols)), make([]*int64, len(cols))
			for i, c := range cols {
				min[i], max[i], counts[i] = c.Min, c.Max, c.NullCount
			}
			rebuilt, err := NewSimpleStats(s.Types, min, max, counts)
			if err != nil {
				t.Fatalf("%s: %v", s.Where, err)
			}
			if !bytes.Equal(rebuilt.MinValues, s.Stats.MinValues) || !bytes.Equal(rebuilt.MaxValues, s.Stats.MaxValues) ||
				!reflect.DeepEqual(rebuilt.NullCounts, s.Stats.NullCounts) {
				t.Errorf("%s: rebuilt %+v, Java wrote %+v", s.Where, rebuilt, s.Stats)
			}
		}
	}
}

// Files with _VALUE_STATS_COLS (dense stats) decode onto the full schema:
// listed columns get their stats, the others unknown.
func TestDecodeValueStatsDenseColumns(t *testing.T) {
	checked := 0
	for _, tb := range fxAvroTables(t) {
		for _, e := range tb.manifestEntries(t) {
			file := fxUnwrapUnion(e["_FILE"]).(map[string]any)
			dense := fxStrings(file["_VALUE_STATS_COLS"])
			schema := tb.schemaOfFile(t, file)
			if dense == nil || len(dense) == len(schema.Fields) || fxStrings(file["_WRITE_COLS"]) != nil {
				continue
			}
			stats := fxStatsOf(file["_VALUE_STATS"])
			all, err := DecodeValueStats(stats, schema.Fields, dense)
			if err != nil {
				t.Fatalf("%s: %v", tb.Name, err)
			}
			direct, err := stats.Decode(schema.types(t, dense))
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range schema.Fields {
				want := ColumnStats{}
				if j := statsColumnIndex(dense, f.Name); j >= 0 {
					want = direct[j]
				}
				if !reflect.DeepEqual(all[i], want) {
					t.Errorf("%s column %s: %+v, want %+v", tb.Name, f.Name, all[i], want)
				}
			}
			checked++
		}
	}
	if checked < 3 {
		t.Fatalf("checked only %d dense-stats files", checked)
	}
}

func statsColumnIndex(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func TestDecodeValueStatsEdgeCases(t *testing.T) {
	fields := []DataField{{Name: "a", Type: testIntType}, {Name: "b", Type: testStringType}}
	// _VALUE_STATS_COLS = [] with arity-0 rows: nothing is known.
	all, err := DecodeValueStats(EmptyStats(), fields, []string{})
	if err != nil || !reflect.DeepEqual(all, make([]ColumnStats, 2)) {
		t.Errorf("empty dense stats: %+v, %v", all, err)
	}
	one := int64(1)
	full, err := NewSimpleStats([]DataType{testIntType, testStringType}, []any{int32(1), nil}, []any{int32(9), nil}, []*int64{nil, &one})
	if err != nil {
		t.Fatal(err)
	}
	all, err = DecodeValueStats(full, fields, nil)
	want := []ColumnStats{{Min: int32(1), Max: int32(9)}, {NullCount: &one}}
	if err != nil || !reflect.DeepEqual(all, want) {
		t.Errorf("full stats: %+v, %v", all, err)
	}
	var arityErr *RowArityError
	if _, err := DecodeValueStats(full, fields, []string{"a"}); !errors.As(err, &arityErr) {
		t.Errorf("arity mismatch: %v", err)
	}
	if _, err := DecodeValueStats(full, fields, []string{"a", "zz"}); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("unknown column: %v", err)
	}
	full.NullCounts = full.NullCounts[:1]
	if _, err := full.Decode([]DataType{testIntType, testStringType}); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("short null counts: %v", err)
	}
	full.NullCounts = nil
	if cols, err := full.Decode([]DataType{testIntType, testStringType}); err != nil || cols[1].NullCount != nil {
		t.Errorf("null _NULL_COUNTS: %+v, %v", cols, err)
	}
}

// TestDecodeValueStatsAfterRowTrackingColumns: Java's compaction of a
// row-tracking table writes _ROW_ID and _SEQUENCE_NUMBER as columns and
// keeps their stats after the schema's, without _VALUE_STATS_COLS. The
// schema's stats decode from such a row, also where the two extra columns
// widen the row's null bitset (57 fields and 2: a second 64-bit word).
func TestDecodeValueStatsAfterRowTrackingColumns(t *testing.T) {
	for _, width := range []int{2, 57} {
		var fields []DataField
		var mins, maxs []any
		var nulls []*int64
		for i := range width {
			fields = append(fields, DataField{ID: i, Name: fmt.Sprintf("f%d", i), Type: DataType{Root: Int, Nullable: true}})
			mins, maxs = append(mins, int32(i)), append(maxs, int32(100+i))
			n := int64(i % 3)
			nulls = append(nulls, &n)
		}
		types := typesOfFields(fields)
		for range rowTrackingStats {
			types = append(types, DataType{Root: BigInt})
			mins, maxs = append(mins, int64(0)), append(maxs, int64(1<<40))
			zero := int64(0)
			nulls = append(nulls, &zero)
		}
		stats, err := NewSimpleStats(types, mins, maxs, nulls)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeValueStats(stats, fields, nil)
		if err != nil {
			t.Fatalf("%d fields: %v", width, err)
		}
		if len(got) != width {
			t.Fatalf("%d fields: %d stats", width, len(got))
		}
		for i, c := range got {
			if c.Min != int32(i) || c.Max != int32(100+i) || c.NullCount == nil || *c.NullCount != int64(i%3) {
				t.Fatalf("%d fields, column %d: %+v", width, i, c)
			}
		}
	}
}
