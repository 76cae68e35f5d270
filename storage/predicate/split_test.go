package predicate

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// payments is the reconciliation table: dt and status, then pay_id and
// amount.
type payments struct {
	dt, status, payID, amount Column
}

func newPayments(t *testing.T) payments {
	return payments{
		dt:     column(t, 0, "dt", "DATE"),
		status: column(t, 1, "status", "STRING"),
		payID:  column(t, 2, "pay_id", "BIGINT"),
		amount: column(t, 3, "amount", "DECIMAL(18, 2)"),
	}
}

func TestStringForExplain(t *testing.T) {
	p := newPayments(t)
	cases := []struct {
		pred Predicate
		want string
	}{
		{And(mustLeaf(t, p.dt, OpEq, "2026-04-16"), mustLeaf(t, p.status, OpIn, "SUCCESS", "PAID")),
			"dt = DATE '2026-04-16' AND status IN ('PAID', 'SUCCESS')"},
		{Or(mustLeaf(t, p.payID, OpEq, 7), And(mustLeaf(t, p.amount, OpBetween, "10", 20), mustLeaf(t, p.status, OpIsNotNull))),
			"pay_id = 7 OR (amount BETWEEN 10.00 AND 20.00 AND status IS NOT NULL)"},
		{Not(Or(mustLeaf(t, p.status, OpStartsWith, "FAIL"), mustLeaf(t, p.payID, OpIn, 1, nil))),
			"status NOT LIKE 'FAIL%' AND pay_id NOT IN (1, NULL)"},
		{mustLeaf(t, column(t, 0, "pay id", "INT"), OpNotBetween, 1, 2), "`pay id` NOT BETWEEN 1 AND 2"},
		{mustLeaf(t, column(t, 0, "t", "TIME(0)"), OpGt, "10:30"), "t > TIME '10:30:00'"},
	}
	for _, tc := range cases {
		if got := tc.pred.String(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

func TestConjunctsAndColumns(t *testing.T) {
	p := newPayments(t)
	dt := mustLeaf(t, p.dt, OpEq, "2026-04-16")
	or := Or(mustLeaf(t, p.payID, OpEq, 1), mustLeaf(t, p.amount, OpGt, 5))
	all := And(dt, or)
	if got := Conjuncts(all); len(got) != 2 || got[0] != dt || got[1] != or {
		t.Errorf("Conjuncts = %v", got)
	}
	if got := Conjuncts(or); len(got) != 1 || got[0] != or {
		t.Errorf("Conjuncts of an OR = %v", got)
	}
	if got := Columns(And(all, mustLeaf(t, p.dt, OpIsNotNull))); !reflect.DeepEqual(got, []int{0, 2, 3}) {
		t.Errorf("Columns = %v", got)
	}
}

func TestExtractPartitionFilter(t *testing.T) {
	p := newPayments(t)
	day := func(d string) Predicate { return mustLeaf(t, p.dt, OpEq, d) }
	success := mustLeaf(t, p.status, OpEq, "SUCCESS")
	big := mustLeaf(t, p.amount, OpGt, 100)
	partitionKeys := []int{0, 1}
	cases := []struct {
		pred                Predicate
		extracted, residual string
	}{
		{And(day("2026-04-16"), success, big),
			"dt = DATE '2026-04-16' AND status = 'SUCCESS'", "amount > 100.00"},
		{Or(And(day("2026-04-16"), big), day("2026-04-15")),
			"dt = DATE '2026-04-16' OR dt = DATE '2026-04-15'",
			"(dt = DATE '2026-04-16' AND amount > 100.00) OR dt = DATE '2026-04-15'"},
		{Or(day("2026-04-16"), big), "TRUE", "dt = DATE '2026-04-16' OR amount > 100.00"},
		{big, "TRUE", "amount > 100.00"},
		{And(Constant(False), big), "FALSE", "TRUE"},
	}
	for _, tc := range cases {
		extracted, residual := Extract(tc.pred, partitionKeys)
		if extracted.String() != tc.extracted || residual.String() != tc.residual {
			t.Errorf("Extract(%s) = %s | %s, want %s | %s", tc.pred, extracted, residual, tc.extracted, tc.residual)
		}
	}
}

func TestRemapToPartitionRow(t *testing.T) {
	p := newPayments(t)
	pred := And(mustLeaf(t, p.dt, OpEq, "2026-04-16"), mustLeaf(t, p.status, OpEq, "SUCCESS"))
	// The partition row is (status, dt).
	toPartition := []int{1, 0, -1, -1}
	mapped, ok := Remap(pred, toPartition)
	if !ok {
		t.Fatal("Remap failed")
	}
	leaf := Conjuncts(mapped)[0].(*LeafPredicate)
	if leaf.Column().Index != 1 || leaf.Column().Name != "dt" {
		t.Errorf("remapped column = %+v", leaf.Column())
	}
	if mapped.Eval([]any{"SUCCESS", spec.DateValue(20559)}) != True {
		t.Errorf("%s on the partition row is not TRUE", mapped)
	}
	if pred.Eval([]any{spec.DateValue(20559), "SUCCESS"}) != True {
		t.Errorf("the original predicate changed")
	}
	if _, ok := Remap(And(pred, mustLeaf(t, p.amount, OpGt, 1)), toPartition); ok {
		t.Error("Remap must fail for a column the partition row lacks")
	}
	if c, ok := Remap(Constant(True), nil); !ok || c != Constant(True) {
		t.Error("constants remap to themselves")
	}
}

func TestEqualityLiterals(t *testing.T) {
	p := newPayments(t)
	d := column(t, 4, "d", "DOUBLE")
	id := func(v ...any) Predicate { return mustLeaf(t, p.payID, OpIn, v...) }
	eq := func(v any) Predicate { return mustLeaf(t, p.payID, OpEq, v) }
	cases := []struct {
		pred Predicate
		want map[int][]any
	}{
		{And(eq(3), mustLeaf(t, p.status, OpIn, "PAID", "SUCCESS", nil)),
			map[int][]any{1: {"PAID", "SUCCESS"}, 2: {int64(3)}}},
		{Or(eq(3), eq(1), id(2, 3)), map[int][]any{2: {int64(1), int64(2), int64(3)}}},
		{And(id(1, 2, 3), id(2, 3, 4), eq(3)), map[int][]any{2: {int64(3)}}},
		{And(eq(1), eq(2)), map[int][]any{2: {}}},
		{eq(1.5), map[int][]any{2: {}}},
		{Or(eq(1), mustLeaf(t, p.status, OpEq, "PAID")), map[int][]any{}},
		{mustLeaf(t, p.payID, OpGt, 1), map[int][]any{}},
		{mustLeaf(t, d, OpIn, 0.0, 1.0), map[int][]any{4: {0.0, math.Copysign(0, -1), 1.0}}},
	}
	for _, tc := range cases {
		got := EqualityLiterals(tc.pred)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) || len(got) != len(tc.want) {
			t.Errorf("EqualityLiterals(%s) = %v, want %v", tc.pred, got, tc.want)
		}
	}
}
