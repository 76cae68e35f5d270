package sysprocs

import (
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

func reconcileSchemaOf() *spec.TableSchema {
	return &spec.TableSchema{
		Fields: []spec.DataField{
			{ID: 0, Name: "dt", Type: spec.DataType{Root: spec.Date}},
			{ID: 1, Name: "pay_id", Type: spec.DataType{Root: spec.BigInt}},
			{ID: 2, Name: "amount", Type: spec.DataType{Root: spec.Decimal, Precision: 18, Scale: 2, Nullable: true}},
			{ID: 3, Name: "status", Type: spec.DataType{Root: spec.VarChar, Length: 16, Nullable: true}},
			{ID: 4, Name: "etl_time", Type: spec.DataType{Root: spec.Timestamp, Precision: 3, Nullable: true}},
		},
		PartitionKeys: []string{"dt"},
		PrimaryKeys:   []string{"pay_id", "dt"},
	}
}

// The compared columns lead with the key in key order, which the
// comparison walks, then the rest less those ignored, each with the
// source expression the options map it to.
func TestReconcileColumns(t *testing.T) {
	o, err := parseReconcileOptions("map.STATUS=state; ignore=etl_time; chunk_rows=500; where=a = 1, b = 2; limit=7")
	if err != nil {
		t.Fatal(err)
	}
	if o.compare.ChunkRows != 500 || o.compare.Limit != 7 || o.where != "a = 1, b = 2" {
		t.Fatalf("options %+v", o)
	}
	cols, err := o.columns(reconcileSchemaOf())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cols {
		got = append(got, c.Name+"="+c.Source)
	}
	want := "pay_id=`pay_id` dt=`dt` amount=`amount` status=state"
	if strings.Join(got, " ") != want {
		t.Fatalf("columns %q, want %q", strings.Join(got, " "), want)
	}
	if !cols[0].Key || !cols[1].Key || cols[2].Key {
		t.Fatalf("key flags %+v", cols)
	}
}

func TestReconcileOptionErrors(t *testing.T) {
	for text, want := range map[string]string{
		"chunk_rows=0":  "not a positive whole number",
		"limit=x":       "not a positive whole number",
		"nonsense":      "is not name=value",
		"color=red":     "unknown option color",
		"ignore=pay_id": "is a key column",
		"ignore=nope":   "nope is not a column",
		"map.nope=1":    "map.nope: not a column",
	} {
		o, err := parseReconcileOptions(text)
		if err == nil {
			_, err = o.columns(reconcileSchemaOf())
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("options %q: %v, want an error containing %q", text, err, want)
		}
	}
}

// A partitions argument filters the lake by partition values as SQL
// writes them, and the source by the same values of the mapped columns.
func TestReconcilePartitionCondition(t *testing.T) {
	o, err := parseReconcileOptions("map.dt=pay_date")
	if err != nil {
		t.Fatal(err)
	}
	filter, where, err := partitionCondition(reconcileSchemaOf(), "dt=2026-04-16;dt=2026-04-17", o)
	if err != nil {
		t.Fatal(err)
	}
	if want := "(pay_date = '2026-04-16') OR (pay_date = '2026-04-17')"; where != want {
		t.Errorf("source condition %q, want %q", where, want)
	}
	day, err := spec.ParsePartitionValue(spec.DataType{Root: spec.Date}, "2026-04-16", "", false)
	if err != nil {
		t.Fatal(err)
	}
	row := []any{day, int64(1), nil, nil, nil}
	if filter.Eval(row) != predicate.True {
		t.Errorf("the lake filter %s rejects a row of 2026-04-16", filter)
	}
	row[0] = day.(spec.DateValue) + 5
	if filter.Eval(row) == predicate.True {
		t.Errorf("the lake filter %s keeps a row of 2026-04-21", filter)
	}
	if _, _, err := partitionCondition(reconcileSchemaOf(), "status=PAID", o); err == nil {
		t.Error("a partition spec on a column that is not a partition key was accepted")
	}
}

// plainText prints each value exactly as the wire protocol does, through
// go-mysql-server's type, for the edge values of each type it prints.
func TestPlainTextIsTheWireText(t *testing.T) {
	dec := func(unscaled int64, scale int) spec.DecimalValue { return spec.NewDecimal(unscaled, scale) }
	cases := []struct {
		t spec.DataType
		v any
	}{
		{spec.DataType{Root: spec.TinyInt}, int8(-128)},
		{spec.DataType{Root: spec.SmallInt}, int16(32767)},
		{spec.DataType{Root: spec.Int}, int32(-2147483648)},
		{spec.DataType{Root: spec.BigInt}, int64(9223372036854775807)},
		{spec.DataType{Root: spec.BigInt}, int64(-1)},
		{spec.DataType{Root: spec.VarChar, Length: 20}, "Zürich ✓"},
		{spec.DataType{Root: spec.Char, Length: 3}, "ab"},
		{spec.DataType{Root: spec.Date}, spec.DateValue(0)},
		{spec.DataType{Root: spec.Date}, spec.DateValue(-719162)},
		{spec.DataType{Root: spec.Date}, spec.DateValue(20559)},
		{spec.DataType{Root: spec.Decimal, Precision: 18, Scale: 2}, dec(1050, 2)},
		{spec.DataType{Root: spec.Decimal, Precision: 18, Scale: 2}, dec(-5, 2)},
		{spec.DataType{Root: spec.Decimal, Precision: 18, Scale: 2}, dec(0, 2)},
		{spec.DataType{Root: spec.Decimal, Precision: 10, Scale: 0}, dec(-42, 0)},
		{spec.DataType{Root: spec.Decimal, Precision: 38, Scale: 10}, dec(1, 10)},
		{spec.DataType{Root: spec.Decimal, Precision: 18, Scale: 6}, dec(-999999999999999999, 6)},
	}
	ctx := sql.NewEmptyContext()
	for _, c := range cases {
		got, ok := plainText(c.t, c.v)
		if !ok {
			t.Errorf("%v of %v: not printed", c.v, c.t)
			continue
		}
		typ, err := sqltypes.Type(c.t)
		if err != nil {
			t.Fatal(err)
		}
		sv, err := sqltypes.ToSQL(c.t, c.v)
		if err != nil {
			t.Fatal(err)
		}
		wire, err := typ.SQL(ctx, nil, sv)
		if err != nil {
			t.Fatal(err)
		}
		if got != wire.ToString() {
			t.Errorf("%v of %v: %q, the wire sends %q", c.v, c.t, got, wire.ToString())
		}
	}
	if _, ok := plainText(spec.DataType{Root: spec.Decimal, Scale: 3}, dec(1, 2)); ok {
		t.Error("a decimal of another scale than its column's was printed as is")
	}
}
