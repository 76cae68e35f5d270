package predicate

import (
	"errors"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

func TestLiteralConversion(t *testing.T) {
	shanghai := time.FixedZone("UTC+8", 8*3600)
	cases := []struct {
		typ  string
		op   Op
		lits []any
		want string // the built predicate, or "" when an ErrLiteral is expected
	}{
		// Dates and the partition column spelled as a string.
		{"DATE", OpEq, []any{"2026-04-16"}, "c = DATE '2026-04-16'"},
		{"STRING", OpEq, []any{"2026-04-16"}, "c = '2026-04-16'"},
		{"DATE", OpEq, []any{"2026-4-6"}, "c = DATE '2026-04-06'"},
		{"DATE", OpEq, []any{"2026-04-16 00:00:00"}, "c = DATE '2026-04-16'"},
		{"DATE", OpEq, []any{"2026-04-16 10:00:00"}, "c IN ()"},
		{"DATE", OpLt, []any{"2026-04-16 10:00:00"}, "c <= DATE '2026-04-16'"},
		{"DATE", OpGt, []any{"2026-04-16 10:00:00"}, "c > DATE '2026-04-16'"},
		{"DATE", OpGe, []any{"2026-04-16 10:00:00"}, "c > DATE '2026-04-16'"},
		{"DATE", OpEq, []any{time.Date(2026, 4, 16, 0, 0, 0, 0, shanghai)}, "c = DATE '2026-04-16'"},
		{"DATE", OpEq, []any{spec.DateValue(20559)}, "c = DATE '2026-04-16'"},
		{"DATE", OpEq, []any{"abc"}, ""},
		{"DATE", OpEq, []any{"2026-02-30"}, ""},
		{"DATE", OpEq, []any{"0000-00-00"}, ""},
		{"DATE", OpEq, []any{int64(20260416)}, ""},
		// Timestamps: wall clock, precision, instants.
		{"TIMESTAMP(3)", OpEq, []any{"2026-04-16 10:00:00"}, "c = TIMESTAMP '2026-04-16 10:00:00.000'"},
		{"TIMESTAMP(3)", OpEq, []any{"2026-04-16T10:00:00.5"}, "c = TIMESTAMP '2026-04-16 10:00:00.500'"},
		{"TIMESTAMP(3)", OpEq, []any{time.Date(2026, 4, 16, 10, 0, 0, 0, shanghai)}, "c = TIMESTAMP '2026-04-16 10:00:00.000'"},
		{"TIMESTAMP(3)", OpEq, []any{"2026-04-16 10:00:00.1234"}, "c IN ()"},
		{"TIMESTAMP(3)", OpLt, []any{"2026-04-16 10:00:00.1234"}, "c <= TIMESTAMP '2026-04-16 10:00:00.123'"},
		{"TIMESTAMP(6)", OpEq, []any{"2026-04-16"}, "c = TIMESTAMP '2026-04-16 00:00:00.000000'"},
		{"TIMESTAMP(0)", OpGe, []any{spec.DateValue(20559)}, "c >= TIMESTAMP '2026-04-16 00:00:00'"},
		{"TIMESTAMP(9)", OpEq, []any{"1969-12-31 23:59:59.999999999"}, "c = TIMESTAMP '1969-12-31 23:59:59.999999999'"},
		{"TIMESTAMP(3)", OpEq, []any{"2026-04-16 25:00:00"}, ""},
		{"TIMESTAMP(3) WITH LOCAL TIME ZONE", OpEq, []any{time.Date(2026, 4, 16, 18, 0, 0, 0, shanghai)},
			"c = TIMESTAMP_LTZ '2026-04-16 10:00:00.000 UTC'"},
		{"TIMESTAMP(3) WITH LOCAL TIME ZONE", OpEq, []any{"2026-04-16 10:00:00"}, ""},
		{"TIME(3)", OpEq, []any{"10:00:00.5"}, "c = TIME '10:00:00.500'"},
		{"TIME(0)", OpLt, []any{"10:00:00.5"}, "c <= TIME '10:00:00'"},
		{"TIME(3)", OpEq, []any{"24:00:00"}, "c IN ()"},
		// Decimals are exact; float literals are the decimal they print.
		{"DECIMAL(10, 2)", OpEq, []any{"12.5"}, "c = 12.50"},
		{"DECIMAL(10, 2)", OpEq, []any{int64(5)}, "c = 5.00"},
		{"DECIMAL(10, 2)", OpEq, []any{0.1}, "c = 0.10"},
		{"DECIMAL(10, 2)", OpEq, []any{12.345}, "c IN ()"},
		{"DECIMAL(10, 2)", OpLt, []any{"12.345"}, "c <= 12.34"},
		{"DECIMAL(10, 2)", OpGt, []any{"-12.345"}, "c > -12.35"},
		{"DECIMAL(10, 2)", OpLt, []any{"1e20"}, "c <= 99999999.99"},
		{"DECIMAL(10, 2)", OpEq, []any{"1e3"}, "c = 1000.00"},
		{"DECIMAL(10, 2)", OpEq, []any{spec.NewDecimal(12345, 3)}, "c IN ()"},
		{"DECIMAL(10, 2)", OpEq, []any{spec.NewDecimal(12340, 3)}, "c = 12.34"},
		{"DECIMAL(38, 10)", OpEq, []any{"1234567890123456789012345678.0123456789"},
			"c = 1234567890123456789012345678.0123456789"},
		{"DECIMAL(10, 2)", OpEq, []any{"12.5x"}, ""},
		// Integers: out of range and fractions decided per operator.
		{"TINYINT", OpEq, []any{int64(300)}, "c IN ()"},
		{"TINYINT", OpNotEq, []any{int64(300)}, "c NOT IN ()"},
		{"TINYINT", OpLt, []any{int64(300)}, "c <= 127"},
		{"TINYINT", OpGt, []any{int64(300)}, "c > 127"},
		{"TINYINT", OpGe, []any{int64(-300)}, "c NOT IN ()"},
		{"TINYINT", OpLe, []any{int64(-128)}, "c <= -128"},
		{"TINYINT", OpIn, []any{int64(1), int64(300), nil, int64(1)}, "c IN (1, NULL)"},
		{"INT", OpEq, []any{1.5}, "c IN ()"},
		{"INT", OpLt, []any{1.5}, "c <= 1"},
		{"INT", OpLe, []any{-1.5}, "c <= -2"},
		{"INT", OpGe, []any{1.5}, "c > 1"},
		{"INT", OpEq, []any{1.0}, "c = 1"},
		{"INT", OpEq, []any{"5"}, "c = 5"},
		{"INT", OpEq, []any{" 5 "}, "c = 5"},
		{"INT", OpEq, []any{"5.0"}, "c = 5"},
		{"INT", OpEq, []any{"5abc"}, ""},
		{"INT", OpEq, []any{"abc"}, ""},
		{"INT", OpEq, []any{"0x10"}, ""},
		{"INT", OpEq, []any{math.NaN()}, ""},
		{"INT", OpEq, []any{true}, "c = 1"},
		{"INT", OpEq, []any{big.NewRat(10, 2)}, "c = 5"},
		{"DECIMAL(10, 2)", OpEq, []any{sqlDecimal("12.30")}, "c = 12.30"},
		{"DECIMAL(10, 2)", OpEq, []any{sqlDecimal("")}, ""},
		{"BIGINT", OpLt, []any{uint64(math.MaxUint64)}, "c <= 9223372036854775807"},
		{"INT", OpBetween, []any{1.5, 3.5}, "c BETWEEN 2 AND 3"},
		{"INT", OpBetween, []any{1.5, 1.7}, "c IN ()"},
		{"INT", OpNotBetween, []any{int64(1), int64(3)}, "c NOT BETWEEN 1 AND 3"},
		{"INT", OpBetween, []any{nil, int64(3)}, "NULL AND c <= 3"},
		{"BOOLEAN", OpEq, []any{int64(1)}, "c = TRUE"},
		{"BOOLEAN", OpEq, []any{int64(2)}, "c IN ()"},
		{"BOOLEAN", OpEq, []any{false}, "c = FALSE"},
		// Floats compare as doubles.
		{"DOUBLE", OpEq, []any{"0.1"}, "c = 0.1"},
		{"DOUBLE", OpEq, []any{int64(5)}, "c = 5"},
		{"DOUBLE", OpEq, []any{math.Inf(1)}, ""},
		{"DOUBLE", OpEq, []any{"1e400"}, ""},
		{"FLOAT", OpEq, []any{0.5}, "c = 0.5"},
		{"FLOAT", OpEq, []any{0.1}, "c IN ()"},
		{"FLOAT", OpLt, []any{0.1}, "c <= 0.099999994"},
		{"FLOAT", OpGt, []any{0.1}, "c > 0.099999994"},
		{"FLOAT", OpLt, []any{1e39}, "c <= 3.4028235e+38"},
		// Strings and bytes.
		{"STRING", OpEq, []any{[]byte("ab")}, "c = 'ab'"},
		{"STRING", OpEq, []any{"it's \\ ok"}, `c = 'it''s \\ ok'`},
		{"STRING", OpEq, []any{int64(5)}, ""},
		{"STRING", OpEq, []any{time.Date(2026, 4, 16, 0, 0, 0, 0, time.UTC)}, ""},
		{"BYTES", OpEq, []any{"ab"}, "c = X'6162'"},
		{"STRING", OpIn, []any{"b", "a", "b"}, "c IN ('a', 'b')"},
		{"STRING", OpStartsWith, []any{"a%b"}, `c LIKE 'a\\%b%'`},
	}
	for _, tc := range cases {
		col := column(t, 0, "c", tc.typ)
		p, err := Leaf(col, tc.op, tc.lits...)
		if tc.want == "" {
			if !errors.Is(err, ErrLiteral) {
				t.Errorf("%s %s %v: got %v, %v; want ErrLiteral", tc.typ, tc.op, tc.lits, p, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s %v: %v", tc.typ, tc.op, tc.lits, err)
			continue
		}
		if got := p.String(); got != tc.want {
			t.Errorf("%s %s %v = %s, want %s", tc.typ, tc.op, tc.lits, got, tc.want)
		}
	}
}

// sqlDecimal stands for shopspring/decimal.Decimal, the DECIMAL literal of
// go-mysql-server, which storage accepts by its Rat method.
type sqlDecimal string

func (d sqlDecimal) Rat() *big.Rat {
	r, ok := new(big.Rat).SetString(string(d))
	if !ok {
		return nil
	}
	return r
}

func TestLiteralErrorNamesColumnAndLiteral(t *testing.T) {
	_, err := Leaf(column(t, 0, "dt", "DATE"), OpEq, "abc")
	want := "predicate: cannot compare DATE column dt with 'abc': " + ErrLiteral.Error()
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestUnsupportedOperators(t *testing.T) {
	elem := column(t, 0, "", "INT").Type
	arr := Column{Name: "tags", Type: spec.DataType{Root: spec.Array, Nullable: true, Element: &elem}}
	if _, err := Leaf(arr, OpEq, int64(1)); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("= on ARRAY: %v", err)
	}
	if p, err := Leaf(arr, OpIsNull); err != nil || p.String() != "tags IS NULL" {
		t.Errorf("IS NULL on ARRAY: %v, %v", p, err)
	}
	x := column(t, 0, "x", "INT")
	if _, err := Leaf(x, OpStartsWith, "1"); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("LIKE on INT: %v", err)
	}
	if _, err := Leaf(x, OpBetween, int64(1)); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("BETWEEN with one bound: %v", err)
	}
	if _, err := Leaf(x, OpIn); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("empty IN: %v", err)
	}
	if _, err := Leaf(x, Op(99), int64(1)); !errors.Is(err, lakeerr.ErrUnsupported) {
		t.Errorf("unknown op: %v", err)
	}
}

func TestLike(t *testing.T) {
	s := column(t, 0, "s", "STRING")
	cases := []struct {
		pattern string
		want    string // "" when not representable
	}{
		{"abc%", "s LIKE 'abc%'"},
		{"abc%%", "s LIKE 'abc%'"},
		{"abc", "s = 'abc'"},
		{"%", "s LIKE '%'"},
		{`a\%%`, `s LIKE 'a\\%%'`},
		{`a\_b`, "s = 'a_b'"},
		{`ab\`, `s = 'ab\\'`},
		{"a%c", ""},
		{"%abc", ""},
		{"a_%", ""},
		{"a_", ""},
	}
	for _, tc := range cases {
		p, ok := Like(s, tc.pattern, '\\')
		switch {
		case tc.want == "" && ok:
			t.Errorf("LIKE %q = %s, want not representable", tc.pattern, p)
		case tc.want != "" && (!ok || p.String() != tc.want):
			t.Errorf("LIKE %q = %v, %v; want %s", tc.pattern, p, ok, tc.want)
		}
	}
	if _, ok := Like(column(t, 0, "x", "INT"), "1%", '\\'); ok {
		t.Error("LIKE on an INT column must stay a residual")
	}
	// An unescaped wildcard in the prefix of the result is a literal one.
	p, _ := Like(s, `a\%%`, '\\')
	if p.Eval([]any{"a%z"}) != True || p.Eval([]any{"abz"}) != False {
		t.Errorf("%s evaluates wrongly", p)
	}
	// NOT LIKE '%' is UNKNOWN for NULL, not IS NULL.
	all, _ := Like(s, "%", '\\')
	if Not(all).Eval([]any{nil}) != Unknown || Not(all).Eval([]any{""}) != False {
		t.Errorf("NOT (%s) evaluates wrongly", all)
	}
}
