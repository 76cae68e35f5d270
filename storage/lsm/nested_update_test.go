package lsm

import (
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// The expected arrays are what FieldNestedUpdateAgg of paimon-bundle 1.4.2
// returned for the same inputs (keyed results in its HashMap's order).
func TestAggregateNestedUpdate(t *testing.T) {
	rowType := spec.DataType{Root: spec.Row, Nullable: true, Fields: []spec.DataField{column("k", intType), column("x", stringType)}}
	typ := arrayOf(rowType)
	r := func(k int32, x string) []any { return []any{k, x} }
	byKey := func(keys string) map[string]string { return map[string]string{"fields.v.nested-key": keys} }
	cases := []aggCase{
		{name: "keyed replaces and adds", typ: typ, options: byKey("k"),
			inputs: []aggInput{add(list(r(1, "a"), r(17, "b"), r(2, "c"))), add(list(r(1, "z"), nil, r(33, "d")))},
			want:   list(r(33, "d"), r(2, "c"), r(17, "b"), r(1, "z"))},
		{name: "keyed empty input reorders", typ: typ, options: byKey("k"),
			inputs: []aggInput{add(list(r(5, "a"), r(-1, "b"))), add(list())},
			want:   list(r(-1, "b"), r(5, "a"))},
		{name: "keyed retract removes keys", typ: typ, options: byKey("k"),
			inputs: []aggInput{add(list(r(1, "a"), r(17, "b"), r(2, "c"), r(33, "d"))), retract(list(r(17, "zz"), nil, r(99, "q")))},
			want:   list(r(33, "d"), r(2, "c"), r(1, "a"))},
		{name: "string key", typ: typ, options: byKey("x"),
			inputs: []aggInput{add(list(r(1, "apple"), r(2, "b"), r(3, "a longer key"))), add(list(r(4, "b"), r(5, "kiwi")))},
			want:   list(r(4, "b"), r(5, "kiwi"), r(1, "apple"), r(3, "a longer key"))},
		{name: "composite key", typ: typ, options: byKey("k, x"),
			inputs: []aggInput{add(list(r(1, "a"), r(1, "b"), r(2, "a"))), add(list(r(1, "b"), r(3, "c")))},
			want:   list(r(3, "c"), r(1, "a"), r(1, "b"), r(2, "a"))},
		{name: "count limit", typ: typ, options: map[string]string{"fields.v.count-limit": "3"},
			inputs: []aggInput{add(list(r(1, "a"), nil)), add(list(r(2, "b"), r(3, "c")))},
			want:   list(r(1, "a"), r(2, "b"))},
		{name: "count limit reached", typ: typ, options: map[string]string{"fields.v.count-limit": "3"},
			inputs: []aggInput{add(list(r(1, "a"), nil, nil)), add(list(r(2, "b")))},
			want:   list(r(1, "a"), nil, nil)},
		{name: "retract removes every equal row", typ: typ,
			inputs: []aggInput{add(list(r(1, "a"), r(2, "b"), nil, r(1, "a"))), before(list(r(1, "a")))},
			want:   list(r(2, "b"))},
		{name: "first kept as is", typ: typ, inputs: []aggInput{add(list(nil, r(1, "a")))}, want: list(nil, r(1, "a"))},
		{name: "retract without accumulator", typ: typ, inputs: []aggInput{retract(list(r(1, "a")))}, want: nil},
		{name: "unknown key", typ: typ, options: byKey("nope"), wantErr: ErrInvalidOptions},
		{name: "bad count limit", typ: typ, options: map[string]string{"fields.v.count-limit": "many"}, wantErr: ErrInvalidOptions},
		{name: "not an array of rows", typ: arrayType, wantErr: ErrInvalidOptions},
	}
	for _, tc := range cases {
		tc.fn = aggNestedUpdate
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}
