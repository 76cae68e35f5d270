package lsm

import (
	"errors"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// mergeStep is one step of a merge-function script: a record to add, or
// (check) the merged row expected at that point.
type mergeStep struct {
	kind  spec.RowKind
	value []any
	check bool
}

func ins(vs ...any) mergeStep { return mergeStep{kind: spec.RowKindInsert, value: ints(vs...)} }
func del(vs ...any) mergeStep { return mergeStep{kind: spec.RowKindDelete, value: ints(vs...)} }
func ub(vs ...any) mergeStep  { return mergeStep{kind: spec.RowKindUpdateBefore, value: ints(vs...)} }
func want(vs ...any) mergeStep {
	return mergeStep{check: true, value: ints(vs...)}
}

// runSteps feeds a script to a fresh merge function, numbering records from
// sequence 0 like Paimon's merge-function tests.
func runSteps(t *testing.T, mf MergeFunction, steps []mergeStep) {
	t.Helper()
	mf.Reset()
	var seq int64
	for i, s := range steps {
		if !s.check {
			if err := mf.Add(KeyValue{Key: ints(1), Seq: seq, Kind: s.kind, Value: s.value}); err != nil {
				t.Fatalf("step %d: Add: %v", i, err)
			}
			seq++
			continue
		}
		got, ok := mf.Result()
		if !ok || !reflect.DeepEqual(got.Value, s.value) {
			t.Fatalf("step %d: merged %v (ok=%v), want %v", i, got.Value, ok, s.value)
		}
	}
}

// The cases below are PartialUpdateMergeFunctionTest from apache/paimon,
// one script per Java test.
func TestPartialUpdateJavaCases(t *testing.T) {
	cases := []struct {
		name    string
		columns int
		options map[string]string
		steps   []mergeStep
	}{
		{"UpdateNonNull", 7, nil, []mergeStep{
			ins(1, 1, 1, 1, 1, 1, 1), ins(1, 2, 2, 2, 2, 2, nil), want(1, 2, 2, 2, 2, 2, 1),
		}},
		{"SequenceGroup", 7, map[string]string{
			"fields.f3.sequence-group": "f1,f2", "fields.f6.sequence-group": "f4,f5",
		}, []mergeStep{
			ins(1, 1, 1, 1, 1, 1, 1), ins(1, 2, 2, 2, 2, 2, nil), want(1, 2, 2, 2, 1, 1, 1),
			ins(1, 3, 3, 1, 3, 3, 3), want(1, 2, 2, 2, 3, 3, 3),
			del(1, 1, 1, 3, 1, 1, nil), want(1, nil, nil, 3, 3, 3, 3),
			del(1, 1, 1, 3, 1, 1, 4), want(1, nil, nil, 3, nil, nil, 4),
			ins(1, 4, 4, 4, 5, 5, 5), want(1, 4, 4, 4, 5, 5, 5),
			del(1, 1, 1, 6, 1, 1, 6), want(1, nil, nil, 6, nil, nil, 6),
		}},
		{"SequenceGroupPartialDelete", 7, map[string]string{
			"fields.f3.sequence-group": "f1,f2", "fields.f6.sequence-group": "f4,f5",
			"partial-update.remove-record-on-sequence-group": "f6",
		}, []mergeStep{
			ins(1, 1, 1, 1, 1, 1, 1), ins(1, 2, 2, 2, 2, 2, nil), want(1, 2, 2, 2, 1, 1, 1),
			ins(1, 3, 3, 1, 3, 3, 3), want(1, 2, 2, 2, 3, 3, 3),
			del(1, 1, 1, 3, 1, 1, nil), want(1, nil, nil, 3, 3, 3, 3),
			del(1, 1, 1, 3, 1, 1, 4), want(1, 1, 1, 3, 1, 1, 4),
			ins(1, 4, 4, 4, 5, 5, 5), want(1, 4, 4, 4, 5, 5, 5),
			del(1, 1, 1, 6, 1, 1, 6), want(1, 1, 1, 6, 1, 1, 6),
		}},
		{"MultiSequenceFields", 9, map[string]string{
			"fields.f3,f4.sequence-group": "f1,f2", "fields.f7,f8.sequence-group": "f5,f6",
		}, []mergeStep{
			ins(1, 1, 1, 1, 1, 1, 1, 1, 3), ins(1, 2, 2, 2, 2, 2, 1, 1, nil), want(1, 2, 2, 2, 2, 1, 1, 1, 3),
			ins(1, 1, 3, 1, 3, 3, 3, 3, 2), want(1, 2, 2, 2, 2, 3, 3, 3, 2),
			del(1, 1, 1, 3, 3, 1, 1, nil, nil), want(1, nil, nil, 3, 3, 3, 3, 3, 2),
			del(1, 1, 1, 3, 1, 1, 1, 4, 4), want(1, nil, nil, 3, 3, nil, nil, 4, 4),
			ins(1, 4, 4, 4, 4, 5, 5, 5, 5), want(1, 4, 4, 4, 4, 5, 5, 5, 5),
			del(1, 1, 1, 6, 1, 1, 1, 6, 1), want(1, nil, nil, 6, 1, nil, nil, 6, 1),
		}},
		{"MultiSequenceFieldsNullSequence", 9, map[string]string{
			"fields.f3,f4.sequence-group": "f1,f2", "fields.f7,f8.sequence-group": "f5,f6",
		}, []mergeStep{
			ins(1, nil, nil, nil, nil, 1, 1, 1, 3), ins(1, 2, 2, nil, nil, 2, 2, 1, 3),
			want(1, nil, nil, nil, nil, 2, 2, 1, 3),
		}},
		{"SequenceGroupDefaultAggFunc", 7, map[string]string{
			"fields.f3.sequence-group": "f1,f2", "fields.f6.sequence-group": "f4,f5",
			"fields.default-aggregate-function": "last_non_null_value",
		}, []mergeStep{
			ins(1, 1, 1, 1, 1, 1, 1), ins(1, 2, 2, 2, 2, 2, nil), want(1, 2, 2, 2, 1, 1, 1),
			ins(1, 3, 3, 1, 3, 3, 3), want(1, 2, 2, 2, 3, 3, 3),
			ins(1, 4, nil, 4, 5, nil, 5), want(1, 4, 2, 4, 5, 3, 5),
		}},
		{"FirstValue", 4, map[string]string{
			"fields.f1.sequence-group": "f2,f3", "fields.f2.aggregate-function": "first_value",
			"fields.f3.aggregate-function": "last_value",
		}, []mergeStep{
			ins(1, 1, 1, 1), ins(1, 2, 2, 2), want(1, 2, 1, 2), ins(1, 0, 3, 3), want(1, 2, 3, 2),
		}},
		{"MultiSequenceFieldsFirstValue", 5, map[string]string{
			"fields.f1,f2.sequence-group": "f3,f4", "fields.f3.aggregate-function": "first_value",
			"fields.f4.aggregate-function": "last_value",
		}, []mergeStep{
			ins(1, 1, 1, 1, 1), ins(1, 2, 2, 2, 2), want(1, 2, 2, 1, 2), ins(1, 0, 1, 3, 3), want(1, 2, 2, 3, 2),
		}},
		{"PartialUpdateWithAggregation", 8, map[string]string{
			"fields.f1.sequence-group": "f2,f3,f4", "fields.f7.sequence-group": "f6",
			"fields.f0.aggregate-function": "listagg", "fields.f2.aggregate-function": "sum",
			"fields.f4.aggregate-function": "last_value", "fields.f6.aggregate-function": "last_non_null_value",
			"fields.f4.ignore-retract": "true", "fields.f6.ignore-retract": "true",
		}, []mergeStep{
			ins(1, 1, 1, 1, 1, 1, 1, 1), ins(1, 2, 1, 2, 2, 2, 2, 0), want(1, 2, 2, 2, 2, 2, 1, 1),
			ins(1, 1, 1, 1, 1, 1, 2, 0), want(1, 2, 3, 2, 2, 1, 1, 1),
			ins(1, 1, -1, 1, 1, 2, 2, 0),
			ins(1, 3, nil, nil, nil, nil, nil, 2), want(1, 3, 2, nil, nil, 2, 1, 2),
			ins(1, 3, 1, 1, 1, 1, 1, 3), want(1, 3, 3, 1, 1, 1, 1, 3),
			ub(1, 3, 2, 1, 1, 1, 1, 3), want(1, 3, 1, nil, 1, 1, 1, 3),
			del(1, 3, 2, 1, 1, 1, 1, 3), want(1, 3, -1, nil, 1, 1, 1, 3),
			del(1, 2, 2, 1, 1, 1, 1, 3), want(1, 3, -3, nil, 1, 1, 1, 3),
		}},
		{"MultiSequenceFieldsPartialUpdateWithAggregation", 9, map[string]string{
			"fields.f1,f2.sequence-group": "f3,f4,f5", "fields.f7,f8.sequence-group": "f6",
			"fields.f0.aggregate-function": "listagg", "fields.f3.aggregate-function": "sum",
			"fields.f4.aggregate-function": "first_value", "fields.f5.aggregate-function": "last_value",
			"fields.f6.aggregate-function": "last_non_null_value",
			"fields.f4.ignore-retract":     "true", "fields.f6.ignore-retract": "true",
		}, []mergeStep{
			ins(1, nil, nil, 1, 1, 1, 1, 1, 1), want(1, nil, nil, nil, nil, nil, 1, 1, 1),
			del(1, nil, nil, 1, 1, 1, 0, 1, 1), want(1, nil, nil, nil, nil, nil, 1, 1, 1),
			ins(1, 1, 1, 1, 1, 1, 1, 1, 1), ins(1, 1, 2, 1, 2, 2, nil, 2, 0), want(1, 1, 2, 2, 1, 2, 1, 2, 0),
			ins(1, 1, 1, 1, 3, 1, 1, 2, 0), want(1, 1, 2, 3, 3, 2, 1, 2, 0),
			ins(1, 1, 3, nil, nil, nil, nil, 4, 2), want(1, 1, 3, 3, 3, nil, 1, 4, 2),
			ins(1, 2, 3, 1, 1, 1, 1, 4, 3), want(1, 2, 3, 4, 3, 1, 1, 4, 3),
			ub(1, 2, 3, 2, 1, 2, 1, 4, 3), want(1, 2, 3, 2, 3, nil, 1, 4, 3),
			del(1, 3, 2, 3, 1, 1, 4, 3, nil), want(1, 3, 2, -1, 3, nil, 1, 4, 3),
			del(1, 2, 2, 2, 1, 1, 1, 1, 3), want(1, 3, 2, -3, 3, nil, 1, 4, 3),
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := mustEngine(t, newTestSchema(intColumns(tc.columns), []string{"f0"}, withEngine(EnginePartialUpdate, tc.options)))
			runSteps(t, e.NewMergeFunction(), tc.steps)
		})
	}
}

func notNullIntColumns(nullable ...bool) []spec.DataField {
	cols := intColumns(len(nullable))
	for i, n := range nullable {
		cols[i].Type.Nullable = n
	}
	return cols
}

// TestPartialUpdateNotNullColumns covers Java's
// testInitRowWithNullableFieldOnDelete and the "can not be null" checks.
func TestPartialUpdateNotNullColumns(t *testing.T) {
	cols := notNullIntColumns(false, false, true)
	opts := map[string]string{"partial-update.remove-record-on-delete": "true"}
	e := mustEngine(t, newTestSchema(cols, []string{"f0"}, withEngine(EnginePartialUpdate, opts)))
	runSteps(t, e.NewMergeFunction(), []mergeStep{ins(1, 3, 5), del(1, 2, nil), want(1, 2, nil)})

	mf := e.NewMergeFunction()
	mf.Reset()
	err := mf.Add(KeyValue{Key: ints(1), Kind: spec.RowKindInsert, Value: ints(1, nil, 5)})
	if !errors.Is(err, ErrRejectedRecord) {
		t.Fatalf("null in NOT NULL column: got %v, want ErrRejectedRecord", err)
	}
}

// TestPartialUpdateDeletes covers the retraction options and their results'
// row kinds and sequence numbers.
func TestPartialUpdateDeletes(t *testing.T) {
	cols := intColumns(3)
	cases := []struct {
		name     string
		options  map[string]string
		records  []mergeStep
		wantKind spec.RowKind
		wantSeq  int64
		wantRow  []any
		wantErr  error
	}{
		{"delete without options", nil, []mergeStep{ins(1, 1, 1), del(1, 1, 1)}, 0, 0, nil, ErrRejectedRecord},
		{"ignore-delete", map[string]string{"ignore-delete": "true"},
			[]mergeStep{ins(1, 1, 1), del(1, 2, 2), ins(1, nil, 3)}, spec.RowKindInsert, 2, ints(1, 1, 3), nil},
		{"ignore-delete legacy key", map[string]string{"partial-update.ignore-delete": "TRUE"},
			[]mergeStep{ins(1, 1, 1), del(1, 2, 2)}, spec.RowKindInsert, 0, ints(1, 1, 1), nil},
		{"only retractions merge to -D", map[string]string{"ignore-delete": "true"},
			[]mergeStep{del(1, 1, 1), ub(1, 2, 2)}, spec.RowKindDelete, 0, ints(1, 1, 1), nil},
		{"remove-record-on-delete", map[string]string{"partial-update.remove-record-on-delete": "true"},
			[]mergeStep{ins(1, 1, 1), del(1, 1, 1)}, spec.RowKindDelete, 1, ints(1, 1, 1), nil},
		{"remove-record-on-delete ignores -U", map[string]string{"partial-update.remove-record-on-delete": "true"},
			[]mergeStep{ins(1, 1, 1), ub(1, 5, 5)}, spec.RowKindInsert, 1, ints(1, 1, 1), nil},
		{"insert after delete revives", map[string]string{"partial-update.remove-record-on-delete": "true"},
			[]mergeStep{ins(1, 1, 1), del(1, 1, 1), ins(1, nil, 7)}, spec.RowKindInsert, 2, ints(1, 1, 7), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mf := mustEngine(t, newTestSchema(cols, []string{"f0"}, withEngine(EnginePartialUpdate, tc.options))).NewMergeFunction()
			mf.Reset()
			var err error
			for i, s := range tc.records {
				if err = mf.Add(KeyValue{Key: ints(1), Seq: int64(i), Kind: s.kind, Value: s.value}); err != nil {
					break
				}
			}
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("got error %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := mf.Result()
			if got.Kind != tc.wantKind || got.Seq != tc.wantSeq || !reflect.DeepEqual(got.Value, tc.wantRow) {
				t.Fatalf("got %s seq=%d %v, want %s seq=%d %v", got.Kind, got.Seq, got.Value, tc.wantKind, tc.wantSeq, tc.wantRow)
			}
		})
	}
}

func TestPartialUpdateInvalidOptions(t *testing.T) {
	cases := []struct {
		name    string
		options map[string]string
		want    error
	}{
		{"aggregation without sequence group", map[string]string{"fields.f1.aggregate-function": "sum"}, ErrInvalidOptions},
		{"second field without group", map[string]string{
			"fields.f1.aggregate-function": "sum", "fields.f2.aggregate-function": "sum",
			"fields.f3.sequence-group": "f1"}, ErrInvalidOptions},
		{"group protects primary key", map[string]string{"fields.f3.sequence-group": "f0,f1"}, ErrInvalidOptions},
		{"primary key as sequence field", map[string]string{"fields.f0.sequence-group": "f1"}, ErrInvalidOptions},
		{"field in two groups", map[string]string{
			"fields.f2.sequence-group": "f1", "fields.f3.sequence-group": "f1"}, ErrInvalidOptions},
		{"unknown protected field", map[string]string{"fields.f3.sequence-group": "f1,nope"}, ErrInvalidOptions},
		{"unknown sequence field", map[string]string{"fields.nope.sequence-group": "f1"}, ErrInvalidOptions},
		{"malformed group key", map[string]string{"fields.sequence-group": "f1"}, ErrInvalidOptions},
		{"remove-on-delete with ignore-delete", map[string]string{
			"partial-update.remove-record-on-delete": "true", "ignore-delete": "true"}, ErrInvalidOptions},
		{"remove-on-delete with groups", map[string]string{
			"partial-update.remove-record-on-delete": "true", "fields.f3.sequence-group": "f1"}, ErrInvalidOptions},
		{"remove-on-group with ignore-delete", map[string]string{
			"partial-update.remove-record-on-sequence-group": "f3", "fields.f3.sequence-group": "f1",
			"ignore-delete": "true"}, ErrInvalidOptions},
		{"remove-on-group names a protected field", map[string]string{
			"partial-update.remove-record-on-sequence-group": "f1", "fields.f3.sequence-group": "f1"}, ErrInvalidOptions},
		{"bad boolean", map[string]string{"ignore-delete": "yes"}, ErrInvalidOptions},
		{"unsupported function in group", map[string]string{
			"fields.f3.sequence-group": "f1", "fields.f1.aggregate-function": "no_such_function"}, lakeerr.ErrUnsupported},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			schema := newTestSchema(intColumns(4), []string{"f0"}, withEngine(EnginePartialUpdate, tc.options))
			_, err := NewEngine(schema, compareTestValues)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestPartialUpdateEngineFromOptions(t *testing.T) {
	opts := map[string]string{"merge-engine": "Partial-Update"}
	e := mustEngine(t, newTestSchema(intColumns(3), []string{"f0"}, opts))
	if e.Name() != EnginePartialUpdate {
		t.Fatalf("engine %s", e.Name())
	}
	runSteps(t, e.NewMergeFunction(), []mergeStep{ins(1, 1, nil), ins(1, nil, 2), want(1, 1, 2)})
	if _, ok := e.NewMergeFunction().Result(); ok {
		t.Fatal("a merge function without records has a result")
	}
}
