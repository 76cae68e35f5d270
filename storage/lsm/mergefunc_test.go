package lsm

import (
	"errors"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// kv builds a record of a (k INT, v INT) table.
func kv(kind spec.RowKind, key, seq int, v any) KeyValue {
	return KeyValue{Key: ints(key), Seq: int64(seq), Kind: kind, Value: ints(key, v)}
}

func TestDeduplicateAndFirstRow(t *testing.T) {
	ignoreDelete := map[string]string{"ignore-delete": "true"}
	cases := []struct {
		name    string
		engine  string
		options map[string]string
		records []KeyValue
		want    *KeyValue // nil: no result
		wantErr error
	}{
		{"dedupe last wins", EngineDeduplicate, nil,
			[]KeyValue{kv(0, 1, 1, 10), kv(0, 1, 2, 20)}, ptr(kv(0, 1, 2, 20)), nil},
		{"dedupe delete wins", EngineDeduplicate, nil,
			[]KeyValue{kv(0, 1, 1, 10), kv(3, 1, 2, 10)}, ptr(kv(3, 1, 2, 10)), nil},
		{"dedupe ignore-delete", EngineDeduplicate, ignoreDelete,
			[]KeyValue{kv(0, 1, 1, 10), kv(3, 1, 2, 10), kv(1, 1, 3, 10)}, ptr(kv(0, 1, 1, 10)), nil},
		{"dedupe ignore-delete legacy key", EngineDeduplicate, map[string]string{"deduplicate.ignore-delete": "true"},
			[]KeyValue{kv(0, 1, 1, 10), kv(3, 1, 2, 10)}, ptr(kv(0, 1, 1, 10)), nil},
		{"dedupe only ignored deletes", EngineDeduplicate, ignoreDelete,
			[]KeyValue{kv(3, 1, 1, 10), kv(3, 1, 2, 10)}, nil, nil},
		{"first-row first wins", EngineFirstRow, nil,
			[]KeyValue{kv(0, 1, 1, 10), kv(2, 1, 2, 20)}, ptr(kv(0, 1, 1, 10)), nil},
		{"first-row refuses retractions", EngineFirstRow, nil,
			[]KeyValue{kv(0, 1, 1, 10), kv(3, 1, 2, 10)}, nil, ErrRejectedRecord},
		{"first-row ignore-delete", EngineFirstRow, ignoreDelete,
			[]KeyValue{kv(3, 1, 1, 10), kv(0, 1, 2, 20), kv(1, 1, 3, 20)}, ptr(kv(0, 1, 2, 20)), nil},
		{"first-row ignore-delete legacy key", EngineFirstRow, map[string]string{"first-row.ignore-delete": "true"},
			[]KeyValue{kv(0, 1, 1, 10), kv(3, 1, 2, 10)}, ptr(kv(0, 1, 1, 10)), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := mustEngine(t, newTestSchema(intColumns(2), []string{"f0"}, withEngine(tc.engine, tc.options)))
			mf := e.NewMergeFunction()
			mf.Reset()
			var err error
			for _, r := range tc.records {
				if err = mf.Add(r); err != nil {
					break
				}
			}
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("got error %v, want %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			got, ok := mf.Result()
			if ok != (tc.want != nil) || (ok && !reflect.DeepEqual(got, *tc.want)) {
				t.Fatalf("got %v (ok=%v), want %v", got, ok, tc.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestReducerPassesLoneRecords pins ReducerMergeFunctionWrapper behaviour:
// a key's only record is not seen by the merge function, so a lone
// retraction reaches DropDelete even on first-row, which would refuse it.
func TestReducerPassesLoneRecords(t *testing.T) {
	e := mustEngine(t, newTestSchema(intColumns(2), []string{"f0"}, withEngine(EngineFirstRow, nil)))
	r := reducer{merge: e.NewMergeFunction()}
	r.Reset()
	if err := r.Add(kv(3, 1, 1, 10)); err != nil {
		t.Fatalf("lone retraction: %v", err)
	}
	if got, ok := r.Result(); !ok || got.Kind != spec.RowKindDelete {
		t.Fatalf("got %v %v, want the -D itself", got, ok)
	}
	if err := r.Add(kv(0, 1, 2, 10)); !errors.Is(err, ErrRejectedRecord) {
		t.Fatalf("second record: got %v, want the engine to see and refuse the -D", err)
	}
}

func TestNewEngineOptions(t *testing.T) {
	cols := intColumns(3)
	cases := []struct {
		name    string
		options map[string]string
		wantErr error
	}{
		{"default engine", nil, nil},
		{"engine name case", map[string]string{"merge-engine": "First-Row"}, nil},
		{"unknown engine", map[string]string{"merge-engine": "lookup"}, lakeerr.ErrUnsupported},
		{"sequence field", map[string]string{"sequence.field": "f1, f2", "sequence.field.sort-order": "DESCENDING"}, nil},
		{"unknown sequence field", map[string]string{"sequence.field": "nope"}, ErrInvalidOptions},
		{"repeated sequence field", map[string]string{"sequence.field": "f1,f1"}, ErrInvalidOptions},
		{"aggregated sequence field", map[string]string{"sequence.field": "f1", "fields.f1.aggregate-function": "sum"}, ErrInvalidOptions},
		{"bad sort order", map[string]string{"sequence.field": "f1", "sequence.field.sort-order": "up"}, ErrInvalidOptions},
		{"first-row with sequence field", map[string]string{"merge-engine": "first-row", "sequence.field": "f1"}, ErrInvalidOptions},
		{"bad ignore-delete", map[string]string{"ignore-delete": "1"}, ErrInvalidOptions},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewEngine(newTestSchema(cols, []string{"f0"}, tc.options), compareTestValues)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("got %v, want %v", err, tc.wantErr)
			}
		})
	}
	if _, err := NewEngine(newTestSchema(cols, nil, nil), nil); err == nil {
		t.Fatal("NewEngine without a comparator succeeded")
	}
}

// TestUserSequenceComparator pins the generated comparator's null handling:
// null sorts first in both orders; only non-null comparisons flip.
func TestUserSequenceComparator(t *testing.T) {
	cols := intColumns(3)
	for _, tc := range []struct {
		order string
		a, b  []any
		want  int
	}{
		{"ascending", ints(0, 1, 5), ints(0, 2, 0), -1},
		{"ascending", ints(0, 1, 5), ints(0, 1, 6), -1},
		{"ascending", ints(0, nil, 5), ints(0, 1, 0), -1},
		{"descending", ints(0, 1, 5), ints(0, 2, 0), 1},
		{"descending", ints(0, nil, 5), ints(0, 1, 0), -1},
		{"descending", ints(0, 1, nil), ints(0, 1, 3), -1},
		{"descending", ints(0, nil, nil), ints(0, nil, nil), 0},
	} {
		opts := map[string]string{"sequence.field": "f1,f2", "sequence.field.sort-order": tc.order}
		compare := mustEngine(t, newTestSchema(cols, []string{"f0"}, opts)).UserSequenceComparator()
		if got := compare(tc.a, tc.b); got != tc.want {
			t.Errorf("%s %v vs %v: got %d, want %d", tc.order, tc.a, tc.b, got, tc.want)
		}
	}
	if mustEngine(t, newTestSchema(cols, []string{"f0"}, nil)).UserSequenceComparator() != nil {
		t.Error("a table without sequence.field has a user sequence comparator")
	}
}
