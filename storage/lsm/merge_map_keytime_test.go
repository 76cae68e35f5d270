package lsm

import (
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

func TestAggregateMergeMapKeyTime(t *testing.T) {
	// ROW<ts STRING, v INT>: the timestamp named by fields.v.ts-field.
	tsFirst := mapOf(stringType, rowOf(column("ts", stringType), column("v", intType)))
	m := func(kv ...any) spec.MapValue {
		out := spec.MapValue{Keys: []any{}, Values: []any{}}
		for i := 0; i < len(kv); i += 2 {
			out.Keys, out.Values = append(out.Keys, kv[i]), append(out.Values, kv[i+1])
		}
		return out
	}
	tsField := map[string]string{"fields.v.ts-field": "ts"}
	cases := []aggCase{
		{name: "named timestamp field", typ: tsFirst, options: tsField,
			inputs: []aggInput{add(m("a", list("2", int32(1)))), add(m("a", list("10", int32(2))))},
			want:   m("a", list("2", int32(1)))},
		{name: "null input keeps", typ: tsFirst, options: tsField, inputs: []aggInput{add(m("a", list("1", int32(1)))), add(nil)},
			want: m("a", list("1", int32(1)))},
		{name: "retract refused", typ: tsFirst, options: tsField,
			inputs: []aggInput{add(m("a", list("1", int32(1)))), retract(m("a", list("1", int32(1))))}, wantErr: ErrRejectedRecord},
		{name: "binary keys never match", typ: mapOf(bytesType, rowOf(column("v", intType), column("ts", stringType))),
			inputs: []aggInput{add(m([]byte("k"), list(int32(1), "1"))), add(m([]byte("k"), list(int32(2), "0"), []byte("x"), nil, []byte("y"), list(int32(3), nil)))},
			want:   m([]byte("k"), list(int32(1), "1"), []byte("k"), list(int32(2), "0"))},
		{name: "unknown timestamp field", typ: tsFirst, options: map[string]string{"fields.v.ts-field": "nope"}, wantErr: ErrInvalidOptions},
		{name: "bigint timestamp refused", typ: mapOf(stringType, rowOf(column("v", intType), column("ts", bigintType))), wantErr: lakeerr.ErrUnsupported},
		{name: "one field row", typ: mapOf(stringType, rowOf(column("ts", stringType))), wantErr: ErrInvalidOptions},
		{name: "not a map", typ: arrayType, wantErr: ErrInvalidOptions},
	}
	for _, tc := range cases {
		tc.fn = aggMergeMapKeyTime
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}

func TestCompareJavaStrings(t *testing.T) {
	// U+1F600 is a surrogate pair, D83D DE00, below U+FFFF in UTF-16.
	if compareJavaStrings("\U0001F600", "\uffff") >= 0 || compareJavaStrings("ab", "a") <= 0 || compareJavaStrings("x", "x") != 0 {
		t.Fatal("compareJavaStrings does not order as String.compareTo")
	}
}
