package predicate

import (
	"math"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

func TestLeafPruning(t *testing.T) {
	x := column(t, 0, "x", "INT")
	i32 := func(v int32) any { return v }
	cases := []struct {
		name  string
		op    Op
		lits  []any
		stats Stats
		want  Maybe
	}{
		{"= inside", OpEq, []any{5}, stats1(10, i32(1), i32(9), count(0)), Might},
		{"= below min", OpEq, []any{0}, stats1(10, i32(1), i32(9), count(0)), Cannot},
		{"= above max", OpEq, []any{10}, stats1(10, i32(1), i32(9), count(0)), Cannot},
		{"= on min bound", OpEq, []any{1}, stats1(10, i32(1), i32(9), count(0)), Might},
		{"unknown null count keeps bounds", OpEq, []any{0}, stats1(10, i32(1), i32(9), nil), Cannot},
		{"null min is unknown", OpEq, []any{0}, stats1(10, nil, i32(9), count(3)), Might},
		{"null max is unknown", OpEq, []any{10}, stats1(10, i32(1), nil, nil), Might},
		{"all null", OpEq, []any{5}, stats1(10, nil, nil, count(10)), Cannot},
		{"all null with stale bounds", OpNotEq, []any{5}, stats1(10, i32(1), i32(9), count(10)), Cannot},
		{"unknown row count hides all-null", OpEq, []any{5}, stats1(-1, nil, nil, count(10)), Might},
		{"missing column", OpEq, []any{5}, Stats{RowCount: 10}, Might},
		{"stats of another Go type", OpEq, []any{0}, stats1(10, int64(1), int64(9), count(0)), Might},
		{"< min", OpLt, []any{1}, stats1(10, i32(1), i32(9), count(0)), Cannot},
		{"< above min", OpLt, []any{2}, stats1(10, i32(1), i32(9), count(0)), Might},
		{"<= min", OpLe, []any{1}, stats1(10, i32(1), i32(9), count(0)), Might},
		{"<= below min", OpLe, []any{0}, stats1(10, i32(1), i32(9), count(0)), Cannot},
		{"> max", OpGt, []any{9}, stats1(10, i32(1), i32(9), count(0)), Cannot},
		{">= max", OpGe, []any{9}, stats1(10, i32(1), i32(9), count(0)), Might},
		{">= above max", OpGe, []any{10}, stats1(10, i32(1), i32(9), count(0)), Cannot},
		{"<> single value", OpNotEq, []any{5}, stats1(10, i32(5), i32(5), count(0)), Cannot},
		// NULL rows make <> UNKNOWN, never TRUE: they do not keep the file.
		{"<> single value with nulls", OpNotEq, []any{5}, stats1(10, i32(5), i32(5), count(4)), Cannot},
		{"<> range", OpNotEq, []any{5}, stats1(10, i32(5), i32(6), count(0)), Might},
		{"NOT IN single value", OpNotIn, []any{4, 5}, stats1(10, i32(5), i32(5), count(0)), Cannot},
		{"NOT IN other value", OpNotIn, []any{4, 6}, stats1(10, i32(5), i32(5), count(0)), Might},
		{"NOT IN with NULL is never TRUE", OpNotIn, []any{4, nil}, Stats{RowCount: 10}, Cannot},
		{"NOT IN with every value out of range", OpNotIn, []any{1.5}, stats1(10, i32(5), i32(5), count(0)), Might},
		{"IN hit", OpIn, []any{0, 7, 20}, stats1(10, i32(1), i32(9), count(0)), Might},
		{"IN gap", OpIn, []any{0, 10, 20}, stats1(10, i32(1), i32(9), count(0)), Cannot},
		{"IN of only NULL", OpIn, []any{nil}, Stats{RowCount: 10}, Cannot},
		{"IN of no column value", OpIn, []any{1.5}, Stats{RowCount: 10}, Cannot},
		{"BETWEEN overlaps", OpBetween, []any{9, 20}, stats1(10, i32(1), i32(9), count(0)), Might},
		{"BETWEEN above", OpBetween, []any{10, 20}, stats1(10, i32(1), i32(9), count(0)), Cannot},
		{"BETWEEN below", OpBetween, []any{-5, 0}, stats1(10, i32(1), i32(9), count(0)), Cannot},
		{"NOT BETWEEN covers", OpNotBetween, []any{1, 9}, stats1(10, i32(1), i32(9), count(0)), Cannot},
		{"NOT BETWEEN sticks out", OpNotBetween, []any{2, 9}, stats1(10, i32(1), i32(9), count(0)), Might},
		{"IS NULL without nulls", OpIsNull, nil, stats1(10, i32(1), i32(9), count(0)), Cannot},
		{"IS NULL with nulls", OpIsNull, nil, stats1(10, i32(1), i32(9), count(1)), Might},
		{"IS NULL unknown count", OpIsNull, nil, stats1(10, i32(1), i32(9), nil), Might},
		{"IS NOT NULL all null", OpIsNotNull, nil, stats1(10, nil, nil, count(10)), Cannot},
		{"IS NOT NULL some null", OpIsNotNull, nil, stats1(10, nil, nil, count(9)), Might},
		{"empty file", OpIsNull, nil, stats1(0, nil, nil, count(0)), Cannot},
	}
	for _, tc := range cases {
		p := mustLeaf(t, x, tc.op, tc.lits...)
		if got := p.Test(tc.stats); got != tc.want {
			t.Errorf("%s: %s = %s, want %s", tc.name, p, got, tc.want)
		}
	}
}

func TestInPruningWithManyLiterals(t *testing.T) {
	id := column(t, 0, "pay_id", "BIGINT")
	lits := make([]any, 0, 5000)
	for i := range 5000 {
		lits = append(lits, int64(i*10))
	}
	p := mustLeaf(t, id, OpIn, lits...)
	for _, tc := range []struct {
		min, max int64
		want     Maybe
	}{
		{1, 9, Cannot},
		{1, 10, Might},
		{49990, 60000, Might},
		{49991, 60000, Cannot},
		{-5, -1, Cannot},
		{25_001, 25_009, Cannot},
	} {
		if got := p.Test(stats1(100, tc.min, tc.max, count(0))); got != tc.want {
			t.Errorf("[%d, %d]: %s, want %s", tc.min, tc.max, got, tc.want)
		}
	}
}

func TestFloatPruningDistrustsNaN(t *testing.T) {
	d := column(t, 0, "d", "DOUBLE")
	nan, negZero := math.NaN(), math.Copysign(0, -1)
	cases := []struct {
		op     Op
		lit    any
		lo, hi float64
		want   Maybe
	}{
		{OpLt, 0.0, 1, 2, Cannot},
		{OpEq, 5.0, 1, 2, Cannot},
		{OpBetween, 5.0, 1, 2, Cannot},
		// NaN rows are TRUE for these, and Parquet-style bounds leave NaN out.
		{OpGt, 5.0, 1, 2, Might},
		{OpGe, 5.0, 1, 2, Might},
		{OpNotEq, 1.0, 1, 1, Might},
		{OpNotIn, 1.0, 1, 1, Might},
		{OpNotBetween, 0.0, 1, 2, Might},
		// A NaN bound is unknown.
		{OpEq, 5.0, nan, nan, Might},
		{OpLt, 0.0, 1, nan, Might},
		// Either zero may bound both zeros.
		{OpEq, 0.0, negZero, negZero, Might},
		{OpLt, 0.0, 0, 1, Cannot},
		{OpLe, negZero, 0, 1, Might},
	}
	for _, tc := range cases {
		lits := []any{tc.lit}
		if tc.op == OpBetween || tc.op == OpNotBetween {
			lits = append(lits, 3.0)
		}
		p := mustLeaf(t, d, tc.op, lits...)
		if got := p.Test(stats1(10, tc.lo, tc.hi, count(0))); got != tc.want {
			t.Errorf("%s on [%v, %v] = %s, want %s", p, tc.lo, tc.hi, got, tc.want)
		}
	}
	allNull := mustLeaf(t, d, OpGt, 5.0)
	if allNull.Test(stats1(10, nil, nil, count(10))) != Cannot {
		t.Errorf("%s on an all-null column must prune", allNull)
	}
}

// paimonTruncateMin and paimonTruncateMax are Paimon's truncate(16)
// statistics (TruncateSimpleColStatsCollector): a prefix of 16 code points
// as min, and as max that prefix with its last code point that can be
// incremented incremented and the rest dropped; ok is false when none can,
// and Paimon then writes no bounds at all.
func paimonTruncateMin(s string) string {
	r := []rune(s)
	if len(r) <= 16 {
		return s
	}
	return string(r[:16])
}

func paimonTruncateMax(s string) (string, bool) {
	r := []rune(s)
	if len(r) <= 16 {
		return s, true
	}
	r = r[:16]
	for i := len(r) - 1; i >= 0; i-- {
		next := r[i] + 1
		if next >= 0xD800 && next <= 0xDFFF {
			// Java would append a lone surrogate, which Go strings cannot
			// hold; the next scalar value is an upper bound just as well.
			next = 0xE000
		}
		if next <= 0x10FFFF {
			r[i] = next
			return string(r[:i+1]), true
		}
	}
	return "", false
}

func TestTruncatedStringStats(t *testing.T) {
	s := column(t, 0, "pay_id", "STRING")
	lo, hi := "2026-04-16-payment-000001", "2026-04-16-payment-009999"
	maxBound, _ := paimonTruncateMax(hi)
	stats := stats1(10, paimonTruncateMin(lo), maxBound, count(0))
	if stats.Columns[0].Min != "2026-04-16-payme" || stats.Columns[0].Max != "2026-04-16-paymf" {
		t.Fatalf("truncated stats = %v", stats.Columns[0])
	}
	cases := []struct {
		op   Op
		lit  string
		want Maybe
	}{
		{OpEq, lo, Might},
		{OpEq, hi, Might},
		{OpEq, "2026-04-16-payme", Might},
		{OpEq, "2026-04-17-payment-000001", Cannot},
		{OpEq, "2026-04-16-paymf", Might},
		{OpEq, "2026-04-16-paymf0", Cannot},
		{OpGt, "2026-04-16-payment-009999", Might}, // the bound was rounded up
		{OpGe, "2026-04-16-paymf", Might},
		{OpGt, "2026-04-16-paymf", Cannot},
		{OpLt, "2026-04-16-payme", Cannot},
		{OpLe, "2026-04-16-payme", Might},
		{OpStartsWith, "2026-04-16", Might},
		{OpStartsWith, "2026-04-16-payment-0", Might},
		{OpStartsWith, "2026-04-16-paymf", Might},
		{OpStartsWith, "2026-04-17", Cannot},
		{OpStartsWith, "2026-04-15", Cannot},
		{OpNotStartsWith, "2026-04-16", Cannot},
		{OpNotStartsWith, "2026-04-16-payment", Might},
		{OpNotEq, "2026-04-16-payme", Might},
	}
	for _, tc := range cases {
		p := mustLeaf(t, s, tc.op, tc.lit)
		if got := p.Test(stats); got != tc.want {
			t.Errorf("%s = %s, want %s", p, got, tc.want)
		}
	}
}

// Truncated bounds of multi-byte strings and of binaries, and the null
// bounds of a maximum that could not be rounded up, as Java's
// truncate(16) writes them: no decision drops a file holding a match.
func TestTruncatedBoundsPruning(t *testing.T) {
	str := column(t, 0, "name", "STRING")
	bin := column(t, 0, "hash", "BYTES")
	ff := func(n int) []byte { return []byte(strings.Repeat("\xff", n)) }
	// Values "日本語の文字列を十六文字より長く書く" .. "日本語の文字列を十六文字より長く書け".
	jaLo, jaHi := "日本語の文字列を十六文字より長く", "日本語の文字列を十六文字より長ぐ"
	// Values 0x01 0xff*19 .. 0x02 0xff*19: the max rounds up past its 0xff
	// bytes to 0x03.
	binLo, binHi := append([]byte{1}, ff(15)...), []byte{3}
	cases := []struct {
		name  string
		col   Column
		op    Op
		lit   any
		stats Stats
		want  Maybe
	}{
		{"= a value longer than the cut bounds", str, OpEq, "日本語の文字列を十六文字より長く書け", stats1(5, jaLo, jaHi, count(0)), Might},
		{"= the cut minimum", str, OpEq, jaLo, stats1(5, jaLo, jaHi, count(0)), Might},
		{"= past the rounded-up maximum", str, OpEq, "日本語の文字列を十六文字より長げ", stats1(5, jaLo, jaHi, count(0)), Cannot},
		{"> below the rounded-up maximum", str, OpGt, "日本語の文字列を十六文字より長く書け", stats1(5, jaLo, jaHi, count(0)), Might},
		{"LIKE a prefix longer than the bounds", str, OpStartsWith, "日本語の文字列を十六文字より長く書", stats1(5, jaLo, jaHi, count(0)), Might},
		{"binary = the largest value", bin, OpEq, append([]byte{2}, ff(19)...), stats1(5, binLo, binHi, count(0)), Might},
		{"binary = the smallest value", bin, OpEq, append([]byte{1}, ff(19)...), stats1(5, binLo, binHi, count(0)), Might},
		{"binary > below the rounded-up maximum", bin, OpGt, []byte{2, 0xff}, stats1(5, binLo, binHi, count(0)), Might},
		{"binary >= the rounded-up maximum", bin, OpGe, []byte{3}, stats1(5, binLo, binHi, count(0)), Might},
		{"binary past the rounded-up maximum", bin, OpGt, []byte{3}, stats1(5, binLo, binHi, count(0)), Cannot},
		{"no bounds: = keeps the file", str, OpEq, "x", stats1(5, nil, nil, count(0)), Might},
		{"no bounds: < keeps the file", str, OpLt, "x", stats1(5, nil, nil, count(0)), Might},
		{"no bounds: NOT LIKE keeps the file", str, OpNotStartsWith, "x", stats1(5, nil, nil, count(0)), Might},
		{"no bounds: IS NULL decided by the count", str, OpIsNull, nil, stats1(5, nil, nil, count(0)), Cannot},
	}
	for _, tc := range cases {
		var lits []any
		if tc.lit != nil {
			lits = []any{tc.lit}
		}
		p := mustLeaf(t, tc.col, tc.op, lits...)
		if got := p.Test(tc.stats); got != tc.want {
			t.Errorf("%s: %s = %s, want %s", tc.name, p, got, tc.want)
		}
	}
}

func TestTruncateMaxCarries(t *testing.T) {
	top := string(rune(0x10FFFF))
	got, ok := paimonTruncateMax("abcdefghijklmno" + top + "z")
	if !ok || got != "abcdefghijklmnp" {
		t.Errorf("carry: %q, %v", got, ok)
	}
	if _, ok := paimonTruncateMax(strings.Repeat(top, 17)); ok {
		t.Error("a prefix of maximal code points has no upper bound")
	}
}

func TestCompoundPruning(t *testing.T) {
	dt := column(t, 0, "dt", "STRING")
	status := column(t, 1, "status", "STRING")
	p := And(
		mustLeaf(t, dt, OpEq, "2026-04-16"),
		Or(mustLeaf(t, status, OpEq, "SUCCESS"), mustLeaf(t, status, OpIsNull)),
	)
	file := func(day, lo, hi string, nulls int64) Stats {
		return Stats{RowCount: 10, Columns: []spec.ColumnStats{
			{Min: day, Max: day, NullCount: count(0)},
			{Min: lo, Max: hi, NullCount: count(nulls)},
		}}
	}
	cases := []struct {
		stats Stats
		want  Maybe
	}{
		{file("2026-04-16", "FAILED", "SUCCESS", 0), Might},
		{file("2026-04-15", "FAILED", "SUCCESS", 0), Cannot},
		{file("2026-04-16", "FAILED", "PAID", 0), Cannot},
		{file("2026-04-16", "FAILED", "PAID", 1), Might},
	}
	for _, tc := range cases {
		if got := p.Test(tc.stats); got != tc.want {
			t.Errorf("%s on %v = %s, want %s", p, tc.stats.Columns, got, tc.want)
		}
	}
	if Constant(True).Test(Stats{}) != Might || Constant(Unknown).Test(Stats{}) != Cannot || Constant(False).Test(Stats{}) != Cannot {
		t.Error("constants prune wrongly")
	}
}
