package write

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

func TestInvalidRowsAreRefused(t *testing.T) {
	tt := newTestTable(t, catalog.TableDefinition{
		Fields: []spec.DataField{field("id", bigintType), field("v", notNull(stringType)),
			field("price", spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 5, Scale: 2})},
		PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "1"},
	})
	w := tt.writer()
	cases := []struct {
		name string
		row  []any
		kind spec.RowKind
		want string
	}{
		{"arity", []any{int64(1), "x"}, spec.RowKindInsert, "2 values for the 3 columns"},
		{"go type", []any{"1", "x", nil}, spec.RowKindInsert, "column id: a Go string for a column of type BIGINT NOT NULL"},
		{"null primary key", []any{nil, "x", nil}, spec.RowKindInsert, "column id: NULL in a NOT NULL column"},
		{"null not-null column", []any{int64(1), nil, nil}, spec.RowKindInsert, "column v: NULL in a NOT NULL column"},
		{"decimal scale", []any{int64(1), "x", spec.NewDecimal(1, 3)}, spec.RowKindInsert, "column price: decimal 0.001 has scale 3"},
		{"decimal precision", []any{int64(1), "x", spec.NewDecimal(100000, 2)}, spec.RowKindInsert, "column price: decimal 1000.00 overflows"},
		{"row kind", []any{int64(1), "x", nil}, spec.RowKind(9), "unknown row kind"},
	}
	for _, c := range cases {
		err := w.Write(context.Background(), c.row, c.kind)
		if !errors.Is(err, ErrInvalidRow) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrInvalidRow mentioning %q", c.name, err, c.want)
		}
	}
	// A refused row leaves the writer usable.
	tt.commit(tt.prepare(tt.writerWith(w, []any{int64(1), "x", spec.NewDecimal(12345, 2)})))
	assertRows(t, "rows", tt.Read(), []string{"1|x|123.45"})
}

func (tt *testTable) writerWith(w *TableWriter, row []any) *TableWriter {
	tt.T.Helper()
	if err := w.Write(context.Background(), row, spec.RowKindInsert); err != nil {
		tt.T.Fatal(err)
	}
	return w
}

func TestAppendTableRefusesRetractions(t *testing.T) {
	tt := newTestTable(t, catalog.TableDefinition{Fields: []spec.DataField{field("id", bigintType)}})
	err := tt.writer().Write(context.Background(), []any{int64(1)}, spec.RowKindDelete)
	if !errors.Is(err, ErrInvalidRow) {
		t.Fatalf("error %v, want ErrInvalidRow", err)
	}
}

func TestIgnoreDeleteDropsRetractions(t *testing.T) {
	tt := newTestTable(t, catalog.TableDefinition{Fields: []spec.DataField{field("id", bigintType), field("v", stringType)},
		PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "1", "ignore-delete": "true"}})
	tt.writeCommit(tt.writer(), []tabletest.Record{tabletest.Insert(int64(1), "a"), tabletest.Delete(int64(1), "a"), tabletest.Retract(int64(1), "a")})
	assertRows(t, "rows", tt.Read(), []string{"1|a"})
}

func TestBucketCountChanged(t *testing.T) {
	tt := newTestTable(t, catalog.TableDefinition{
		Fields:        []spec.DataField{field("dt", stringType), field("id", bigintType)},
		PartitionKeys: []string{"dt"}, PrimaryKeys: []string{"dt", "id"}, Options: map[string]string{"bucket": "2"},
	})
	tt.writeCommit(tt.writer(), []tabletest.Record{tabletest.Insert("d1", int64(1)), tabletest.Insert("d1", int64(2))})
	tt.AlterOptions(map[string]string{"bucket": "4"})
	err := tt.writer().Write(context.Background(), []any{"d1", int64(3)}, spec.RowKindInsert)
	want := "Try to write partition dt=d1 with a new bucket num 4, but the previous bucket num is 2"
	if !errors.Is(err, ErrBucketCountChanged) || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want ErrBucketCountChanged: %q", err, want)
	}
	// Another partition, and a static overwrite that ignores the old files,
	// are fine.
	tt.writerWith(tt.writer(), []any{"d2", int64(3)})
	opts := tt.options()
	opts.IgnorePreviousFiles = true
	tt.writerWith(tt.open(opts), []any{"d1", int64(3)})
}

// TestUnsupportedTablesAreRefused opens writers on tables as Java may have
// created or altered them (the catalog itself refuses some of these).
func TestUnsupportedTablesAreRefused(t *testing.T) {
	cases := map[string]map[string]string{
		"dynamic bucket":  {"bucket": "-1"},
		"postpone bucket": {"bucket": "-2"},
		"changelog input": {"changelog-producer": "input"},
		"bucket function": {"bucket-function.type": "mod"},
		"row tracking":    {"row-tracking.enabled": "true"},
	}
	for name, options := range cases {
		t.Run(name, func(t *testing.T) {
			tt := newTestTable(t, catalog.TableDefinition{Fields: []spec.DataField{field("id", bigintType)},
				PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "1"}})
			tt.AlterOptions(options)
			_, err := Open(context.Background(), tt.options())
			if !errors.Is(err, lakeerr.ErrUnsupported) {
				t.Fatalf("Open: %v, want lakeerr.ErrUnsupported", err)
			}
		})
	}
	t.Run("vector column", func(t *testing.T) {
		vector := spec.DataType{Root: spec.Array, Vector: true, Length: 4, Nullable: true, Element: &spec.DataType{Root: spec.Float, Nullable: true}}
		tt := newTestTable(t, catalog.TableDefinition{Fields: []spec.DataField{field("id", bigintType), field("v", vector)},
			PrimaryKeys: []string{"id"}, Options: map[string]string{"bucket": "1"}})
		_, err := Open(context.Background(), tt.options())
		if !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), "VECTOR") {
			t.Fatalf("Open: %v, want an unsupported error naming VECTOR", err)
		}
	})
	t.Run("bucketed append is fine", func(t *testing.T) {
		tt := newTestTable(t, catalog.TableDefinition{Fields: []spec.DataField{field("id", bigintType), field("k", intType)},
			Options: map[string]string{"bucket": "3", "bucket-key": "k"}})
		tt.writeCommit(tt.writer(), []tabletest.Record{tabletest.Insert(int64(1), int32(1)), tabletest.Insert(int64(2), int32(2)), tabletest.Insert(int64(3), int32(3))})
		assertRows(t, "rows", tt.Read(), []string{"1|1", "2|2", "3|3"})
	})
}

func TestAbortDeletesUncommittedFiles(t *testing.T) {
	tt := newTestTable(t, spillTableDefinition())
	opts := tt.options()
	opts.MemoryBudget = 1 << 10
	w := tt.open(opts)
	tt.writeAll(w, randomChanges(200, pkModel{}))
	tt.prepare(w)
	tt.writeAll(w, randomChanges(300, pkModel{})) // flushes files before any PrepareCommit
	if !hasDataFiles(tt) {
		t.Fatal("no data files written")
	}
	if err := w.Abort(context.Background()); err != nil {
		t.Fatal(err)
	}
	if hasDataFiles(tt) {
		t.Errorf("data files left after Abort: %v", memFiles(tt))
	}
	if n := countFiles(t, opts.SpillDir); n != 0 {
		t.Errorf("%d spill files left after Abort", n)
	}
}

func hasDataFiles(tt *testTable) bool {
	for _, p := range memFiles(tt) {
		if strings.Contains(p, "/bucket-") {
			return true
		}
	}
	return false
}

// TestFirstRowWriterRefusesRetractions: Java's first-row merge fails on -D
// and -U records unless ignore-delete drops them, so the writer refuses
// them at the row instead of writing a bucket no compaction can merge.
func TestFirstRowWriterRefusesRetractions(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		options := map[string]string{"bucket": "1", "merge-engine": "first-row"}
		if ignore {
			options["first-row.ignore-delete"] = "true"
		}
		tt := newTestTable(t, catalog.TableDefinition{Fields: []spec.DataField{field("id", bigintType)},
			PrimaryKeys: []string{"id"}, Options: options})
		w, err := Open(context.Background(), tt.options())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(context.Background(), []any{int64(1)}, spec.RowKindInsert); err != nil {
			t.Fatal(err)
		}
		err = w.Write(context.Background(), []any{int64(1)}, spec.RowKindDelete)
		if refused := errors.Is(err, lakeerr.ErrUnsupported); refused == ignore {
			t.Fatalf("ignore-delete %v: a -D row gave %v", ignore, err)
		}
		if err := w.Abort(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}
