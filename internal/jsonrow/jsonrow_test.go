package jsonrow

import (
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/spec"
)

func typ(root spec.TypeRoot) spec.DataType { return spec.DataType{Root: root, Nullable: true} }

func TestAppendFormatsEveryType(t *testing.T) {
	ts := spec.TimestampFromTime(time.Date(2024, 1, 2, 3, 4, 5, 123456789, time.UTC))
	elem := typ(spec.Int)
	key, val := typ(spec.VarChar), typ(spec.BigInt)
	big38, _ := new(big.Int).SetString("-12345678901234567890123", 10)
	cases := []struct {
		name string
		t    spec.DataType
		v    any
		want string
	}{
		{"bool", typ(spec.Boolean), true, `true`},
		{"tinyint", typ(spec.TinyInt), int8(-7), `-7`},
		{"bigint", typ(spec.BigInt), int64(math.MaxInt64), `9223372036854775807`},
		{"float", typ(spec.Float), float32(11.1), `11.1`},
		{"double", typ(spec.Double), 0.1, `0.1`},
		{"nan", typ(spec.Double), math.NaN(), `"NaN"`},
		{"decimal scale kept", spec.DataType{Root: spec.Decimal, Precision: 5, Scale: 2}, spec.NewDecimal(1230, 2), `"12.30"`},
		{"decimal small", spec.DataType{Root: spec.Decimal, Precision: 5, Scale: 3}, spec.NewDecimal(-5, 3), `"-0.005"`},
		{"decimal big", spec.DataType{Root: spec.Decimal, Precision: 38, Scale: 4}, spec.NewDecimalBig(big38, 4), `"-1234567890123456789.0123"`},
		{"string escapes", typ(spec.VarChar), "a\"<b>\n", `"a\"<b>\n"`},
		{"bytes", typ(spec.VarBinary), []byte{0, 1, 2}, `"AAEC"`},
		{"date", typ(spec.Date), spec.DateValue(19723), `"2024-01-01"`},
		{"date before epoch", typ(spec.Date), spec.DateValue(-1), `"1969-12-31"`},
		{"time", spec.DataType{Root: spec.Time, Precision: 3}, spec.TimeValue(3723004), `"01:02:03.004"`},
		{"timestamp p0", spec.DataType{Root: spec.Timestamp}, ts, `"2024-01-02 03:04:05"`},
		{"timestamp p3", spec.DataType{Root: spec.Timestamp, Precision: 3}, ts, `"2024-01-02 03:04:05.123"`},
		{"timestamp p9", spec.DataType{Root: spec.TimestampLTZ, Precision: 9}, ts, `"2024-01-02 03:04:05.123456789"`},
		{"null", typ(spec.Int), nil, `null`},
		{"array", spec.DataType{Root: spec.Array, Element: &elem}, []any{int32(1), nil}, `[1,null]`},
		{"map", spec.DataType{Root: spec.Map, Key: &key, Value: &val},
			spec.MapValue{Keys: []any{"k"}, Values: []any{int64(2)}}, `[{"key":"k","value":2}]`},
		{"multiset", spec.DataType{Root: spec.Multiset, Element: &key},
			spec.MapValue{Keys: []any{"k"}, Values: []any{int32(3)}}, `[{"key":"k","value":3}]`},
		{"row", spec.DataType{Root: spec.Row, Fields: []spec.DataField{{Name: "a", Type: elem}}}, []any{int32(4)}, `{"a":4}`},
	}
	for _, c := range cases {
		got, err := Append(nil, []spec.DataField{{Name: "c", Type: c.t}}, []any{c.v})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if want := `{"c":` + c.want + `}`; string(got) != want {
			t.Errorf("%s: got %s want %s", c.name, got, want)
		}
	}
}

func TestAppendRejectsMismatchedValues(t *testing.T) {
	if _, err := Append(nil, []spec.DataField{{Name: "c", Type: typ(spec.Int)}}, []any{"x"}); err == nil {
		t.Error("a string for an INT column was accepted")
	}
	if _, err := Append(nil, []spec.DataField{{Name: "c", Type: typ(spec.Int)}}, nil); err == nil {
		t.Error("a short row was accepted")
	}
}
