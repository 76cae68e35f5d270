package lsm

import "testing"

func TestAggregateNestedPartialUpdate(t *testing.T) {
	typ := arrayOf(rowOf(column("k", intType), column("x", stringType)))
	key := map[string]string{"fields.v.nested-key": "k"}
	cases := []aggCase{
		{name: "null input keeps duplicates", typ: typ, options: key,
			inputs: []aggInput{add(list(list(int32(1), "a"), list(int32(1), "b"))), add(nil)},
			want:   list(list(int32(1), "a"), list(int32(1), "b"))},
		{name: "fields merge by key", typ: typ, options: key,
			inputs: []aggInput{add(list(list(int32(1), "a"))), add(list(list(int32(1), nil), nil))},
			want:   list(list(int32(1), "a"))},
		{name: "retract refused", typ: typ, options: key,
			inputs: []aggInput{add(list(list(int32(1), "a"))), retract(list(list(int32(1), "a")))}, wantErr: ErrRejectedRecord},
		{name: "nested key required", typ: typ, wantErr: ErrInvalidOptions},
		{name: "unknown nested key", typ: typ, options: map[string]string{"fields.v.nested-key": "y"}, wantErr: ErrInvalidOptions},
		{name: "not a nested table", typ: arrayType, options: key, wantErr: ErrInvalidOptions},
	}
	for _, tc := range cases {
		tc.fn = aggNestedPartialUpdate
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}
