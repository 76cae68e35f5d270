package sqltypes

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/storage/spec"
)

func arrayOf(elem spec.DataType) spec.DataType {
	return spec.DataType{Root: spec.Array, Nullable: true, Element: &elem}
}

func mapOf(key, value spec.DataType) spec.DataType {
	key.Nullable = false
	return spec.DataType{Root: spec.Map, Nullable: true, Key: &key, Value: &value}
}

func rowOf(fields ...spec.DataField) spec.DataType {
	return spec.DataType{Root: spec.Row, Nullable: true, Fields: fields}
}

// TestNestedValuesRoundTripThroughJSONText: what a SELECT shows of a
// nested value, sent back as JSON text (whose numbers a client's driver and
// GMS decode as float64), writes the value stored.
func TestNestedValuesRoundTripThroughJSONText(t *testing.T) {
	ts := spec.TimestampFromTime(time.Date(2026, 4, 16, 10, 30, 5, 123000000, time.UTC))
	str := sized(spec.VarChar, spec.MaxVarLength)
	multiset := spec.DataType{Root: spec.Multiset, Nullable: true, Element: &str}
	cases := []struct {
		t spec.DataType
		v any
	}{
		{arrayOf(typ(spec.Int)), []any{int32(1), nil, int32(-3)}},
		{arrayOf(typ(spec.BigInt)), []any{int64(1)<<53 - 1, int64(-5)}},
		{arrayOf(precise(spec.Decimal, 10, 2)), []any{spec.NewDecimal(1999, 2), spec.NewDecimal(-10, 2)}},
		{arrayOf(typ(spec.Double)), []any{0.1, 2.5e300}},
		{arrayOf(typ(spec.Boolean)), []any{true, false}},
		{arrayOf(arrayOf(str)), []any{[]any{"a", "b"}, []any{}}},
		{mapOf(str, precise(spec.Decimal, 10, 2)), spec.MapValue{Keys: []any{"eur", "usd"}, Values: []any{spec.NewDecimal(150, 2), nil}}},
		{mapOf(typ(spec.Int), arrayOf(str)), spec.MapValue{Keys: []any{int32(7), int32(1)}, Values: []any{[]any{"x"}, nil}}},
		{multiset, spec.MapValue{Keys: []any{"a", "b"}, Values: []any{int32(2), int32(1)}}},
		{rowOf(spec.DataField{Name: "d", Type: typ(spec.Date)}, spec.DataField{Name: "ts", Type: precise(spec.Timestamp, 3, 0)},
			spec.DataField{Name: "tm", Type: precise(spec.Time, 3, 0)}, spec.DataField{Name: "b", Type: sized(spec.VarBinary, 10)},
			spec.DataField{Name: "n", Type: typ(spec.SmallInt)}),
			[]any{spec.DateValue(20559), ts, spec.TimeValue(3_723_004), []byte("ab"), nil}},
	}
	for _, c := range cases {
		t.Run(typeName(c.t), func(t *testing.T) {
			shown, err := ToSQL(c.t, c.v)
			if err != nil {
				t.Fatal(err)
			}
			text, err := shown.(types.JSONDocument).JSONString()
			if err != nil {
				t.Fatal(err)
			}
			back, err := FromSQL(c.t, text)
			if err != nil {
				t.Fatalf("FromSQL(%s): %v", text, err)
			}
			if fmt.Sprint(normalizeNested(back)) != fmt.Sprint(normalizeNested(c.v)) || !sameShape(back, c.v) {
				t.Errorf("%s wrote %#v, want %#v", text, back, c.v)
			}
		})
	}
}

// normalizeNested renders decimals as text, so that equal values compare
// equal however their unscaled value is held.
func normalizeNested(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = normalizeNested(x[i])
		}
		return out
	case spec.MapValue:
		return spec.MapValue{Keys: normalizeNested(x.Keys).([]any), Values: normalizeNested(x.Values).([]any)}
	case spec.DecimalValue:
		return x.String()
	}
	return v
}

// sameShape compares the Go types of two values part by part.
func sameShape(a, b any) bool {
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		return false
	}
	switch x := a.(type) {
	case []any:
		y := b.([]any)
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameShape(x[i], y[i]) {
				return false
			}
		}
	case spec.MapValue:
		y := b.(spec.MapValue)
		return sameShape(x.Keys, y.Keys) && sameShape(x.Values, y.Values)
	}
	return true
}

// TestNestedValuesRefuseWhatDoesNotFit: a part of the wrong shape, an
// integer a JSON number does not hold exactly, a NULL key or a duplicate
// fails with ErrValue, naming where.
func TestNestedValuesRefuseWhatDoesNotFit(t *testing.T) {
	ints := arrayOf(typ(spec.BigInt))
	notNullInts := arrayOf(spec.DataType{Root: spec.Int})
	cases := []struct {
		t    spec.DataType
		json string
		want string
	}{
		{ints, `{"a": 1}`, "must be a JSON array"},
		{ints, `[1.5]`, "not an integer"},
		{ints, `[9007199254740993]`, "not an integer"},
		{ints, `["1.5"]`, "not an integer"},
		{arrayOf(typ(spec.TinyInt)), `[300]`, "does not fit"},
		{notNullInts, `[null]`, "null in a NOT NULL"},
		{mapOf(typ(spec.Int), typ(spec.Int)), `[{"key": 1, "value": 2}, {"key": 1, "value": 3}]`, "appears twice"},
		{mapOf(typ(spec.Int), typ(spec.Int)), `[{"key": null, "value": 2}]`, "null in a NOT NULL"},
		{mapOf(typ(spec.Int), typ(spec.Int)), `{"1": 2}`, "JSON array of"},
		{rowOf(spec.DataField{Name: "x", Type: typ(spec.Int)}), `{"y": 1}`, "does not have"},
		{rowOf(spec.DataField{Name: "x", Type: typ(spec.Int)}), `[1]`, "must be a JSON object"},
	}
	for _, c := range cases {
		_, err := FromSQL(c.t, c.json)
		if !errors.Is(err, ErrValue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s into %s: %v, want ErrValue saying %q", c.json, typeName(c.t), err, c.want)
		}
	}
	// Larger integers are exact as strings.
	v, err := FromSQL(ints, `["9007199254740993"]`)
	if err != nil || !reflect.DeepEqual(v, []any{int64(9007199254740993)}) {
		t.Errorf(`["9007199254740993"]: %v, %v`, v, err)
	}
}
