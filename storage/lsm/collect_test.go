package lsm

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

func arrayOf(elem spec.DataType) spec.DataType {
	return spec.DataType{Root: spec.Array, Nullable: true, Element: &elem}
}

func mapOf(key, value spec.DataType) spec.DataType {
	return spec.DataType{Root: spec.Map, Nullable: true, Key: &key, Value: &value}
}

func list(vs ...any) []any { return vs }

var distinct = map[string]string{"fields.v.distinct": "true"}

// multiples is n multiples of step followed by extra.
func multiples(n, step int, extra int32) []any {
	out := list()
	for i := 0; i < n; i++ {
		out = append(out, int32(i*step))
	}
	return append(out, extra)
}

// The distinct and merge_map orders are Java's HashSet and HashMap
// iteration orders, as printed by FieldCollectAgg and FieldMergeMapAgg of
// paimon-bundle 1.4.2 for the same inputs.
func TestAggregateCollect(t *testing.T) {
	rowType := spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{column("a", intType)}}
	grow := list()
	for i := 0; i < 20; i++ {
		grow = append(grow, int32(i*7))
	}
	cases := []aggCase{
		{name: "concatenates", typ: arrayType, inputs: []aggInput{add(list(int32(1), int32(2))), add(list(int32(2), int32(3)))},
			want: list(int32(1), int32(2), int32(2), int32(3))},
		{name: "null input keeps", typ: arrayType, inputs: []aggInput{add(list(int32(1))), add(nil)}, want: list(int32(1))},
		{name: "all null", typ: arrayType, inputs: []aggInput{add(nil), add(nil)}, want: nil},
		{name: "first kept as is", typ: arrayType, inputs: []aggInput{add(list(int32(3), int32(3)))}, want: list(int32(3), int32(3))},
		{name: "distinct in hash order", typ: arrayType, options: distinct,
			inputs: []aggInput{add(list(int32(3), int32(1), int32(3))), add(list(int32(17), int32(2)))},
			want:   list(int32(1), int32(17), int32(2), int32(3))},
		{name: "distinct single input", typ: arrayType, options: distinct,
			inputs: []aggInput{add(list(int32(5), int32(-1)))}, want: list(int32(-1), int32(5))},
		{name: "distinct null element", typ: arrayType, options: distinct,
			inputs: []aggInput{add(list(int32(5), nil, int32(70000))), add(list(int32(65536), int32(16)))},
			want:   list(nil, int32(16), int32(70000), int32(65536), int32(5))},
		{name: "distinct resized table", typ: arrayType, options: distinct, inputs: []aggInput{add(grow), add(list(int32(5)))},
			want: list(int32(0), int32(98), int32(35), int32(133), int32(5), int32(70), int32(7), int32(105), int32(42), int32(77),
				int32(14), int32(112), int32(49), int32(84), int32(21), int32(119), int32(56), int32(91), int32(28), int32(126), int32(63))},
		{name: "distinct collisions double a small table", typ: arrayType, options: distinct,
			inputs: []aggInput{add(multiples(9, 16, 5)), add(list(int32(3)))},
			want: list(int32(0), int32(32), int32(64), int32(96), int32(128), int32(3), int32(5),
				int32(16), int32(48), int32(80), int32(112))},
		{name: "distinct eight collisions", typ: arrayType, options: distinct,
			inputs: []aggInput{add(multiples(8, 16, 5)), add(list(int32(3)))},
			want: list(int32(0), int32(16), int32(32), int32(48), int32(64), int32(80), int32(96), int32(112),
				int32(3), int32(5))},
		{name: "distinct ten collisions double twice", typ: arrayType, options: distinct,
			inputs: []aggInput{add(multiples(10, 64, 5)), add(list(int32(3)))},
			want: list(int32(0), int32(64), int32(128), int32(192), int32(256), int32(320), int32(384), int32(448),
				int32(512), int32(576), int32(3), int32(5))},
		{name: "distinct tree bin refused", typ: arrayType, options: distinct,
			inputs: []aggInput{add(multiples(11, 64, 5))}, wantErr: lakeerr.ErrUnsupported},
		{name: "distinct strings", typ: arrayOf(stringType), options: distinct,
			inputs: []aggInput{add(list("apple", "b", "kiwi", "b")), add(list("banana", "cherry!", "a"))},
			want:   list("a", "apple", "kiwi", "cherry!", "b", "banana")},
		{name: "distinct bigints", typ: arrayOf(bigintType), options: distinct,
			inputs: []aggInput{add(list(int64(1)<<32, int64(7), int64(-2))), add(list(int64(7), int64(100)))},
			want:   list(int64(1)<<32, int64(-2), int64(100), int64(7))},
		{name: "distinct rows keep order", typ: arrayOf(rowType), options: distinct,
			inputs: []aggInput{add(list(list(int32(2)), list(int32(1)))), add(list(list(int32(1)), list(int32(3)), list(int32(3))))},
			want:   list(list(int32(2)), list(int32(1)), list(int32(3)))},
		{name: "distinct bytes are all distinct", typ: arrayOf(bytesType), options: distinct,
			inputs: []aggInput{add(list([]byte("a"), []byte("a"))), add(list([]byte("b"), []byte("a")))},
			want:   list([]byte("a"), []byte("a"), []byte("b"), []byte("a"))},
		{name: "not an array", typ: intType, wantErr: ErrInvalidOptions},
		{name: "retract removes one each", typ: arrayType,
			inputs: []aggInput{add(list(int32(1), int32(2), int32(2), int32(3), nil)), retract(list(int32(2), nil, int32(4)))},
			want:   list(int32(1), int32(2), int32(3))},
		{name: "retract all leaves empty", typ: arrayType, inputs: []aggInput{add(list(int32(1))), before(list(int32(1)))}, want: []any{}},
		{name: "retract without accumulator", typ: arrayType, inputs: []aggInput{retract(list(int32(1)))}, want: nil},
		{name: "retract null", typ: arrayType, inputs: []aggInput{add(list(int32(1))), retract(nil)}, want: list(int32(1))},
		{name: "retract bytes never matches", typ: arrayOf(bytesType),
			inputs: []aggInput{add(list([]byte("a"))), retract(list([]byte("a")))}, want: list([]byte("a"))},
	}
	for _, tc := range cases {
		tc.fn = aggCollect
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}

func TestAggregateCollectDistinctDoubles(t *testing.T) {
	opts := withEngine(EngineAggregation, map[string]string{"fields.v.aggregate-function": aggCollect, "fields.v.distinct": "true"})
	cols := []spec.DataField{column("k", intType.WithNullable(false)), column("v", arrayOf(doubleType))}
	got, err := aggregateColumn(cols, opts, []aggInput{
		add(list(1.5, math.Copysign(0, -1), 0.0, math.NaN())), add(list(math.NaN(), 2.25))})
	if err != nil {
		t.Fatal(err)
	}
	// Java: [-0.0, 0.0, 2.25, 1.5, NaN]
	v := got.Value[1].([]any)
	if len(v) != 5 || !math.Signbit(v[0].(float64)) || v[1] != 0.0 || math.Signbit(v[1].(float64)) ||
		v[2] != 2.25 || v[3] != 1.5 || !math.IsNaN(v[4].(float64)) {
		t.Fatalf("got %v, want [-0 0 2.25 1.5 NaN]", v)
	}
}

// TestCollectReversedInGroup: in a partial-update sequence group, an older
// record folds in with FieldCollectAgg.aggReversed, which keeps the
// accumulator first.
func TestCollectReversedInGroup(t *testing.T) {
	cols := []spec.DataField{column("k", intType.WithNullable(false)), column("g", intType), column("v", arrayType)}
	opts := withEngine(EnginePartialUpdate, map[string]string{
		"fields.g.sequence-group": "v", "fields.v.aggregate-function": aggCollect})
	e, err := NewEngine(newTestSchema(cols, []string{"k"}, opts), compareTestValues)
	if err != nil {
		t.Fatal(err)
	}
	mf := e.NewMergeFunction()
	mf.Reset()
	for i, r := range [][]any{{int32(1), int32(2), list(int32(1))}, {int32(1), int32(1), list(int32(2))}} {
		if err := mf.Add(KeyValue{Key: ints(1), Seq: int64(i), Kind: spec.RowKindInsert, Value: r}); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := mf.Result()
	if want := list(int32(1), int32(2)); !reflect.DeepEqual(got.Value[2], want) {
		t.Fatalf("got %v, want %v", got.Value[2], want)
	}
}

func TestAggregateMergeMap(t *testing.T) {
	m := func(kv ...any) spec.MapValue {
		var out spec.MapValue
		for i := 0; i < len(kv); i += 2 {
			out.Keys, out.Values = append(out.Keys, kv[i]), append(out.Values, kv[i+1])
		}
		return out
	}
	strInt := mapOf(stringType.WithNullable(false), intType)
	cases := []aggCase{
		{name: "later values override", typ: strInt,
			inputs: []aggInput{add(m("zeta", int32(1), "a", int32(2), "mid", int32(3))), add(m("a", int32(20), "new", nil))},
			want:   m("zeta", int32(1), "a", int32(20), "mid", int32(3), "new", nil)},
		{name: "first kept as is", typ: strInt, inputs: []aggInput{add(m("b", int32(1), "a", int32(2)))}, want: m("b", int32(1), "a", int32(2))},
		{name: "null input keeps", typ: strInt, inputs: []aggInput{add(m("b", int32(1))), add(nil)}, want: m("b", int32(1))},
		{name: "int keys in hash order", typ: mapOf(intType, stringType),
			inputs: []aggInput{add(m(int32(33), "x", int32(1), "y", int32(-5), "z")), add(m(int32(17), "w"))},
			want:   m(int32(33), "x", int32(1), "y", int32(17), "w", int32(-5), "z")},
		{name: "retract removes keys", typ: strInt,
			inputs: []aggInput{add(m("zeta", int32(1), "a", int32(2), "mid", int32(3))), retract(m("zeta", int32(999), "nope", int32(1)))},
			want:   m("a", int32(2), "mid", int32(3))},
		{name: "retract without accumulator", typ: strInt, inputs: []aggInput{retract(m("a", int32(1)))}, want: nil},
		{name: "retract empty", typ: strInt, inputs: []aggInput{add(m("b", int32(1), "a", int32(2))), before(m())}, want: m("b", int32(1), "a", int32(2))},
		{name: "not a map", typ: arrayType, wantErr: ErrInvalidOptions},
		{name: "binary keys never merge", typ: mapOf(bytesType, intType),
			inputs: []aggInput{add(m([]byte("a"), int32(1))), add(m([]byte("a"), int32(2), []byte("b"), nil))},
			want:   m([]byte("a"), int32(1), []byte("a"), int32(2), []byte("b"), nil)},
		{name: "binary keys never retract", typ: mapOf(bytesType, intType),
			inputs: []aggInput{add(m([]byte("a"), int32(1))), retract(m([]byte("a"), int32(1)))},
			want:   m([]byte("a"), int32(1))},
		{name: "row keys refused", typ: mapOf(arrayType, intType), wantErr: lakeerr.ErrUnsupported},
	}
	for _, tc := range cases {
		tc.fn = aggMergeMap
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}

func TestJavaHashKeyRefusesUnknownTypes(t *testing.T) {
	if _, _, err := javaHashKey([]byte("a")); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Fatalf("got %v, want ErrUnsupported", err)
	}
}
