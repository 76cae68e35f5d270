package gmsfix

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// applyRule is e after rule, in a projection.
func applyRule(t *testing.T, rule analyzer.RuleFunc, e sql.Expression) sql.Expression {
	t.Helper()
	n, _, err := rule(nil, nil, plan.NewProject([]sql.Expression{e}, plan.NewEmptyTableWithSchema(nil)), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return n.(*plan.Project).Projections[0]
}

// evalText is e's value as text ("NULL" for NULL) and the codes of the
// warnings it gave.
func evalText(t *testing.T, e sql.Expression) (string, []int) {
	t.Helper()
	ctx := sql.NewEmptyContext()
	v, err := e.Eval(ctx, nil)
	if err != nil {
		t.Fatalf("%s: %v", e, err)
	}
	var codes []int
	for _, w := range ctx.Warnings() {
		codes = append(codes, w.Code)
	}
	if v == nil {
		return "NULL", codes
	}
	d, ok := v.(decimal.Decimal)
	dt, isDecimal := e.Type().(sql.DecimalType)
	if !ok || !isDecimal {
		t.Fatalf("%s is %T of %s, want a DECIMAL", e, v, e.Type())
	}
	return d.StringFixed(int32(dt.Scale())), codes
}

// CAST to DECIMAL(M,D) rounds half away from zero to D digits and clamps
// what does not fit to ±(10^(M-D) - 10^-D) with warning 1264; the
// answers are MariaDB 10.11's.
func TestDecimalCast(t *testing.T) {
	str := func(s string) sql.Expression { return expression.NewLiteral(s, types.LongText) }
	for _, c := range []struct {
		from          sql.Expression
		length, scale int
		want          string
		outOfRange    bool
	}{
		{literal(t, "123456"), 4, 2, "99.99", true},
		{literal(t, "-123456.789"), 5, 1, "-9999.9", true},
		{expression.NewLiteral(1e10, types.Float64), 4, 2, "99.99", true},
		{expression.NewLiteral(-1e100, types.Float64), 4, 2, "-99.99", true},
		{str("99999"), 3, 0, "999", true},
		{str("-99999"), 3, 0, "-999", true},
		{literal(t, "1.005"), 3, 2, "1.01", false},
		{literal(t, "-1.005"), 3, 2, "-1.01", false},
		{literal(t, "99.995"), 4, 2, "99.99", true},
		{literal(t, "-99.994"), 4, 2, "-99.99", false},
		{literal(t, "999"), 3, 0, "999", false},
		{literal(t, "18446744073709551615"), 20, 0, "18446744073709551615", false},
		{literal(t, "18446744073709551615"), 19, 0, "9999999999999999999", true},
		{literal(t, "0.5"), 1, 0, "1", false},
		{expression.NewLiteral(nil, types.Null), 3, 1, "NULL", false},
		{str("123456.7"), 5, 1, "9999.9", true},
		{str("1e3"), 5, 1, "1000.0", false},
		{str(" 7 "), 5, 1, "7.0", false},
	} {
		conv := expression.NewConvertWithLengthAndScale(c.from, expression.ConvertToDecimal, c.length, c.scale)
		got, warnings := evalText(t, applyRule(t, castDecimalsAsMySQL, conv))
		if got != c.want || (len(warnings) == 1 && warnings[0] == erOutOfRange) != c.outOfRange {
			t.Errorf("CAST(%s AS DECIMAL(%d,%d)) = %s with warnings %v, want %s (out of range: %v)", c.from, c.length, c.scale, got, warnings, c.want, c.outOfRange)
		}
	}
}

// A string converts by the number it starts with, 0 for none, with
// warning 1292 when more follows; the answers are MariaDB 10.11's. GMS
// gave 0 for ' 12abc'.
func TestDecimalCastOfTextWithJunk(t *testing.T) {
	for s, want := range map[string]string{
		" 12abc":   "12.0",
		"abc":      "0.0",
		"":         "0.0",
		".5x":      "0.5",
		"-1.25e1z": "-12.5",
	} {
		conv := expression.NewConvertWithLengthAndScale(expression.NewLiteral(s, types.LongText), expression.ConvertToDecimal, 5, 1)
		got, warnings := evalText(t, applyRule(t, castDecimalsAsMySQL, conv))
		if got != want || len(warnings) != 1 || warnings[0] != erTruncatedWrongValue {
			t.Errorf("CAST('%s' AS DECIMAL(5,1)) = %s with warnings %v, want %s with warning 1292", s, got, warnings, want)
		}
	}
}

// A CAST to DECIMAL without a precision is one to MySQL's DECIMAL(10,0),
// rounding and clamping as it; the answers are MariaDB 10.11's. GMS kept
// the value whole (CAST('1.7' AS DECIMAL) was 1.7).
func TestDecimalCastWithoutPrecision(t *testing.T) {
	for _, c := range []struct {
		from       sql.Expression
		want       string
		outOfRange bool
	}{
		{literal(t, "1.7"), "2", false},
		{expression.NewLiteral("-1.5", types.LongText), "-2", false},
		{literal(t, "12345678901"), "9999999999", true},
	} {
		cast := applyRule(t, castDecimalsAsMySQL, expression.NewConvert(c.from, expression.ConvertToDecimal))
		if typ, ok := cast.Type().(sql.DecimalType); !ok || typ.Precision() != 10 || typ.Scale() != 0 {
			t.Errorf("CAST(%s AS DECIMAL) has type %s, want decimal(10,0)", c.from, cast.Type())
		}
		got, warnings := evalText(t, cast)
		if got != c.want || (len(warnings) == 1 && warnings[0] == erOutOfRange) != c.outOfRange {
			t.Errorf("CAST(%s AS DECIMAL) = %s with warnings %v, want %s (out of range: %v)", c.from, got, warnings, c.want, c.outOfRange)
		}
	}
}

// A CAST of a DECIMAL literal to a type it fits unchanged
// (keepDecimalLiterals'), or to another type, stays GMS's.
func TestDecimalCastKeepsGMSCasts(t *testing.T) {
	for _, conv := range []sql.Expression{
		expression.NewConvertWithLengthAndScale(literal(t, "1.25"), expression.ConvertToDecimal, 4, 2),
		expression.NewConvertWithLengthAndScale(literal(t, "1"), expression.ConvertToSigned, 4, 0),
	} {
		if out := applyRule(t, castDecimalsAsMySQL, conv); out != conv {
			t.Errorf("%s became %s", conv, out)
		}
	}
}

// GREATEST and LEAST of integers and DECIMALs compare exactly and answer
// a DECIMAL of the largest scale (NULL for a NULL argument); GMS failed
// on DECIMAL values.
func TestDecimalExtremes(t *testing.T) {
	for _, c := range []struct {
		greatest bool
		args     []string
		want     string
	}{
		{true, []string{"1.5", "2.25"}, "2.25"},
		{false, []string{"1.5", "2.25"}, "1.50"},
		{true, []string{"1", "2.5"}, "2.5"},
		{false, []string{"3", "2.50"}, "2.50"},
		{true, []string{"-1.5", "-2"}, "-1.5"},
		{false, []string{"2", "1.999"}, "1.999"},
		{true, []string{"18446744073709551615", "0.5"}, "18446744073709551615.0"},
		{false, []string{"-9223372036854775808", "0.5", "7"}, "-9223372036854775808.0"},
		{true, []string{"0.10000000000000000001", "0.1"}, "0.10000000000000000001"},
		{true, []string{"1.5", "NULL"}, "NULL"},
	} {
		var args []sql.Expression
		for _, a := range c.args {
			if a == "NULL" {
				args = append(args, expression.NewLiteral(nil, types.Int64))
				continue
			}
			args = append(args, literal(t, a))
		}
		fn, err := function.NewLeast(args...)
		if c.greatest {
			fn, err = function.NewGreatest(args...)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := evalText(t, applyRule(t, compareDecimalExtremes, fn)); got != c.want {
			t.Errorf("%s = %s, want %s", fn, got, c.want)
		}
	}
}

// GREATEST and LEAST of numbers with a float and a DECIMAL among them
// compare as doubles and answer a DOUBLE, as MariaDB 10.11 does; GMS
// failed on the DECIMAL value.
func TestExtremesOfFloatsAndDecimals(t *testing.T) {
	double := func(f float64) sql.Expression { return expression.NewLiteral(f, types.Float64) }
	null := expression.NewLiteral(nil, types.Null)
	for _, c := range []struct {
		greatest bool
		args     []sql.Expression
		want     string
	}{
		{true, []sql.Expression{literal(t, "1.5"), double(2)}, "2"},
		{false, []sql.Expression{literal(t, "1.5"), double(2)}, "1.5"},
		{true, []sql.Expression{literal(t, "1.5"), literal(t, "2"), double(0.5)}, "2"},
		{false, []sql.Expression{literal(t, "-0.25"), double(0.5), literal(t, "7")}, "-0.25"},
		{true, []sql.Expression{literal(t, "1.5"), null, double(2)}, "NULL"},
	} {
		fn, err := function.NewLeast(c.args...)
		if c.greatest {
			fn, err = function.NewGreatest(c.args...)
		}
		if err != nil {
			t.Fatal(err)
		}
		out := applyRule(t, compareDecimalExtremes, fn)
		v, err := out.Eval(sql.NewEmptyContext(), nil)
		if err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		got := "NULL"
		if f, ok := v.(float64); ok {
			got = strconv.FormatFloat(f, 'g', -1, 64)
		} else if v != nil {
			got = fmt.Sprintf("%T %v", v, v)
		}
		if got != c.want || v != nil && !types.IsFloat(out.Type()) {
			t.Errorf("%s = %s of type %s, want DOUBLE %s", fn, got, out.Type(), c.want)
		}
	}
}
