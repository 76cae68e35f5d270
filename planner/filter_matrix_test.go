package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/storage/spec"
)

// TestPushFiltersEdgeMatrix checks every single-column conjunct form, with
// every literal form of every pool value and every edge literal, against
// the engine on every pool value and NULL. It is the exhaustive half of the
// engine agreement; TestPushFiltersAgreesWithEngine adds random nesting.
func TestPushFiltersEdgeMatrix(t *testing.T) {
	tt := newTestTable(t)
	ctx := sql.NewEmptyContext()
	counts := map[string]*pushCounts{}
	for c, f := range tt.fields {
		rows := columnRows(t, tt, c)
		col := tt.col(f.Name)
		lits := columnLiterals(f.Type)
		for i, lit := range lits {
			next := lits[(i+1)%len(lits)]
			for _, e := range matrixForms(col, lit, next) {
				pd := PushFilters(tt.fields, []sql.Expression{e})
				count(counts, e, pd)
				for _, row := range rows {
					checkConjunct(t, ctx, tt, e, pd, row)
				}
				if t.Failed() {
					return
				}
			}
		}
		for _, e := range append(likeForms(col), literalFreeForms(col)...) {
			pd := PushFilters(tt.fields, []sql.Expression{e})
			count(counts, e, pd)
			for _, row := range rows {
				checkConjunct(t, ctx, tt, e, pd, row)
			}
		}
	}
	checkCoverage(t, tt, counts)
}

// columnRows has one row per pool value of column c, and one NULL row;
// the other columns are NULL.
func columnRows(t *testing.T, tt testTable, c int) []testRow {
	values := append(valuePool(tt.fields[c].Type), nil)
	rows := make([]testRow, len(values))
	for i, v := range values {
		storage := make([]any, len(tt.fields))
		storage[c] = v
		rows[i] = tt.row(t, storage)
	}
	return rows
}

func columnLiterals(t spec.DataType) []sql.Expression {
	var lits []sql.Expression
	for _, v := range valuePool(t) {
		lits = append(lits, literalForms(v)...)
	}
	for _, edge := range edgeLiterals {
		lits = append(lits, edge())
	}
	return lits
}

// matrixForms are the conjuncts over one column and literal: each
// comparison with the column on either side, IN and NOT IN as the parser
// and the analyzer build them, and BETWEEN with a second literal or NULL.
func matrixForms(col, lit, other sql.Expression) []sql.Expression {
	var forms []sql.Expression
	for _, cmp := range comparisons {
		forms = append(forms, cmp(col, lit), cmp(lit, col))
	}
	for _, list := range []expression.Tuple{tuple(lit), tuple(lit, nullLit()), tuple(lit, other)} {
		forms = append(forms, expression.NewInTuple(col, list), expression.NewNotInTuple(col, list))
		if h, err := expression.NewHashInTuple(sql.NewEmptyContext(), col, list); err == nil {
			forms = append(forms, h, expression.NewNot(h))
		}
	}
	for _, bounds := range [][2]sql.Expression{{lit, other}, {other, lit}, {nullLit(), lit}, {lit, nullLit()}} {
		between := expression.NewBetween(col, bounds[0], bounds[1])
		forms = append(forms, between, expression.NewNot(between))
	}
	return forms
}

// literalFreeForms are IS [NOT] NULL, IS [NOT] TRUE and IS [NOT] FALSE.
func literalFreeForms(col sql.Expression) []sql.Expression {
	var forms []sql.Expression
	for _, test := range []sql.Expression{expression.NewIsNull(col), expression.NewIsTrue(col), expression.NewIsFalse(col)} {
		forms = append(forms, test, expression.NewNot(test))
	}
	return forms
}

var likePatterns = []string{"PA%", "a%", "a_%", "%b", "ab", `a\_%`, "d%", "", "%", "a%c", "ab|%%", "5%", "dÿ%", "😀%",
	"ab%%", `a\%`, "A%", `ab\`, "ab|", "a%%%", "a__", `a\\%`, "%%"}

// likeForms is LIKE and NOT LIKE with every pattern and escape, including
// the escapes the engine lets wildcards override and a NULL escape.
func likeForms(col sql.Expression) []sql.Expression {
	escapes := []sql.Expression{nil, strLit("|"), strLit("%"), strLit("_"), nullLit(), strLit(`\`)}
	var forms []sql.Expression
	for _, p := range likePatterns {
		for _, esc := range escapes {
			like := expression.NewLike(col, strLit(p), esc)
			forms = append(forms, like, expression.NewNot(like))
		}
	}
	return forms
}

var (
	nan     = math.NaN()
	negZero = math.Copysign(0, -1)
	noon    = time.Date(2026, 4, 16, 12, 0, 0, 0, time.UTC)
	plusTwo = time.FixedZone("UTC+2", 2*3600)
)

// valuePool is a small domain of storage values per type, with the values
// where conversions differ: int64 beyond 2^53, NaN, -0, infinities,
// float32 neighbours, decimals that round at a smaller scale, strings
// around a prefix, dates outside TIMESTAMP's range.
func valuePool(t spec.DataType) []any {
	switch t.Root {
	case spec.Boolean:
		return []any{true, false}
	case spec.TinyInt:
		return []any{int8(-128), int8(-1), int8(0), int8(1), int8(2), int8(5), int8(127)}
	case spec.Int:
		return []any{int32(math.MinInt32), int32(-1), int32(0), int32(1), int32(2), int32(3), int32(5), int32(200), int32(math.MaxInt32)}
	case spec.BigInt:
		return []any{int64(math.MinInt64), int64(-1), int64(0), int64(1), int64(5), int64(200), int64(1 << 53), int64(1<<53 + 1),
			int64(1<<60 + 1), int64(math.MaxInt64)}
	case spec.Decimal:
		return []any{spec.NewDecimal(-9999999999, 2), spec.NewDecimal(-150, 2), spec.NewDecimal(0, 2), spec.NewDecimal(1, 2), spec.NewDecimal(100, 2),
			spec.NewDecimal(101, 2), spec.NewDecimal(104, 2), spec.NewDecimal(150, 2), spec.NewDecimal(1050, 2), spec.NewDecimal(9999999999, 2)}
	case spec.Float:
		return []any{float32(0.1), float32(0.5), float32(-2), float32(0), float32(negZero), float32(2.5), float32(math.MaxFloat32),
			float32(nan), float32(math.Inf(1)), float32(math.Inf(-1)), float32(16777216), float32(1e-40)}
	case spec.Double:
		return []any{0.1, 0.5, negZero, 0.0, 1.0, 2.5, 10.5, 1e300, -1e300, 1e-40, 1e35, nan, math.Inf(1), math.Inf(-1), float64(1<<53 + 2)}
	case spec.VarChar:
		return []any{"", "a", "ab", "abc", "abd", "b", "B", "d", "dÿ", "dž", "dÿz", "d%", "a_c", "a_b", "a%", "PAID", "PA", "SUCCESS",
			"5", "5.0", " 5", "abc ", "😀", "ABC"}
	case spec.Char:
		return []any{"ab", "ab  ", "a_bc", "a_b", "ABCD", "abc", "a"}
	case spec.VarBinary:
		return []any{[]byte{}, []byte{0}, []byte("a"), []byte("ab"), []byte("abc"), []byte{0xff}, []byte("5")}
	case spec.Date:
		return []any{spec.DateValue(20558), spec.DateValue(20559), spec.DateValue(20560), spec.DateValue(0), spec.DateValue(-3653), spec.DateValue(2932896)}
	case spec.Timestamp:
		day := noon.Add(-12 * time.Hour)
		if t.Precision > 6 {
			return []any{ts(noon), ts(noon.Add(400 * time.Nanosecond)), ts(noon.Add(time.Microsecond))}
		}
		return []any{ts(day), ts(day.Add(10 * time.Hour)), ts(day.Add(10*time.Hour + 123*time.Millisecond)), ts(noon),
			ts(day.Add(24*time.Hour - time.Millisecond)), ts(day.Add(24 * time.Hour)), ts(time.Unix(0, 0)), ts(time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC))}
	case spec.TimestampLTZ:
		return []any{ts(noon), ts(noon.Add(time.Microsecond)), ts(noon.Add(-time.Microsecond)), ts(time.Unix(-1, 500_000_000)),
			ts(time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC))}
	case spec.Time:
		return []any{spec.TimeValue(0), spec.TimeValue(36_000_000), spec.TimeValue(86_399_999)}
	}
	panic("no pool for " + t.String())
}

func ts(t time.Time) spec.TimestampValue { return spec.TimestampFromTime(t.UTC()) }

// literalForms renders a storage value as the literals a query could hold
// for it: typed like the column, or as text, as another numeric type, ...
func literalForms(v any) []sql.Expression {
	switch x := v.(type) {
	case bool:
		return []sql.Expression{boolLit(x), intLit(map[bool]int64{true: 1}[x]), strLit(strconv.FormatBool(x))}
	case int8:
		return integerForms(int64(x))
	case int32:
		return integerForms(int64(x))
	case int64:
		return integerForms(x)
	case spec.DecimalValue:
		return decimalForms(x.String())
	case float32:
		return floatForms(float64(x), strconv.FormatFloat(float64(x), 'g', -1, 32))
	case float64:
		return floatForms(x, strconv.FormatFloat(x, 'g', -1, 64))
	case string:
		return []sql.Expression{strLit(x), binLit([]byte(x)), expression.NewLiteral(x, types.CreateLongText(sql.Collation_utf8mb4_0900_ai_ci))}
	case []byte:
		return []sql.Expression{binLit(x), strLit(string(x))}
	case spec.DateValue:
		d := time.Unix(int64(x)*86400, 0).UTC()
		return []sql.Expression{strLit(x.String()), dateLit(d), datetimeLit(d), strLit(x.String() + " 00:00:00"), datetimeLit(d.Add(time.Hour))}
	case spec.TimestampValue:
		t := x.Time()
		return []sql.Expression{strLit(x.Format(3)), strLit(x.Format(0)), strLit(x.Format(6)), strLit(x.Format(9)), datetimeLit(t),
			datetimeLit(t.In(plusTwo)), dateLit(t), expression.NewLiteral(t, types.MustCreateDatetimeType(types.Timestamp.Type(), 6))}
	case spec.TimeValue:
		return []sql.Expression{strLit(time.UnixMilli(int64(x)).UTC().Format("15:04:05.000")), intLit(int64(x))}
	}
	panic(fmt.Sprintf("no literal forms for %T", v))
}

func integerForms(v int64) []sql.Expression {
	forms := []sql.Expression{intLit(v), floatLit(float64(v)), decLit(strconv.FormatInt(v, 10) + ".0"), strLit(strconv.FormatInt(v, 10))}
	if v >= 0 {
		forms = append(forms, uintLit(uint64(v)))
	}
	return forms
}

// decimalForms renders a decimal as typed (1.50), as written (1.5), as text,
// as a double and as CASTs to a smaller and a larger scale.
func decimalForms(s string) []sql.Expression {
	f, _ := strconv.ParseFloat(s, 64)
	short := strings.TrimRight(s, "0")
	if strings.HasSuffix(short, ".") {
		short += "0"
	}
	return []sql.Expression{decLit(s), decLit(short), strLit(s), floatLit(f), castDecLit(s, 38, 1), castDecLit(s, 38, 3)}
}

func floatForms(f float64, shortest string) []sql.Expression {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []sql.Expression{strLit("inf")}
	}
	forms := []sql.Expression{floatLit(f), strLit(shortest), expression.NewLiteral(float32(f), types.Float32)}
	if !strings.ContainsAny(shortest, "eE") {
		forms = append(forms, decLit(shortest))
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<62 {
		forms = append(forms, intLit(int64(f)))
	}
	return forms
}

// edgeLiterals are literals where the engine's conversions are known to
// differ from exact ones, or which no column holds.
var edgeLiterals = []func() sql.Expression{
	func() sql.Expression { return intLit(300) },
	func() sql.Expression { return intLit(-5) },
	func() sql.Expression { return uintLit(1 << 63) },
	func() sql.Expression { return uintLit(math.MaxUint64) },
	func() sql.Expression { return floatLit(0.1) },
	func() sql.Expression { return floatLit(2.5) },
	func() sql.Expression { return floatLit(1e300) },
	func() sql.Expression { return floatLit(9007199254740993) },
	func() sql.Expression { return floatLit(negZero) },
	func() sql.Expression { return decLit("1.005") },
	func() sql.Expression { return decLit("0.1") },
	func() sql.Expression { return decLit("10.5") },
	func() sql.Expression { return decLit("1") },
	func() sql.Expression { return decLit("0.0000000000000000000000000000001") },
	func() sql.Expression { return decLit("1000000000000000000000000000000000000") },
	func() sql.Expression { return decLit("-1000000000000000000000000000000000000") },
	func() sql.Expression { return castDecLit("1.5", 5, 1) },
	// Folded arithmetic can hold more digits than its type's scale.
	func() sql.Expression {
		return expression.NewLiteral(decimal.RequireFromString("4.9999999999999999999999999999999"), types.InternalDecimalType)
	},
	func() sql.Expression { return strLit("5") },
	func() sql.Expression { return strLit("5.0") },
	func() sql.Expression { return strLit(" 5") },
	func() sql.Expression { return strLit("5abc") },
	func() sql.Expression { return strLit("1e3") },
	func() sql.Expression { return strLit("9007199254740993") },
	func() sql.Expression { return strLit("9007199254740993.0") },
	func() sql.Expression { return strLit("99999999999999999999") },
	func() sql.Expression { return strLit("5.0000000000000001") },
	func() sql.Expression { return strLit("2.5") },
	func() sql.Expression { return strLit("0.1") },
	func() sql.Expression { return strLit("-0") },
	func() sql.Expression { return strLit("2026-04-16") },
	func() sql.Expression { return strLit("2026-4-16") },
	func() sql.Expression { return strLit("2026-04-16T12:00:00") },
	func() sql.Expression { return strLit("2026-04-16 12:00:00.1234567") },
	func() sql.Expression { return strLit("2026-04-16 12:00:00.0000004") },
	func() sql.Expression { return strLit("2026-04-16 09:59:59.9999999") },
	func() sql.Expression { return strLit("2026-04-16 00:00:00.0000004") },
	func() sql.Expression { return strLit("2026-02-30") },
	func() sql.Expression { return strLit(" 2026-04-16") },
	func() sql.Expression { return strLit("12:00:00") },
	func() sql.Expression { return strLit("abc") },
	func() sql.Expression { return strLit("dÿ") },
	func() sql.Expression { return binLit([]byte("ab")) },
	func() sql.Expression { return boolLit(true) },
	func() sql.Expression { return boolLit(false) },
	func() sql.Expression { return nullLit() },
	func() sql.Expression { return datetimeLit(noon) },
	func() sql.Expression { return datetimeLit(noon.In(plusTwo)) },
	func() sql.Expression { return datetimeLit(noon.Add(400 * time.Nanosecond)) },
	func() sql.Expression { return datetimeLit(noon.Add(500 * time.Nanosecond)) },
	func() sql.Expression { return dateLit(noon) },
}
