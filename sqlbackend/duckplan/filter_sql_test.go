package duckplan

import (
	"errors"
	"math"
	"testing"

	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// filterFields are the columns the cases filter on, one per type; their
// names are what FilterSQL is given, so a name needing quotes is among
// them.
var filterFields = []spec.DataField{
	{ID: 0, Name: "b", Type: spec.DataType{Root: spec.Boolean, Nullable: true}},
	{ID: 1, Name: "ti", Type: spec.DataType{Root: spec.TinyInt, Nullable: true}},
	{ID: 2, Name: "bi", Type: spec.DataType{Root: spec.BigInt, Nullable: true}},
	{ID: 3, Name: "f", Type: spec.DataType{Root: spec.Float, Nullable: true}},
	{ID: 4, Name: "d", Type: spec.DataType{Root: spec.Double, Nullable: true}},
	{ID: 5, Name: "dec", Type: spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 10, Scale: 2}},
	{ID: 6, Name: `we"ird`, Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}},
	{ID: 7, Name: "bin", Type: spec.DataType{Root: spec.VarBinary, Nullable: true, Length: spec.MaxVarLength}},
	{ID: 8, Name: "dt", Type: spec.DataType{Root: spec.Date, Nullable: true}},
	{ID: 9, Name: "ts", Type: spec.DataType{Root: spec.Timestamp, Nullable: true, Precision: 6}},
	{ID: 10, Name: "ltz", Type: spec.DataType{Root: spec.TimestampLTZ, Nullable: true, Precision: 3}},
	{ID: 11, Name: "ts9", Type: spec.DataType{Root: spec.Timestamp, Nullable: true, Precision: 9}},
	{ID: 12, Name: "big", Type: spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 38, Scale: 0}},
	{ID: 13, Name: "tm", Type: spec.DataType{Root: spec.Time, Nullable: true, Precision: 3}},
	{ID: 14, Name: "c", Type: spec.DataType{Root: spec.Char, Nullable: true, Length: 3}},
}

func filterNames() []string {
	names := make([]string, len(filterFields))
	for i, f := range filterFields {
		names[i] = f.Name
	}
	return names
}

// leaf builds a leaf on the named column of filterFields.
func leaf(t *testing.T, name string, op predicate.Op, lits ...any) predicate.Predicate {
	t.Helper()
	for i, f := range filterFields {
		if f.Name == name {
			p, err := predicate.Leaf(predicate.ColumnOf(i, f), op, lits...)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatalf("no column %s", name)
	return nil
}

func TestFilterSQL(t *testing.T) {
	cases := []struct {
		name string
		p    func(t *testing.T) predicate.Predicate
		want string
	}{
		{"true", func(*testing.T) predicate.Predicate { return predicate.Constant(predicate.True) }, "TRUE"},
		{"unknown", func(*testing.T) predicate.Predicate { return predicate.Constant(predicate.Unknown) }, "CAST(NULL AS BOOLEAN)"},
		{"boolean", func(t *testing.T) predicate.Predicate { return leaf(t, "b", predicate.OpEq, true) }, `("b" = TRUE)`},
		{"tinyint", func(t *testing.T) predicate.Predicate { return leaf(t, "ti", predicate.OpLt, -5) }, `("ti" < CAST(-5 AS TINYINT))`},
		{"bigint minimum", func(t *testing.T) predicate.Predicate { return leaf(t, "bi", predicate.OpGe, int64(math.MinInt64)) },
			`("bi" >= CAST(-9223372036854775808 AS BIGINT))`},
		{"float", func(t *testing.T) predicate.Predicate { return leaf(t, "f", predicate.OpGt, float32(0.1)) }, `("f" > CAST('0.1' AS FLOAT))`},
		{"double negative zero", func(t *testing.T) predicate.Predicate { return leaf(t, "d", predicate.OpEq, math.Copysign(0, -1)) },
			`("d" = CAST('-0' AS DOUBLE))`},
		{"double exact", func(t *testing.T) predicate.Predicate { return leaf(t, "d", predicate.OpNotEq, 1e-300) },
			`("d" <> CAST('1e-300' AS DOUBLE))`},
		{"decimal", func(t *testing.T) predicate.Predicate { return leaf(t, "dec", predicate.OpBetween, "-1.5", "12") },
			`("dec" BETWEEN CAST('-1.50' AS DECIMAL(10,2)) AND CAST('12.00' AS DECIMAL(10,2)))`},
		{"decimal 38", func(t *testing.T) predicate.Predicate {
			return leaf(t, "big", predicate.OpEq, "-99999999999999999999999999999999999999")
		},
			`("big" = CAST('-99999999999999999999999999999999999999' AS DECIMAL(38,0)))`},
		{"string quotes and backslash", func(t *testing.T) predicate.Predicate { return leaf(t, `we"ird`, predicate.OpEq, `it's \n`) },
			`("we""ird" = 'it''s \n')`},
		{"empty string", func(t *testing.T) predicate.Predicate { return leaf(t, "c", predicate.OpNotEq, "") }, `("c" <> '')`},
		{"like prefix", func(t *testing.T) predicate.Predicate {
			p, ok := predicate.Like(predicate.ColumnOf(6, filterFields[6]), "a'b%", '\\')
			if !ok {
				t.Fatal("LIKE is not a predicate")
			}
			return predicate.Not(p)
		}, `(NOT starts_with("we""ird", 'a''b'))`},
		{"bytes", func(t *testing.T) predicate.Predicate {
			return leaf(t, "bin", predicate.OpIn, []byte{0, 'a', 0xff}, []byte{})
		},
			`("bin" IN (CAST('' AS BLOB), CAST('\x00\x61\xFF' AS BLOB)))`},
		{"date", func(t *testing.T) predicate.Predicate { return leaf(t, "dt", predicate.OpLe, "2024-02-29") }, `("dt" <= DATE '2024-02-29')`},
		{"timestamp", func(t *testing.T) predicate.Predicate {
			return leaf(t, "ts", predicate.OpGt, "1969-12-31 23:59:59.999999")
		},
			`("ts" > TIMESTAMP '1969-12-31 23:59:59.999999')`},
		{"local time zone", func(t *testing.T) predicate.Predicate {
			return leaf(t, "ltz", predicate.OpLt, spec.TimestampValue{Millis: -1})
		},
			`("ltz" < TIMESTAMPTZ '1969-12-31 23:59:59.999000+00')`},
		{"time", func(t *testing.T) predicate.Predicate { return leaf(t, "tm", predicate.OpEq, "10:11:12.5") }, `("tm" = TIME '10:11:12.500')`},
		{"in with null", func(t *testing.T) predicate.Predicate { return leaf(t, "ti", predicate.OpNotIn, 3, nil, 1) },
			`("ti" NOT IN (CAST(1 AS TINYINT), CAST(3 AS TINYINT), NULL))`},
		{"empty in", func(t *testing.T) predicate.Predicate { return leaf(t, "ti", predicate.OpIn, 300) },
			`(CASE WHEN "ti" IS NULL THEN NULL ELSE FALSE END)`},
		{"empty not in", func(t *testing.T) predicate.Predicate { return predicate.Not(leaf(t, "ti", predicate.OpIn, 300)) },
			`(CASE WHEN "ti" IS NULL THEN NULL ELSE TRUE END)`},
		{"compound", func(t *testing.T) predicate.Predicate {
			return predicate.Or(leaf(t, "b", predicate.OpIsNull), predicate.And(leaf(t, "ti", predicate.OpIsNotNull), leaf(t, "bi", predicate.OpEq, 7)))
		}, `(("b" IS NULL) OR (("ti" IS NOT NULL) AND ("bi" = CAST(7 AS BIGINT))))`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := FilterSQL(c.p(t), filterNames())
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestFilterSQLRefuses(t *testing.T) {
	cases := []struct {
		name string
		p    func(t *testing.T) predicate.Predicate
	}{
		{"nanoseconds", func(t *testing.T) predicate.Predicate {
			return leaf(t, "ts9", predicate.OpEq, spec.TimestampValue{Millis: 1, NanoOfMilli: 1})
		}},
		{"invalid utf-8", func(t *testing.T) predicate.Predicate { return leaf(t, "c", predicate.OpEq, []byte{0xff}) }},
		{"nul", func(t *testing.T) predicate.Predicate { return leaf(t, "c", predicate.OpEq, "a\x00") }},
		{"year 10000", func(t *testing.T) predicate.Predicate { return leaf(t, "dt", predicate.OpLt, spec.DateValue(2932897)) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := FilterSQL(predicate.And(leaf(t, "b", predicate.OpIsNull), c.p(t)), filterNames())
			if !errors.Is(err, ErrFilterSQL) {
				t.Fatalf("rendered %q (error %v); want ErrFilterSQL", got, err)
			}
		})
	}
	t.Run("unnamed column", func(t *testing.T) {
		if _, err := FilterSQL(leaf(t, "c", predicate.OpIsNull), []string{"b"}); !errors.Is(err, ErrFilterSQL) {
			t.Fatalf("error %v; want ErrFilterSQL", err)
		}
	})
}

// Predicates never hold NaN or infinite literals (Leaf refuses them), but
// the literal renderer spells them for any caller that has one.
func TestRenderFloatSpecials(t *testing.T) {
	double := spec.DataType{Root: spec.Double}
	for v, want := range map[float64]string{
		math.NaN():   "CAST('NaN' AS DOUBLE)",
		math.Inf(1):  "CAST('Infinity' AS DOUBLE)",
		math.Inf(-1): "CAST('-Infinity' AS DOUBLE)",
		-1.5e300:     "CAST('-1.5e+300' AS DOUBLE)",
	} {
		if got, err := renderLiteralErr(double, v); err != nil || got != want {
			t.Errorf("%v: got %q, %v; want %q", v, got, err, want)
		}
	}
	if got, err := renderLiteralErr(double, float32(1)); !errors.Is(err, ErrFilterSQL) {
		t.Errorf("a FLOAT value against a DOUBLE column rendered as %q", got)
	}
}
