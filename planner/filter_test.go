package planner

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"

	"github.com/lakesql/lakesql/storage/predicate"
)

func TestPushFilters(t *testing.T) {
	tt := newTestTable(t)
	col := tt.col
	day := time.Date(2026, 4, 16, 0, 0, 0, 0, time.UTC)
	noon := time.Date(2026, 4, 16, 12, 0, 0, 0, time.UTC)
	plus2 := time.FixedZone("UTC+2", 2*3600)

	cases := []struct {
		name      string
		conjuncts []sql.Expression
		// filter is Pushdown.Filter rendered; "" when nil.
		filter string
		// residual lists, by String, the conjuncts left to the engine; the
		// others must be in Pushed.
		residual []string
	}{
		{
			name: "partition key and IN list",
			conjuncts: []sql.Expression{
				expression.NewEquals(col("dt"), strLit("2026-04-16")),
				expression.NewInTuple(col("status"), tuple(strLit("SUCCESS"), strLit("PAID"))),
			},
			filter: "dt = DATE '2026-04-16' AND status IN ('PAID', 'SUCCESS')",
		},
		{
			name:      "column on the right flips the operator",
			conjuncts: []sql.Expression{expression.NewLessThan(intLit(5), col("qty"))},
			filter:    "qty > 5",
		},
		{
			name:      "column matched case-insensitively under any alias",
			conjuncts: []sql.Expression{expression.NewGreaterThanOrEqual(col("QTY"), intLit(7))},
			filter:    "qty >= 7",
		},
		{
			name:      "parser's unsigned literal for 200 on BIGINT",
			conjuncts: []sql.Expression{expression.NewEquals(col("id"), intLit(200))},
			filter:    "id = 200",
		},
		{
			name: "BIGINT against text is compared as DOUBLE by the engine: exact only below 2^53",
			conjuncts: []sql.Expression{
				expression.NewEquals(col("id"), strLit("5")),
				expression.NewEquals(col("id"), strLit("9007199254740993")),
			},
			filter:   "id = 5",
			residual: []string{"(a.id = '9007199254740993')"},
		},
		{
			name: "INT against a float literal: no integer lies between 2.5 and its double",
			conjuncts: []sql.Expression{
				expression.NewLessThan(col("qty"), floatLit(2.5)),
			},
			filter: "qty <= 2",
		},
		{
			name: "VARCHAR against a number compares numerically in the engine",
			conjuncts: []sql.Expression{
				expression.NewEquals(col("status"), intLit(5)),
			},
			residual: []string{"(a.status = 5)"},
		},
		{
			name: "DECIMAL against literals with more fraction digits than the column",
			conjuncts: []sql.Expression{
				expression.NewEquals(col("price"), decLit("1.5")),
				expression.NewEquals(col("price"), decLit("1.005")),
				expression.NewGreaterThan(col("price"), floatLit(0.125)),
			},
			filter: "price = 1.50",
			residual: []string{
				"(a.price = 1.005)",
				"(a.price > 0.125)",
			},
		},
		{
			name: "a CAST-typed decimal rounds the column to its scale when on the left",
			conjuncts: []sql.Expression{
				expression.NewEquals(castDecLit("1.5", 5, 1), col("price")),
				expression.NewEquals(castDecLit("1.50", 5, 2), col("price")),
			},
			filter:   "price = 1.50",
			residual: []string{"(1.5 = a.price)"},
		},
		{
			name: "DOUBLE against a decimal literal goes through the engine's DECIMAL(65,30)",
			conjuncts: []sql.Expression{
				expression.NewGreaterThan(col("amount"), decLit("10.5")),
				expression.NewGreaterThan(col("amount"), floatLit(10.5)),
			},
			filter:   "amount > 10.5",
			residual: []string{"(a.amount > 10.5)"},
		},
		{
			name: "float column on the right: NaN orders differently, only = is kept",
			conjuncts: []sql.Expression{
				expression.NewLessThan(floatLit(1), col("amount")),
				expression.NewEquals(floatLit(2), col("amount")),
			},
			filter:   "amount = 2",
			residual: []string{"(1 < a.amount)"},
		},
		{
			name: "null-safe equality",
			conjuncts: []sql.Expression{
				expression.NewNullSafeEquals(col("qty"), nullLit()),
				expression.NewNullSafeEquals(intLit(3), col("tiny")),
			},
			filter: "qty IS NULL AND tiny IS NOT NULL AND tiny = 3",
		},
		{
			name: "NOT, <> and NOT IN",
			conjuncts: []sql.Expression{
				expression.NewNot(expression.NewEquals(col("qty"), intLit(1))),
				expression.NewNotInTuple(col("status"), tuple(strLit("X"), nullLit())),
			},
			filter: "qty <> 1 AND status NOT IN ('X', NULL)",
		},
		{
			name: "HashInTuple, as the analyzer builds IN over literals",
			conjuncts: []sql.Expression{
				mustHashIn(t, col("qty"), tuple(intLit(3), intLit(1), intLit(2))),
			},
			filter: "qty IN (1, 2, 3)",
		},
		{
			name: "IN with an element between two column values stays with the engine",
			conjuncts: []sql.Expression{
				expression.NewInTuple(col("dt"), tuple(strLit("2026-04-16"), strLit("2026-04-16 10:00:00"))),
				expression.NewInTuple(col("qty"), tuple(intLit(1), strLit("2.5"))),
			},
			residual: []string{
				"(a.dt IN ('2026-04-16', '2026-04-16 10:00:00'))",
				"(a.qty IN (1, '2.5'))",
			},
		},
		{
			name: "IS NULL works on any column, other comparisons not on opaque ones",
			conjuncts: []sql.Expression{
				expression.NewIsNull(col("note")),
				expression.NewNot(expression.NewIsNull(col("t"))),
				expression.NewEquals(col("note"), strLit("abc")),
				expression.NewEquals(col("odd_dec"), intLit(1)),
			},
			filter: "note IS NULL AND t IS NOT NULL",
			residual: []string{
				"(a.note = 'abc')",
				"(a.odd_dec = 1)",
			},
		},
		{
			name: "IS TRUE and IS FALSE are never UNKNOWN",
			conjuncts: []sql.Expression{
				expression.NewIsTrue(col("flag")),
				expression.NewNot(expression.NewIsFalse(col("amount"))),
			},
			filter: "flag IS NOT NULL AND flag <> FALSE AND (amount IS NULL OR amount <> 0)",
		},
		{
			name: "BETWEEN and NOT BETWEEN",
			conjuncts: []sql.Expression{
				expression.NewBetween(col("ts"), strLit("2026-04-16 00:00:00"), strLit("2026-04-16 23:59:59.999")),
				expression.NewNot(expression.NewBetween(col("qty"), intLit(1), intLit(9))),
				expression.NewBetween(col("qty"), nullLit(), intLit(9)),
			},
			filter:   "ts BETWEEN TIMESTAMP '2026-04-16 00:00:00.000' AND TIMESTAMP '2026-04-16 23:59:59.999' AND qty NOT BETWEEN 1 AND 9",
			residual: []string{"(a.qty BETWEEN NULL AND 9)"},
		},
		{
			name: "LIKE: exact prefix, weaker prefix, nothing",
			conjuncts: []sql.Expression{
				expression.NewLike(col("status"), strLit("PA%"), nil),
				expression.NewLike(col("status"), strLit(`a\_b%c`), nil),
				expression.NewLike(col("status"), strLit("%X"), nil),
				expression.NewNot(expression.NewLike(col("status"), strLit("P%D"), nil)),
			},
			filter: `status LIKE 'PA%' AND status LIKE 'a\\_b%'`,
			residual: []string{
				`a.status LIKE 'a\\_b%c'`,
				`a.status LIKE '%X'`,
				`(NOT(a.status LIKE 'P%D'))`,
			},
		},
		{
			// Stored CHARs may keep the trailing spaces SQL strips.
			name: "CHAR comparisons stay in the engine",
			conjuncts: []sql.Expression{
				expression.NewEquals(col("code"), strLit("ab")),
				expression.NewLike(col("code"), strLit("a%"), nil),
				expression.NewIsNull(col("code")),
			},
			filter: "code IS NULL",
			residual: []string{
				`(a.code = 'ab')`,
				`a.code LIKE 'a%'`,
			},
		},
		{
			name: "LIKE 'd%' as the analyzer rewrites it",
			conjuncts: []sql.Expression{
				expression.NewGreaterThanOrEqual(col("status"), strLit("d")),
				expression.NewLessThanOrEqual(col("status"), strLit("dÿ")),
			},
			filter: "status >= 'd' AND status <= 'dÿ'",
		},
		{
			name: "OR is pushed only when every operand is",
			conjuncts: []sql.Expression{
				expression.NewOr(
					expression.NewEquals(col("dt"), strLit("2026-04-16")),
					expression.NewEquals(col("dt"), strLit("2026-04-17"))),
				expression.NewOr(
					expression.NewEquals(col("qty"), intLit(1)),
					expression.NewGreaterThan(function.NewAbsVal(col("id")), intLit(1))),
			},
			filter:   "dt = DATE '2026-04-16' OR dt = DATE '2026-04-17'",
			residual: []string{"((a.qty = 1) OR (abs(a.id) > 1))"},
		},
		{
			name: "an AND operand inside OR narrows to a superset",
			conjuncts: []sql.Expression{
				expression.NewOr(
					expression.NewAnd(
						expression.NewEquals(col("dt"), strLit("2026-04-16")),
						expression.NewGreaterThan(function.NewAbsVal(col("id")), intLit(1))),
					expression.NewEquals(col("dt"), strLit("2026-04-17"))),
			},
			filter:   "dt = DATE '2026-04-16' OR dt = DATE '2026-04-17'",
			residual: []string{"(((a.dt = '2026-04-16') AND (abs(a.id) > 1)) OR (a.dt = '2026-04-17'))"},
		},
		{
			name: "a top-level AND is split",
			conjuncts: []sql.Expression{
				expression.NewAnd(
					expression.NewEquals(col("dt"), strLit("2026-04-16")),
					expression.NewGreaterThan(function.NewAbsVal(col("id")), intLit(1))),
			},
			filter:   "dt = DATE '2026-04-16'",
			residual: []string{"(abs(a.id) > 1)"},
		},
		{
			name: "expressions on columns, column pairs and unbound variables stay",
			conjuncts: []sql.Expression{
				expression.NewGreaterThan(expression.NewPlus(col("qty"), intLit(1)), intLit(5)),
				expression.NewEquals(col("qty"), col("tiny")),
				expression.NewEquals(col("qty"), expression.NewBindVar("v1")),
			},
			residual: []string{
				"((a.qty + 1) > 5)",
				"(a.qty = a.tiny)",
				"(a.qty = BindVar(v1))",
			},
		},
		{
			name: "temporal literals: fractions past microseconds and non-UTC times stay",
			conjuncts: []sql.Expression{
				expression.NewLessThan(col("ts"), strLit("2026-04-16 10:00:00.1234567")),
				expression.NewEquals(col("ts"), datetimeLit(noon.In(plus2))),
				expression.NewEquals(col("ts"), datetimeLit(noon)),
				expression.NewEquals(col("dt"), dateLit(noon)),
				expression.NewEquals(col("dt"), dateLit(day)),
				expression.NewGreaterThan(col("lts"), datetimeLit(noon)),
			},
			filter: "ts = TIMESTAMP '2026-04-16 12:00:00.000' AND dt = DATE '2026-04-16' AND lts > TIMESTAMP_LTZ '2026-04-16 12:00:00.000000 UTC'",
			residual: []string{
				"(a.ts < '2026-04-16 10:00:00.1234567')",
				"(a.ts = 2026-04-16 14:00:00 +0200 UTC+2)",
				"(a.dt = 2026-04-16 12:00:00 +0000 UTC)",
			},
		},
		{
			name: "TIMESTAMP_LTZ refuses text (the session time zone decides it)",
			conjuncts: []sql.Expression{
				expression.NewEquals(col("lts"), strLit("2026-04-16 12:00:00")),
			},
			residual: []string{"(a.lts = '2026-04-16 12:00:00')"},
		},
		{
			name: "binary column against text and bytes",
			conjuncts: []sql.Expression{
				expression.NewEquals(col("payload"), strLit("ab")),
				expression.NewGreaterThan(col("payload"), binLit([]byte{0xff})),
			},
			filter: "payload = X'6162' AND payload > X'FF'",
		},
		{
			name: "folded constants and comparisons with NULL",
			conjuncts: []sql.Expression{
				boolLit(true),
				expression.NewEquals(col("qty"), nullLit()),
			},
			filter: "NULL",
		},
		{
			name: "a literal the column type cannot hold is never TRUE",
			conjuncts: []sql.Expression{
				expression.NewEquals(col("tiny"), intLit(300)),
				expression.NewEquals(col("ratio"), floatLit(math.MaxFloat64)),
			},
			filter: "tiny IN () AND ratio IN ()",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pd := PushFilters(tt.fields, tc.conjuncts)
			if got := Describe(pd.Filter); got != tc.filter {
				t.Errorf("filter\n got %s\nwant %s", got, tc.filter)
			}
			if got := strings.Join(strs(pd.Residual), " | "); got != strings.Join(tc.residual, " | ") {
				t.Errorf("residual\n got %s\nwant %s", got, strings.Join(tc.residual, " | "))
			}
			if len(pd.Pushed)+len(pd.Residual) != len(splitConjuncts(tc.conjuncts)) {
				t.Errorf("pushed %v + residual %v do not account for every conjunct", strs(pd.Pushed), strs(pd.Residual))
			}
		})
	}
}

func TestPushFiltersEmpty(t *testing.T) {
	pd := PushFilters(newTestTable(t).fields, nil)
	if pd.Filter != nil || pd.Pushed != nil || pd.Residual != nil {
		t.Errorf("PushFilters(nil) = %+v, want zero", pd)
	}
}

func TestDescribeNil(t *testing.T) {
	if got := Describe(nil); got != "" {
		t.Errorf("Describe(nil) = %q", got)
	}
	if got := Describe(predicate.Constant(predicate.False)); got != "FALSE" {
		t.Errorf("Describe(FALSE) = %q", got)
	}
}

func TestAmbiguousColumnNamesAreNotResolved(t *testing.T) {
	tt := newTestTable(t)
	fields := append(tt.fields[:3:3], tt.fields[2])
	fields[3].Name = "QTY"
	pd := PushFilters(fields, []sql.Expression{expression.NewEquals(tt.col("qty"), intLit(1))})
	if pd.Filter != nil || len(pd.Residual) != 1 {
		t.Errorf("qty matches two columns, yet pushed: %+v", pd)
	}
}

func TestLikeEscapes(t *testing.T) {
	tt := newTestTable(t)
	cases := []struct {
		pattern, escape string
		filter          string
	}{
		{pattern: `ab|%%`, escape: "|", filter: `status LIKE 'ab\\%%'`},
		{pattern: `ab%`, escape: "%", filter: ""},
		{pattern: `ab\`, escape: "", filter: ""},
		{pattern: `a_%`, escape: "", filter: `status LIKE 'a%'`},
	}
	for _, tc := range cases {
		var esc sql.Expression
		if tc.escape != "" {
			esc = strLit(tc.escape)
		}
		pd := PushFilters(tt.fields, []sql.Expression{expression.NewLike(tt.col("status"), strLit(tc.pattern), esc)})
		if got := Describe(pd.Filter); got != tc.filter {
			t.Errorf("LIKE %q ESCAPE %q: filter %q, want %q", tc.pattern, tc.escape, got, tc.filter)
		}
	}
}

func mustHashIn(t testing.TB, left sql.Expression, right expression.Tuple) *expression.HashInTuple {
	t.Helper()
	h, err := expression.NewHashInTuple(sql.NewEmptyContext(), left, right)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func strs(es []sql.Expression) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.String()
	}
	return out
}
