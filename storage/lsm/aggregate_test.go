package lsm

import (
	"errors"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

var (
	tinyintType  = spec.DataType{Root: spec.TinyInt, Nullable: true}
	smallintType = spec.DataType{Root: spec.SmallInt, Nullable: true}
	floatType    = spec.DataType{Root: spec.Float, Nullable: true}
	doubleType   = spec.DataType{Root: spec.Double, Nullable: true}
	booleanType  = spec.DataType{Root: spec.Boolean, Nullable: true}
	arrayType    = spec.DataType{Root: spec.Array, Nullable: true, Element: &intType}
)

func decimalType(precision, scale int) spec.DataType {
	return spec.DataType{Root: spec.Decimal, Nullable: true, Precision: precision, Scale: scale}
}

func dec(unscaled int64, scale int) spec.DecimalValue { return spec.NewDecimal(unscaled, scale) }

func bigDec(unscaled string, scale int) spec.DecimalValue {
	u, _ := new(big.Int).SetString(unscaled, 10)
	return spec.NewDecimalBig(u, scale)
}

// aggInput is one record of the aggregated column v.
type aggInput struct {
	kind  spec.RowKind
	value any
}

func add(v any) aggInput     { return aggInput{spec.RowKindInsert, v} }
func retract(v any) aggInput { return aggInput{spec.RowKindDelete, v} }
func before(v any) aggInput  { return aggInput{spec.RowKindUpdateBefore, v} }

type aggCase struct {
	name    string
	typ     spec.DataType
	fn      string            // fields.v.aggregate-function; "" for the default
	options map[string]string // more table options
	inputs  []aggInput
	want    any
	wantErr error
}

// runAggCase aggregates the inputs of column v in a table (k INT, v) and
// checks the merged v.
func runAggCase(t *testing.T, tc aggCase) {
	t.Helper()
	opts := withEngine(EngineAggregation, tc.options)
	if tc.fn != "" {
		opts["fields.v.aggregate-function"] = tc.fn
	}
	cols := []spec.DataField{column("k", intType.WithNullable(false)), column("v", tc.typ)}
	got, err := aggregateColumn(cols, opts, tc.inputs)
	if tc.wantErr != nil || err != nil {
		if !errors.Is(err, tc.wantErr) {
			t.Fatalf("got error %v, want %v", err, tc.wantErr)
		}
		return
	}
	if !reflect.DeepEqual(got.Value[1], tc.want) {
		t.Fatalf("got %#v, want %#v", got.Value[1], tc.want)
	}
}

func aggregateColumn(cols []spec.DataField, opts map[string]string, inputs []aggInput) (KeyValue, error) {
	e, err := NewEngine(newTestSchema(cols, []string{"k"}, opts), compareTestValues)
	if err != nil {
		return KeyValue{}, err
	}
	mf := e.NewMergeFunction()
	if err := feed(mf, inputs); err != nil {
		return KeyValue{}, err
	}
	got, _ := mf.Result()
	return got, nil
}

func feed(mf MergeFunction, inputs []aggInput) error {
	mf.Reset()
	for i, in := range inputs {
		kv := KeyValue{Key: ints(1), Seq: int64(i), Kind: in.kind, Value: []any{int32(1), in.value}}
		if err := mf.Add(kv); err != nil {
			return err
		}
	}
	return nil
}

func TestAggregateSum(t *testing.T) {
	cases := []aggCase{
		{name: "int skips nulls", typ: intType, inputs: []aggInput{add(int32(1)), add(int32(2)), add(nil), add(int32(3))}, want: int32(6)},
		{name: "all null", typ: intType, inputs: []aggInput{add(nil), add(nil)}, want: nil},
		{name: "retract", typ: intType, inputs: []aggInput{add(int32(5)), retract(int32(2))}, want: int32(3)},
		{name: "update-before retracts", typ: intType, inputs: []aggInput{add(int32(5)), before(int32(2))}, want: int32(3)},
		{name: "retract first negates", typ: intType, inputs: []aggInput{retract(int32(5))}, want: int32(-5)},
		{name: "retract null", typ: intType, inputs: []aggInput{add(int32(5)), retract(nil)}, want: int32(5)},
		{name: "tinyint overflow", typ: tinyintType, inputs: []aggInput{add(int8(127)), add(int8(1))}, wantErr: ErrArithmetic},
		{name: "smallint overflow", typ: smallintType, inputs: []aggInput{add(int16(math.MinInt16)), add(int16(-1))}, wantErr: ErrArithmetic},
		{name: "int overflow", typ: intType, inputs: []aggInput{add(int32(math.MaxInt32)), add(int32(1))}, wantErr: ErrArithmetic},
		{name: "bigint overflow", typ: bigintType, inputs: []aggInput{add(int64(math.MaxInt64)), add(int64(1))}, wantErr: ErrArithmetic},
		{name: "bigint at limit", typ: bigintType, inputs: []aggInput{add(int64(math.MaxInt64 - 1)), add(int64(1))}, want: int64(math.MaxInt64)},
		{name: "tinyint retract overflow", typ: tinyintType, inputs: []aggInput{add(int8(-128)), retract(int8(1))}, wantErr: ErrArithmetic},
		{name: "tinyint negate overflow", typ: tinyintType, inputs: []aggInput{retract(int8(-128))}, wantErr: ErrArithmetic},
		{name: "bigint negate overflow", typ: bigintType, inputs: []aggInput{retract(int64(math.MinInt64))}, wantErr: ErrArithmetic},
		{name: "float", typ: floatType, inputs: []aggInput{add(float32(1.5)), add(float32(2.25))}, want: float32(3.75)},
		{name: "double", typ: doubleType, inputs: []aggInput{add(0.1), add(0.2), retract(0.05)}, want: floatSum(0.1, 0.2, -0.05)},
		{name: "decimal keeps scale", typ: decimalType(10, 2), inputs: []aggInput{add(dec(125, 2)), add(dec(250, 2))}, want: dec(375, 2)},
		{name: "decimal retract", typ: decimalType(10, 2), inputs: []aggInput{add(dec(375, 2)), retract(dec(125, 2))}, want: dec(250, 2)},
		{name: "decimal retract first", typ: decimalType(10, 2), inputs: []aggInput{retract(dec(125, 2))}, want: dec(-125, 2)},
		// Java's compact path (DecimalUtils.add) only checks for long
		// overflow, so a compact column may exceed its precision.
		{name: "decimal compact past precision", typ: decimalType(3, 1), inputs: []aggInput{add(dec(999, 1)), add(dec(2, 1))}, want: dec(1001, 1)},
		{name: "decimal compact long overflow is null", typ: decimalType(18, 0),
			inputs: []aggInput{add(dec(math.MaxInt64, 0)), add(dec(1, 0))}, want: nil},
		{name: "decimal wide", typ: decimalType(20, 2),
			inputs: []aggInput{add(bigDec("9000000000000000000", 2)), add(bigDec("9000000000000000000", 2))},
			want:   bigDec("18000000000000000000", 2)},
		{name: "decimal wide overflow is null", typ: decimalType(20, 2),
			inputs: []aggInput{add(bigDec("99999999999999999999", 2)), add(dec(1, 2))}, want: nil},
		{name: "wrong Go type", typ: intType, inputs: []aggInput{add(int32(1)), add(int64(2))}, wantErr: lakeerr.ErrCorruption},
		{name: "string column", typ: stringType, inputs: nil, wantErr: ErrInvalidOptions},
	}
	for _, tc := range cases {
		tc.fn = aggSum
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}

func TestAggregateProduct(t *testing.T) {
	cases := []aggCase{
		{name: "int", typ: intType, inputs: []aggInput{add(int32(2)), add(nil), add(int32(3)), add(int32(4))}, want: int32(24)},
		{name: "retract divides", typ: intType, inputs: []aggInput{add(int32(24)), retract(int32(4))}, want: int32(6)},
		{name: "retract truncates", typ: intType, inputs: []aggInput{add(int32(-7)), retract(int32(2))}, want: int32(-3)},
		{name: "retract by zero", typ: intType, inputs: []aggInput{add(int32(24)), retract(int32(0))}, wantErr: ErrArithmetic},
		{name: "retract first stays null", typ: intType, inputs: []aggInput{retract(int32(5))}, want: nil},
		{name: "int overflow", typ: intType, inputs: []aggInput{add(int32(100000)), add(int32(100000))}, wantErr: ErrArithmetic},
		{name: "tinyint overflow", typ: tinyintType, inputs: []aggInput{add(int8(64)), add(int8(2))}, wantErr: ErrArithmetic},
		{name: "tinyint negative limit", typ: tinyintType, inputs: []aggInput{add(int8(-64)), add(int8(2))}, want: int8(-128)},
		{name: "bigint min times -1", typ: bigintType, inputs: []aggInput{add(int64(math.MinInt64)), add(int64(-1))}, wantErr: ErrArithmetic},
		{name: "int min divided by -1", typ: intType, inputs: []aggInput{add(int32(math.MinInt32)), retract(int32(-1))}, wantErr: ErrArithmetic},
		{name: "double", typ: doubleType, inputs: []aggInput{add(1.5), add(4.0)}, want: 6.0},
		{name: "double retract by zero", typ: doubleType, inputs: []aggInput{add(1.5), retract(0.0)}, want: math.Inf(1)},
		{name: "decimal rounds half up", typ: decimalType(10, 2), inputs: []aggInput{add(dec(115, 2)), add(dec(110, 2))}, want: dec(127, 2)},
		{name: "decimal negative rounds away from zero", typ: decimalType(10, 2), inputs: []aggInput{add(dec(-115, 2)), add(dec(110, 2))}, want: dec(-127, 2)},
		{name: "decimal overflow is null", typ: decimalType(4, 2), inputs: []aggInput{add(dec(9900, 2)), add(dec(200, 2))}, want: nil},
		{name: "decimal retract", typ: decimalType(10, 2), inputs: []aggInput{add(dec(1000, 2)), retract(dec(400, 2))}, want: dec(250, 2)},
		{name: "decimal retract rounds", typ: decimalType(10, 1), inputs: []aggInput{add(dec(50, 1)), retract(dec(40, 1))}, want: dec(13, 1)},
		{name: "decimal retract non-terminating", typ: decimalType(10, 2), inputs: []aggInput{add(dec(100, 2)), retract(dec(300, 2))}, wantErr: ErrArithmetic},
		{name: "decimal retract by zero", typ: decimalType(10, 2), inputs: []aggInput{add(dec(100, 2)), retract(dec(0, 2))}, wantErr: ErrArithmetic},
		{name: "boolean column", typ: booleanType, wantErr: ErrInvalidOptions},
	}
	for _, tc := range cases {
		tc.fn = aggProduct
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}

// TestAggregateCount pins Paimon 0.8's count, which counts from 1 again
// whenever rows are merged (why 0.9 removed it).
func TestAggregateCount(t *testing.T) {
	cases := []aggCase{
		{name: "counts non-null", typ: intType, inputs: []aggInput{add(int32(7)), add(nil), add(int32(9))}, want: int32(2)},
		{name: "null first counts zero", typ: intType, inputs: []aggInput{add(nil), add(int32(5))}, want: int32(1)},
		{name: "stored count restarts at one", typ: bigintType, inputs: []aggInput{add(int64(40)), add(int64(2))}, want: int64(2)},
		{name: "retract", typ: intType, inputs: []aggInput{add(int32(7)), add(int32(8)), retract(int32(7))}, want: int32(1)},
		{name: "retract first", typ: smallintType, inputs: []aggInput{retract(int16(7))}, want: int16(-1)},
		{name: "tinyint wraps", typ: tinyintType, inputs: append([]aggInput{add(int8(1))}, repeatInputs(add(int8(1)), 127)...), want: int8(-128)},
		{name: "string column", typ: stringType, wantErr: ErrInvalidOptions},
	}
	for _, tc := range cases {
		tc.fn = aggCount
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}

// floatSum adds at run time, where IEEE rounding applies (constant
// expressions are exact).
func floatSum(vs ...float64) float64 {
	var s float64
	for _, v := range vs {
		s += v
	}
	return s
}

func repeatInputs(in aggInput, n int) []aggInput {
	out := make([]aggInput, n)
	for i := range out {
		out[i] = in
	}
	return out
}

func TestAggregateMinMax(t *testing.T) {
	ignoreRetract := map[string]string{"fields.v.ignore-retract": "true"}
	cases := []aggCase{
		{name: "min int", fn: aggMin, typ: intType, inputs: []aggInput{add(int32(3)), add(nil), add(int32(1)), add(int32(2))}, want: int32(1)},
		{name: "max int", fn: aggMax, typ: intType, inputs: []aggInput{add(int32(3)), add(nil), add(int32(1)), add(int32(2))}, want: int32(3)},
		{name: "min string", fn: aggMin, typ: stringType, inputs: []aggInput{add("b"), add("a"), add("c")}, want: "a"},
		{name: "max decimal", fn: aggMax, typ: decimalType(10, 2), inputs: []aggInput{add(dec(5, 2)), add(dec(7, 2))}, want: dec(7, 2)},
		{name: "max null only", fn: aggMax, typ: intType, inputs: []aggInput{add(nil)}, want: nil},
		{name: "max boolean", fn: aggMax, typ: booleanType, inputs: []aggInput{add(false), add(true), add(false)}, want: true},
		{name: "min retract refused", fn: aggMin, typ: intType, inputs: []aggInput{add(int32(3)), retract(int32(3))}, wantErr: ErrRejectedRecord},
		{name: "min ignore-retract", fn: aggMin, typ: intType, options: ignoreRetract,
			inputs: []aggInput{add(int32(3)), retract(int32(1)), add(int32(4))}, want: int32(3)},
		{name: "max array column", fn: aggMax, typ: arrayType, wantErr: ErrInvalidOptions},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}

func TestAggregateValueFunctions(t *testing.T) {
	cases := []aggCase{
		{name: "last_value takes null", fn: aggLastValue, typ: intType, inputs: []aggInput{add(int32(1)), add(nil)}, want: nil},
		{name: "last_value", fn: aggLastValue, typ: intType, inputs: []aggInput{add(int32(1)), add(int32(2))}, want: int32(2)},
		{name: "last_value retract", fn: aggLastValue, typ: intType, inputs: []aggInput{add(int32(1)), retract(int32(1))}, want: nil},
		{name: "last_non_null_value", fn: aggLastNonNullValue, typ: intType, inputs: []aggInput{add(int32(1)), add(nil)}, want: int32(1)},
		{name: "last_non_null_value retract", fn: aggLastNonNullValue, typ: intType, inputs: []aggInput{add(int32(1)), retract(int32(5))}, want: nil},
		{name: "last_non_null_value retract null", fn: aggLastNonNullValue, typ: intType, inputs: []aggInput{add(int32(1)), retract(nil)}, want: int32(1)},
		{name: "default is last_non_null_value", typ: intType, inputs: []aggInput{add(int32(1)), add(nil)}, want: int32(1)},
		{name: "table default function", typ: intType, options: map[string]string{"fields.default-aggregate-function": "sum"},
			inputs: []aggInput{add(int32(1)), add(int32(2))}, want: int32(3)},
		{name: "field function beats table default", fn: aggMax, typ: intType, options: map[string]string{"fields.default-aggregate-function": "sum"},
			inputs: []aggInput{add(int32(1)), add(int32(2))}, want: int32(2)},
		{name: "first_value keeps null", fn: aggFirstValue, typ: intType, inputs: []aggInput{add(nil), add(int32(2))}, want: nil},
		{name: "first_value", fn: aggFirstValue, typ: intType, inputs: []aggInput{add(int32(1)), add(int32(2))}, want: int32(1)},
		{name: "first_value retract refused", fn: aggFirstValue, typ: intType, inputs: []aggInput{add(int32(1)), retract(int32(1))}, wantErr: ErrRejectedRecord},
		{name: "first_non_null_value", fn: aggFirstNonNullValue, typ: intType, inputs: []aggInput{add(nil), add(int32(2)), add(int32(3))}, want: int32(2)},
		{name: "first_not_null_value legacy name", fn: aggFirstNotNullLegacy, typ: intType, inputs: []aggInput{add(nil), add(int32(2)), add(int32(3))}, want: int32(2)},
		{name: "bool_and", fn: aggBoolAnd, typ: booleanType, inputs: []aggInput{add(true), add(nil), add(false)}, want: false},
		{name: "bool_and all true", fn: aggBoolAnd, typ: booleanType, inputs: []aggInput{add(true), add(true)}, want: true},
		{name: "bool_or", fn: aggBoolOr, typ: booleanType, inputs: []aggInput{add(false), add(nil), add(true)}, want: true},
		{name: "bool_or null only", fn: aggBoolOr, typ: booleanType, inputs: []aggInput{add(nil)}, want: nil},
		{name: "bool_or retract refused", fn: aggBoolOr, typ: booleanType, inputs: []aggInput{add(true), before(true)}, wantErr: ErrRejectedRecord},
		{name: "bool_and int column", fn: aggBoolAnd, typ: intType, wantErr: ErrInvalidOptions},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}

func TestAggregateListagg(t *testing.T) {
	distinct := map[string]string{"fields.v.distinct": "true"}
	cases := []aggCase{
		{name: "default delimiter", typ: stringType, inputs: []aggInput{add("a"), add(nil), add("b")}, want: "a,b"},
		{name: "skips blanks", typ: stringType, inputs: []aggInput{add(" "), add("a"), add(""), add("\t\n"), add("\u3000"), add("b")}, want: "a,b"},
		{name: "non-breaking space is not blank", typ: stringType, inputs: []aggInput{add("a"), add("\u00a0")}, want: "a,\u00a0"},
		{name: "custom delimiter", typ: stringType, options: map[string]string{"fields.v.list-agg-delimiter": ";"},
			inputs: []aggInput{add("a"), add("b")}, want: "a;b"},
		{name: "distinct", typ: stringType, options: distinct, inputs: []aggInput{add("user1"), add("user2"), add("user1,user3")}, want: "user1,user2,user3"},
		{name: "distinct keeps substrings", typ: stringType, options: distinct, inputs: []aggInput{add("abc"), add("ab")}, want: "abc,ab"},
		{name: "null only", typ: stringType, inputs: []aggInput{add(nil)}, want: nil},
		{name: "blank only is null", typ: stringType, inputs: []aggInput{add(" "), add("")}, want: nil},
		{name: "retract refused", typ: stringType, inputs: []aggInput{add("a"), retract("a")}, wantErr: ErrRejectedRecord},
		// Java takes any VARCHAR and does not cut the joined value.
		{name: "bounded varchar", typ: spec.DataType{Root: spec.VarChar, Length: 10, Nullable: true},
			inputs: []aggInput{add("abcdef"), add("ghijkl")}, want: "abcdef,ghijkl"},
		{name: "char", typ: spec.DataType{Root: spec.Char, Length: 10, Nullable: true}, wantErr: ErrInvalidOptions},
	}
	for _, tc := range cases {
		tc.fn = aggListAgg
		t.Run(tc.name, func(t *testing.T) { runAggCase(t, tc) })
	}
}

func TestAggregateUnsupportedFunction(t *testing.T) {
	for _, fn := range []string{"no_such_function"} {
		_, err := aggregateColumn([]spec.DataField{column("k", intType), column("v", intType)},
			withEngine(EngineAggregation, map[string]string{"fields.v.aggregate-function": fn}), nil)
		if !errors.Is(err, lakeerr.ErrUnsupported) || !strings.Contains(err.Error(), "unsupported: aggregate function "+fn) {
			t.Errorf("%s: got %v, want an ErrUnsupported naming the function", fn, err)
		}
	}
}

// TestAggregationEngine covers the engine around the field aggregators: key
// and sequence columns, remove-record-on-delete, and the result's key and
// sequence number.
func TestAggregationEngine(t *testing.T) {
	cols := []spec.DataField{column("k", intType), column("ts", intType), column("total", intType)}
	opts := withEngine(EngineAggregation, map[string]string{
		"sequence.field": "ts", "fields.total.aggregate-function": "sum",
		"fields.default-aggregate-function": "max",
	})
	e := mustEngine(t, newTestSchema(cols, []string{"k"}, opts))
	mf := e.NewMergeFunction()
	mf.Reset()
	for i, row := range [][]any{ints(1, 5, 10), ints(1, 3, 20), ints(1, nil, 30)} {
		if err := mf.Add(KeyValue{Key: ints(1), Seq: int64(10 + i), Value: row}); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := mf.Result()
	// ts is the sequence field: last_value, not the table default max.
	if want := ints(1, nil, 60); !reflect.DeepEqual(got.Value, want) || got.Seq != 12 || got.Kind != spec.RowKindInsert {
		t.Fatalf("got %s seq=%d %v, want +I seq=12 %v", got.Kind, got.Seq, got.Value, want)
	}
}

func TestAggregationRemoveRecordOnDelete(t *testing.T) {
	cols := []spec.DataField{column("k", intType), column("v", intType)}
	opts := withEngine(EngineAggregation, map[string]string{
		"aggregation.remove-record-on-delete": "true", "fields.v.aggregate-function": "sum",
	})
	got, err := aggregateColumn(cols, opts, []aggInput{add(int32(1)), add(int32(2)), retract(int32(9)), add(int32(4))})
	if err != nil || got.Kind != spec.RowKindInsert || !reflect.DeepEqual(got.Value, ints(1, 13)) {
		t.Fatalf("insert after delete: got %v %v (%v)", got.Kind, got.Value, err)
	}
	got, err = aggregateColumn(cols, opts, []aggInput{add(int32(1)), retract(int32(9))})
	if err != nil || got.Kind != spec.RowKindDelete || !reflect.DeepEqual(got.Value, ints(1, 9)) {
		t.Fatalf("delete: got %v %v (%v)", got.Kind, got.Value, err)
	}
	// -U is a plain retraction under this option.
	got, err = aggregateColumn(cols, opts, []aggInput{add(int32(5)), before(int32(2))})
	if err != nil || got.Kind != spec.RowKindInsert || !reflect.DeepEqual(got.Value, ints(1, 3)) {
		t.Fatalf("update-before: got %v %v (%v)", got.Kind, got.Value, err)
	}
	opts["fields.v.ignore-retract"] = "true"
	if _, err := aggregateColumn(cols, opts, nil); !errors.Is(err, ErrInvalidOptions) {
		t.Fatalf("remove-record-on-delete with ignore-retract: got %v", err)
	}
}

func TestAggregationRejectsMalformedRows(t *testing.T) {
	e := mustEngine(t, newTestSchema(intColumns(2), []string{"f0"}, withEngine(EngineAggregation, nil)))
	mf := e.NewMergeFunction()
	mf.Reset()
	if err := mf.Add(KeyValue{Key: ints(1), Value: ints(1)}); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Fatalf("short row: got %v, want ErrCorruption", err)
	}
}
