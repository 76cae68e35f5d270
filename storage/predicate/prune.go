package predicate

import (
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// Test reports whether rows described by stats might make the leaf TRUE.
// It follows Paimon's LeafPredicate.test: NULL rows never make a comparison
// TRUE, so an all-null column proves Cannot, while a null bound on a column
// that is not known to be all-null means the statistics are unknown.
func (l *LeafPredicate) Test(stats Stats) Maybe {
	if l.neverTrue() {
		return Cannot
	}
	cs, ok := stats.column(l.col.Index)
	if !ok {
		return Might
	}
	switch l.op {
	case OpIsNull:
		return mightIf(cs.NullCount == nil || *cs.NullCount > 0)
	case OpIsNotNull:
		return mightIf(!allNull(cs, stats.RowCount))
	}
	if allNull(cs, stats.RowCount) {
		return Cannot
	}
	if !l.boundsUsable(cs) {
		return Might
	}
	return mightIf(l.mightMatch(cs.Min, cs.Max))
}

func mightIf(b bool) Maybe {
	if b {
		return Might
	}
	return Cannot
}

func allNull(cs spec.ColumnStats, rowCount int64) bool {
	return cs.NullCount != nil && *cs.NullCount == rowCount
}

// boundsUsable reports whether min and max bound every non-null value the
// leaf can be TRUE for. x NOT IN () has no literal and is TRUE for them all.
func (l *LeafPredicate) boundsUsable(cs spec.ColumnStats) bool {
	if cs.Min == nil || cs.Max == nil || len(l.literals) == 0 {
		return false
	}
	if !sameGoType(cs.Min, l.literals[0]) || !sameGoType(cs.Max, l.literals[0]) {
		return false
	}
	if isFloatType(l.col.Type) {
		// A NaN bound comes from a writer comparing with IEEE operators, and
		// a writer following the Parquet spec leaves NaN values out of the
		// bounds, so NaN rows are invisible to them.
		return !isNaN(cs.Min) && !isNaN(cs.Max) && !l.trueForNaN()
	}
	return true
}

// mightMatch reports whether a value in [lo, hi] might make the leaf TRUE.
func (l *LeafPredicate) mightMatch(lo, hi any) bool {
	lits := l.literals
	switch l.op {
	case OpEq:
		return l.compare(lits[0], lo) >= 0 && l.compare(lits[0], hi) <= 0
	case OpNotEq:
		return !l.single(lo, hi, lits[0])
	case OpLt:
		return l.compare(lo, lits[0]) < 0
	case OpLe:
		return l.compare(lo, lits[0]) <= 0
	case OpGt:
		return l.compare(hi, lits[0]) > 0
	case OpGe:
		return l.compare(hi, lits[0]) >= 0
	case OpIn:
		return l.anyLiteralIn(lo, hi)
	case OpNotIn:
		return !(l.compare(lo, hi) == 0 && l.contains(lo))
	case OpBetween:
		return l.compare(hi, lits[0]) >= 0 && l.compare(lo, lits[1]) <= 0
	case OpNotBetween:
		return l.compare(lo, lits[0]) < 0 || l.compare(hi, lits[1]) > 0
	case OpStartsWith:
		return mightStartWith(lo.(string), hi.(string), lits[0].(string))
	case OpNotStartsWith:
		prefix := lits[0].(string)
		return !strings.HasPrefix(lo.(string), prefix) || !strings.HasPrefix(hi.(string), prefix)
	}
	return true
}

// single reports whether [lo, hi] holds only v. NULL rows do not matter to
// the callers: they make <> and NOT IN UNKNOWN, never TRUE. Truncated string
// bounds are never equal (the max of a truncated value is rounded up past
// the min), so equal bounds are exact.
func (l *LeafPredicate) single(lo, hi, v any) bool {
	return l.compare(lo, v) == 0 && l.compare(hi, v) == 0
}

// anyLiteralIn looks up the first literal >= lo in the sorted list, which
// keeps long IN lists cheap to test.
func (l *LeafPredicate) anyLiteralIn(lo, hi any) bool {
	i, _ := slices.BinarySearchFunc(l.literals, lo, l.compare)
	return i < len(l.literals) && l.compare(l.literals[i], hi) <= 0
}

// mightStartWith reports whether [lo, hi] meets the strings that start with
// prefix. Those form one interval in byte order, from prefix up to (not
// including) the first string above every extension of prefix; lo is below
// that end when it is <= prefix or itself starts with prefix.
func mightStartWith(lo, hi, prefix string) bool {
	return hi >= prefix && (lo <= prefix || strings.HasPrefix(lo, prefix))
}
