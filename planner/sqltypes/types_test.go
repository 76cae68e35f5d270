package sqltypes

import (
	"context"
	"errors"
	"math/big"
	"reflect"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

func typ(root spec.TypeRoot) spec.DataType { return spec.DataType{Root: root, Nullable: true} }

func sized(root spec.TypeRoot, length int) spec.DataType {
	t := typ(root)
	t.Length = length
	return t
}

func precise(root spec.TypeRoot, precision, scale int) spec.DataType {
	t := typ(root)
	t.Precision, t.Scale = precision, scale
	return t
}

func TestTypeNames(t *testing.T) {
	cases := []struct {
		paimon spec.DataType
		mysql  string
	}{
		{typ(spec.Boolean), "tinyint(1)"},
		{typ(spec.TinyInt), "tinyint"},
		{typ(spec.SmallInt), "smallint"},
		{typ(spec.Int), "int"},
		{typ(spec.BigInt), "bigint"},
		{typ(spec.Float), "float"},
		{typ(spec.Double), "double"},
		{precise(spec.Decimal, 18, 2), "decimal(18,2)"},
		{precise(spec.Decimal, 38, 10), "decimal(38,10)"},
		{sized(spec.Char, 10), "char(10)"},
		{sized(spec.Char, 300), "varchar(300)"},
		{sized(spec.VarChar, 64), "varchar(64)"},
		{sized(spec.VarChar, 20000), "mediumtext"},
		{sized(spec.VarChar, spec.MaxVarLength), "longtext"},
		{sized(spec.Binary, 16), "binary(16)"},
		{sized(spec.VarBinary, 100), "varbinary(100)"},
		{sized(spec.VarBinary, spec.MaxVarLength), "longblob"},
		{typ(spec.Blob), "longblob"},
		{typ(spec.Date), "date"},
		{precise(spec.Time, 3, 0), "time(6)"},
		{precise(spec.Timestamp, 3, 0), "datetime(3)"},
		{precise(spec.Timestamp, 9, 0), "datetime(6)"},
		{precise(spec.TimestampLTZ, 6, 0), "datetime(6)"},
		{spec.DataType{Root: spec.Array, Element: &spec.DataType{Root: spec.Int}}, "json"},
	}
	for _, c := range cases {
		got, err := Type(c.paimon)
		if err != nil {
			t.Fatalf("%+v: %v", c.paimon, err)
		}
		if got.String() != c.mysql {
			t.Errorf("%+v: got %s, want %s", c.paimon, got, c.mysql)
		}
	}
	if _, err := Type(typ(spec.Variant)); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("VARIANT: %v, want unsupported", err)
	}
}

// TestRoundTrip checks that a storage value survives the trip to GMS and
// back, and that the GMS value is exactly what GMS itself makes of it for
// the column type (so comparisons and output formatting in the engine see
// a canonical value).
func TestRoundTrip(t *testing.T) {
	ts := spec.TimestampFromTime(time.Date(2026, 4, 16, 10, 30, 5, 123456000, time.UTC))
	cases := []struct {
		t spec.DataType
		v any
	}{
		{typ(spec.Boolean), true},
		{typ(spec.Boolean), false},
		{typ(spec.TinyInt), int8(-128)},
		{typ(spec.SmallInt), int16(32000)},
		{typ(spec.Int), int32(-7)},
		{typ(spec.BigInt), int64(1) << 62},
		{typ(spec.Float), float32(1.5)},
		{typ(spec.Double), 2.25},
		{precise(spec.Decimal, 10, 2), spec.NewDecimal(-12345, 2)},
		{precise(spec.Decimal, 38, 0), spec.NewDecimalBig(new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil), 0)},
		{sized(spec.VarChar, spec.MaxVarLength), "héllo"},
		{sized(spec.VarBinary, 10), []byte{0, 1, 255}},
		{typ(spec.Date), spec.DateValue(20559)},
		{typ(spec.Date), spec.DateValue(-1)},
		{precise(spec.Time, 3, 0), spec.TimeValue(3_723_004)},
		{precise(spec.Timestamp, 6, 0), ts},
		{precise(spec.TimestampLTZ, 6, 0), ts},
	}
	ctx := sql.NewContext(context.Background())
	for _, c := range cases {
		sqlValue, err := ToSQL(c.t, c.v)
		if err != nil {
			t.Fatalf("%v ToSQL: %v", c.v, err)
		}
		gmsType, _ := Type(c.t)
		canonical, _, err := gmsType.Convert(ctx, sqlValue)
		if err != nil {
			t.Fatalf("%v: GMS rejects %v (%T) for %s: %v", c.v, sqlValue, sqlValue, gmsType, err)
		}
		if cmp, err := gmsType.Compare(ctx, canonical, sqlValue); err != nil || cmp != 0 {
			t.Errorf("%v: GMS canonical %v differs from %v", c.v, canonical, sqlValue)
		}
		back, err := FromSQL(c.t, canonical)
		if err != nil {
			t.Fatalf("%v FromSQL(%v): %v", c.v, canonical, err)
		}
		if !reflect.DeepEqual(normalize(back), normalize(c.v)) {
			t.Errorf("round trip %v (%T) -> %v -> %v (%T)", c.v, c.v, canonical, back, back)
		}
	}
}

func normalize(v any) any {
	if d, ok := v.(spec.DecimalValue); ok {
		return d.String()
	}
	return v
}

func TestFromSQLRejectsWhatDoesNotFit(t *testing.T) {
	cases := []struct {
		t spec.DataType
		v any
	}{
		{typ(spec.TinyInt), int64(200)},
		{typ(spec.Int), int64(1) << 40},
		{typ(spec.BigInt), uint64(1) << 63},
		{precise(spec.Decimal, 4, 2), decimal.RequireFromString("123.45")},
		{typ(spec.Int), "12"},
		{typ(spec.Date), "2026-01-01"},
		{typ(spec.Variant), "x"},
	}
	for _, c := range cases {
		if _, err := FromSQL(c.t, c.v); !errors.Is(err, ErrValue) {
			t.Errorf("%v into %+v: %v, want ErrValue", c.v, c.t, err)
		}
	}
}

func TestFromSQLRoundsDecimalsAndTruncatesTimestamps(t *testing.T) {
	d, err := FromSQL(precise(spec.Decimal, 6, 2), decimal.RequireFromString("12.345"))
	if err != nil || d.(spec.DecimalValue).String() != "12.35" {
		t.Errorf("decimal: %v %v, want 12.35", d, err)
	}
	in := time.Date(2026, 4, 16, 10, 30, 5, 123456789, time.UTC)
	got, err := FromSQL(precise(spec.Timestamp, 3, 0), in)
	if err != nil || got.(spec.TimestampValue).Time() != in.Truncate(time.Millisecond) {
		t.Errorf("timestamp(3): %v %v", got, err)
	}
	before := time.Date(1969, 12, 31, 23, 59, 59, 999_999_999, time.UTC)
	got, _ = FromSQL(precise(spec.Timestamp, 0, 0), before)
	if got.(spec.TimestampValue).Time() != before.Truncate(time.Second) {
		t.Errorf("timestamp(0) before the epoch: %v", got)
	}
	day, _ := FromSQL(typ(spec.Date), before)
	if day != spec.DateValue(-1) {
		t.Errorf("date before the epoch: %v, want -1", day)
	}
}

func TestNestedValuesAreJSON(t *testing.T) {
	intType := typ(spec.Int)
	strType := sized(spec.VarChar, spec.MaxVarLength)
	mapType := spec.DataType{Root: spec.Map, Key: &strType, Value: &intType}
	rowType := spec.DataType{Root: spec.Row, Fields: []spec.DataField{
		{Name: "a", Type: intType},
		{Name: "m", Type: mapType},
		{Name: "d", Type: precise(spec.Decimal, 20, 3)},
	}}
	v := []any{int32(1), spec.MapValue{Keys: []any{"x"}, Values: []any{int32(2)}}, spec.NewDecimal(1500, 3)}
	got, err := ToSQL(rowType, v)
	if err != nil {
		t.Fatal(err)
	}
	s, err := got.(types.JSONDocument).JSONString()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a": 1, "d": "1.500", "m": {"x": 2}}`; s != want {
		t.Errorf("got %s, want %s", s, want)
	}
	intKeyed := spec.DataType{Root: spec.Map, Key: &intType, Value: &strType}
	got, _ = ToSQL(intKeyed, spec.MapValue{Keys: []any{int32(1)}, Values: []any{"one"}})
	s, _ = got.(types.JSONDocument).JSONString()
	if want := `[{"key": 1, "value": "one"}]`; s != want {
		t.Errorf("int-keyed map: got %s, want %s", s, want)
	}
}

// TestTimestampLTZIsShownAsUTCDatetime checks the F8 mapping: a TIMESTAMP
// WITH LOCAL TIME ZONE column is a datetime, so values outside MySQL's
// TIMESTAMP range (1970-2038) that Flink or Java wrote read and print, and
// DDL declares it timestamp(p) again.
func TestTimestampLTZIsShownAsUTCDatetime(t *testing.T) {
	ltz := precise(spec.TimestampLTZ, 3, 0)
	shown, err := Type(ltz)
	if err != nil || shown.String() != "datetime(3)" {
		t.Fatalf("Type: %v %v, want datetime(3)", shown, err)
	}
	declared, err := DeclaredType(ltz)
	if err != nil || declared.String() != "timestamp(3)" {
		t.Fatalf("DeclaredType: %v %v, want timestamp(3)", declared, err)
	}
	ctx := sql.NewEmptyContext()
	for _, ms := range []int64{253402300799999, -14182940000} { // 9999-12-31 23:59:59.999, 1969-07-20 20:17:40
		v, err := ToSQL(ltz, spec.TimestampFromTime(time.UnixMilli(ms).UTC()))
		if err != nil {
			t.Fatal(err)
		}
		out, err := shown.SQL(ctx, nil, v)
		if err != nil {
			t.Errorf("%d: %v", ms, err)
			continue
		}
		if want := time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.999"); out.ToString() != want {
			t.Errorf("%d: %s, want %s", ms, out.ToString(), want)
		}
		back, err := FromSQL(ltz, v)
		if err != nil || back.(spec.TimestampValue).Time() != time.UnixMilli(ms).UTC() {
			t.Errorf("%d: back %v %v", ms, back, err)
		}
	}
}
