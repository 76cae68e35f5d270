package predicate

import (
	"slices"
	"strings"
)

// Op is the operator of a leaf. Operators come in pairs that are exact
// three-valued negations of each other.
type Op uint8

const (
	OpEq Op = iota + 1
	OpNotEq
	OpLt
	OpGe
	OpLe
	OpGt
	OpIn
	OpNotIn
	OpBetween
	OpNotBetween
	OpStartsWith
	OpNotStartsWith
	OpIsNull
	OpIsNotNull
)

type opInfo struct {
	symbol   string
	negation Op
	// negative marks the operator of each pair that is evaluated as the
	// negation of its partner.
	negative bool
	// arity is the number of literals Leaf takes; -1 means one or more.
	arity int
}

var ops = [...]opInfo{
	OpEq:            {"=", OpNotEq, false, 1},
	OpNotEq:         {"<>", OpEq, true, 1},
	OpLt:            {"<", OpGe, false, 1},
	OpGe:            {">=", OpLt, true, 1},
	OpLe:            {"<=", OpGt, false, 1},
	OpGt:            {">", OpLe, true, 1},
	OpIn:            {"IN", OpNotIn, false, -1},
	OpNotIn:         {"NOT IN", OpIn, true, -1},
	OpBetween:       {"BETWEEN", OpNotBetween, false, 2},
	OpNotBetween:    {"NOT BETWEEN", OpBetween, true, 2},
	OpStartsWith:    {"LIKE", OpNotStartsWith, false, 1},
	OpNotStartsWith: {"NOT LIKE", OpStartsWith, true, 1},
	OpIsNull:        {"IS NULL", OpIsNotNull, false, 0},
	OpIsNotNull:     {"IS NOT NULL", OpIsNull, true, 0},
}

// String returns the SQL spelling (LIKE for the starts-with pair).
func (op Op) String() string {
	if op == 0 || int(op) >= len(ops) {
		return "Op(?)"
	}
	return ops[op].symbol
}

// Negation returns the operator that is exactly NOT op (0 for an unknown
// operator).
func (op Op) Negation() Op {
	if int(op) >= len(ops) {
		return 0
	}
	return ops[op].negation
}

// LeafPredicate compares one column with literals of the column's type.
type LeafPredicate struct {
	col Column
	op  Op
	// literals holds, per operator: one value for the comparisons; the
	// lower and upper bound, lower <= upper, for the BETWEEN pair; the sorted
	// distinct non-null values for the IN pair (possibly none); the prefix
	// string for LIKE.
	literals []any
	// nullLiteral records a NULL in an IN or NOT IN list.
	nullLiteral bool
}

// Column returns the column the leaf reads.
func (l *LeafPredicate) Column() Column { return l.col }

// Op returns the operator.
func (l *LeafPredicate) Op() Op { return l.op }

// Literals returns the non-null literals, typed by the column (a copy).
func (l *LeafPredicate) Literals() []any { return slices.Clone(l.literals) }

// HasNullLiteral reports whether an IN or NOT IN list held a NULL.
func (l *LeafPredicate) HasNullLiteral() bool { return l.nullLiteral }

// Eval evaluates the leaf on row.
func (l *LeafPredicate) Eval(row []any) Tri {
	var v any
	if l.col.Index < len(row) {
		v = row[l.col.Index]
	}
	t := l.evalPositive(v)
	if ops[l.op].negative {
		return t.Not()
	}
	return t
}

// evalPositive evaluates the positive operator of l's pair.
func (l *LeafPredicate) evalPositive(v any) Tri {
	op := l.op
	if ops[op].negative {
		op = ops[op].negation
	}
	if op == OpIsNull {
		return triOf(v == nil)
	}
	if v == nil {
		return Unknown
	}
	switch op {
	case OpEq:
		return triOf(l.compare(v, l.literals[0]) == 0)
	case OpLt:
		return triOf(l.compare(v, l.literals[0]) < 0)
	case OpLe:
		return triOf(l.compare(v, l.literals[0]) <= 0)
	case OpIn:
		return l.evalIn(v)
	case OpBetween:
		return triOf(l.compare(v, l.literals[0]) >= 0 && l.compare(v, l.literals[1]) <= 0)
	case OpStartsWith:
		s, ok := v.(string)
		return triOf(ok && strings.HasPrefix(s, l.literals[0].(string)))
	}
	return Unknown
}

// evalIn is SQL's IN: TRUE on a match, else UNKNOWN if the list held a
// NULL (the value might equal it), else FALSE.
func (l *LeafPredicate) evalIn(v any) Tri {
	if l.contains(v) {
		return True
	}
	if l.nullLiteral {
		return Unknown
	}
	return False
}

func (l *LeafPredicate) contains(v any) bool {
	_, found := slices.BinarySearchFunc(l.literals, v, l.compare)
	return found
}

func (l *LeafPredicate) compare(a, b any) int { return compareValues(l.col.Type, a, b) }

func (l *LeafPredicate) negate() Predicate {
	n := *l
	n.op = ops[l.op].negation
	return &n
}

func (l *LeafPredicate) appendColumns(dst []int) []int { return append(dst, l.col.Index) }

func (l *LeafPredicate) remap(to []int) (Predicate, bool) {
	i := l.col.Index
	if i < 0 || i >= len(to) || to[i] < 0 {
		return nil, false
	}
	n := *l
	n.col.Index = to[i]
	return &n, true
}

// neverTrue reports whether no value can make the leaf TRUE: an IN list
// without non-null values, or a NOT IN list holding NULL.
func (l *LeafPredicate) neverTrue() bool {
	switch l.op {
	case OpIn:
		return len(l.literals) == 0
	case OpNotIn:
		return l.nullLiteral
	}
	return false
}

// trueForNaN reports whether a NaN value makes the leaf TRUE; literals are
// never NaN and NaN sorts above everything.
func (l *LeafPredicate) trueForNaN() bool {
	switch l.op {
	case OpGt, OpGe, OpNotEq, OpNotIn, OpNotBetween:
		return true
	}
	return false
}
