package randsql

import (
	"fmt"
	"strings"
)

// Expr is a generated SQL expression. Every node knows its MySQL result
// type, so the generator only combines what MySQL combines without
// surprises, and the comparator knows where a documented difference
// applies.
type Expr interface {
	// Type is the MySQL type of the expression's values.
	Type() Type
	write(b *strings.Builder)
}

// sqlOf renders an expression.
func sqlOf(e Expr) string {
	var b strings.Builder
	e.write(&b)
	return b.String()
}

// Col is a column of a table in scope, qualified by the table's alias.
type Col struct {
	Alias  string
	Name   string
	T      Type
	values domain // the column's domain, for literals it is compared with
}

func (c *Col) Type() Type               { return c.T }
func (c *Col) write(b *strings.Builder) { b.WriteString(c.Alias + "." + c.Name) }

// Lit is a literal, NULL included.
type Lit struct {
	Text string
	T    Type
}

func (l *Lit) Type() Type               { return l.T }
func (l *Lit) write(b *strings.Builder) { b.WriteString(l.Text) }

// Arith is + - * or / of two numbers.
type Arith struct {
	Op   string
	L, R Expr
}

// Type follows MySQL's arithmetic: a DOUBLE operand makes a DOUBLE, else
// a DECIMAL operand or a division a DECIMAL, else a BIGINT.
func (a *Arith) Type() Type {
	l, r := a.L.Type(), a.R.Type()
	switch {
	case l.Kind == KindDouble || r.Kind == KindDouble:
		return Type{Kind: KindDouble}
	case l.Kind == KindDecimal || r.Kind == KindDecimal || a.Op == "/":
		return Type{Kind: KindDecimal}
	default:
		return Type{Kind: KindBigInt}
	}
}

func (a *Arith) write(b *strings.Builder) {
	b.WriteString("(")
	a.L.write(b)
	b.WriteString(" " + a.Op + " ")
	a.R.write(b)
	b.WriteString(")")
}

// Cmp is a comparison: = <> < <= > >= or the NULL-safe <=>.
type Cmp struct {
	Op   string
	L, R Expr
}

func (c *Cmp) Type() Type { return boolType }
func (c *Cmp) write(b *strings.Builder) {
	c.L.write(b)
	b.WriteString(" " + c.Op + " ")
	c.R.write(b)
}

// boolType is the type of predicates: MySQL's booleans are integers.
var boolType = Type{Kind: KindBigInt}

// Logic is AND or OR of two or more predicates.
type Logic struct {
	Op   string
	Args []Expr
}

func (l *Logic) Type() Type { return boolType }
func (l *Logic) write(b *strings.Builder) {
	b.WriteString("(")
	for i, a := range l.Args {
		if i > 0 {
			b.WriteString(" " + l.Op + " ")
		}
		a.write(b)
	}
	b.WriteString(")")
}

// Not negates a predicate.
type Not struct{ E Expr }

func (n *Not) Type() Type { return boolType }
func (n *Not) write(b *strings.Builder) {
	b.WriteString("NOT (")
	n.E.write(b)
	b.WriteString(")")
}

// IsNull is IS [NOT] NULL.
type IsNull struct {
	E      Expr
	Negate bool
}

func (n *IsNull) Type() Type { return boolType }
func (n *IsNull) write(b *strings.Builder) {
	n.E.write(b)
	if n.Negate {
		b.WriteString(" IS NOT NULL")
	} else {
		b.WriteString(" IS NULL")
	}
}

// InList is [NOT] IN (literals); the list may hold NULL.
type InList struct {
	E      Expr
	List   []Expr
	Negate bool
}

func (n *InList) Type() Type { return boolType }
func (n *InList) write(b *strings.Builder) {
	n.E.write(b)
	if n.Negate {
		b.WriteString(" NOT")
	}
	b.WriteString(" IN (")
	for i, e := range n.List {
		if i > 0 {
			b.WriteString(", ")
		}
		e.write(b)
	}
	b.WriteString(")")
}

// Between is [NOT] BETWEEN lo AND hi.
type Between struct {
	E, Lo, Hi Expr
	Negate    bool
}

func (n *Between) Type() Type { return boolType }
func (n *Between) write(b *strings.Builder) {
	n.E.write(b)
	if n.Negate {
		b.WriteString(" NOT")
	}
	b.WriteString(" BETWEEN ")
	n.Lo.write(b)
	b.WriteString(" AND ")
	n.Hi.write(b)
}

// Func is a scalar function call whose result has the type of its first
// argument (COALESCE of same-class arguments, ABS).
type Func struct {
	Name string
	Args []Expr
}

func (f *Func) Type() Type { return f.Args[0].Type() }
func (f *Func) write(b *strings.Builder) {
	b.WriteString(f.Name + "(")
	for i, a := range f.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		a.write(b)
	}
	b.WriteString(")")
}

// CaseWhen is CASE WHEN cond THEN a ELSE b END, a and b of one class.
type CaseWhen struct{ When, Then, Else Expr }

// Type is the wider of the branches, as MySQL aggregates CASE types.
func (c *CaseWhen) Type() Type { return widerType(c.Then.Type(), c.Else.Type()) }
func (c *CaseWhen) write(b *strings.Builder) {
	b.WriteString("CASE WHEN ")
	c.When.write(b)
	b.WriteString(" THEN ")
	c.Then.write(b)
	b.WriteString(" ELSE ")
	c.Else.write(b)
	b.WriteString(" END")
}

// widerType is the type MySQL gives a column mixing two types of one
// class (CASE, UNION): for numbers DOUBLE over DECIMAL over integers.
func widerType(a, b Type) Type {
	if !a.numeric() {
		return a
	}
	switch {
	case a.Kind == KindDouble || b.Kind == KindDouble:
		return Type{Kind: KindDouble}
	case a.Kind == KindDecimal || b.Kind == KindDecimal:
		return Type{Kind: KindDecimal}
	default:
		return Type{Kind: KindBigInt}
	}
}

// Agg is an aggregate function; Arg nil is COUNT(*).
type Agg struct {
	Name     string // COUNT SUM MIN MAX AVG
	Distinct bool
	Arg      Expr
}

// Type follows MySQL: COUNT is a BIGINT; SUM and AVG of integers and
// DECIMALs are DECIMAL, of DOUBLEs DOUBLE; MIN and MAX keep the type.
func (a *Agg) Type() Type {
	switch a.Name {
	case "COUNT":
		return Type{Kind: KindBigInt}
	case "SUM", "AVG":
		if a.Arg.Type().Kind == KindDouble {
			return Type{Kind: KindDouble}
		}
		return Type{Kind: KindDecimal}
	default:
		return a.Arg.Type()
	}
}

func (a *Agg) write(b *strings.Builder) {
	b.WriteString(a.Name + "(")
	switch {
	case a.Arg == nil:
		b.WriteString("*")
	case a.Distinct:
		b.WriteString("DISTINCT ")
		a.Arg.write(b)
	default:
		a.Arg.write(b)
	}
	b.WriteString(")")
}

// Rank is ROW_NUMBER(), RANK() or DENSE_RANK(), only inside a Window.
type Rank struct{ Name string }

func (r *Rank) Type() Type               { return Type{Kind: KindBigInt} }
func (r *Rank) write(b *strings.Builder) { b.WriteString(r.Name + "()") }

// Window is a window function: an Agg or a Rank OVER (PARTITION BY …
// ORDER BY …) with MySQL's default frame.
type Window struct {
	Fn          Expr
	PartitionBy []Expr
	OrderBy     []SortExpr
}

// SortExpr is one ORDER BY term of a window.
type SortExpr struct {
	E    Expr
	Desc bool
}

func (w *Window) Type() Type { return w.Fn.Type() }
func (w *Window) write(b *strings.Builder) {
	w.Fn.write(b)
	b.WriteString(" OVER (")
	if len(w.PartitionBy) > 0 {
		b.WriteString("PARTITION BY ")
		for i, e := range w.PartitionBy {
			if i > 0 {
				b.WriteString(", ")
			}
			e.write(b)
		}
	}
	if len(w.OrderBy) > 0 {
		if len(w.PartitionBy) > 0 {
			b.WriteString(" ")
		}
		b.WriteString("ORDER BY ")
		for i, s := range w.OrderBy {
			if i > 0 {
				b.WriteString(", ")
			}
			s.E.write(b)
			if s.Desc {
				b.WriteString(" DESC")
			}
		}
	}
	b.WriteString(")")
}

// Exists is [NOT] EXISTS (subquery): a semi or anti join.
type Exists struct {
	Sub    *Select
	Negate bool
}

func (e *Exists) Type() Type { return boolType }
func (e *Exists) write(b *strings.Builder) {
	if e.Negate {
		b.WriteString("NOT ")
	}
	b.WriteString("EXISTS (")
	e.Sub.write(b)
	b.WriteString(")")
}

// InSub is e [NOT] IN (subquery of one column).
type InSub struct {
	E      Expr
	Sub    *Select
	Negate bool
}

func (n *InSub) Type() Type { return boolType }
func (n *InSub) write(b *strings.Builder) {
	n.E.write(b)
	if n.Negate {
		b.WriteString(" NOT")
	}
	b.WriteString(" IN (")
	n.Sub.write(b)
	b.WriteString(")")
}

// Scalar is a subquery returning one row and one column: an aggregate
// without GROUP BY, so exactly one row.
type Scalar struct{ Sub *Select }

func (s *Scalar) Type() Type { return s.Sub.Items[0].Type() }
func (s *Scalar) write(b *strings.Builder) {
	b.WriteString("(")
	s.Sub.write(b)
	b.WriteString(")")
}

// litOf is a literal of the column's domain.
func litOf(text string, t Type) *Lit { return &Lit{Text: text, T: t} }

// nullLit is NULL typed as t, for IN lists and COALESCE.
func nullLit(t Type) *Lit { return &Lit{Text: "NULL", T: t} }

// intLit is an integer literal.
func intLit(n int) *Lit { return &Lit{Text: fmt.Sprint(n), T: Type{Kind: KindBigInt}} }

// GroupConcat is GROUP_CONCAT([DISTINCT] a, b, … ORDER BY a, b, …
// [SEPARATOR 's']): ordered by every column argument, so that both
// engines build one string (rows that tie print the same text). With
// DISTINCT and several arguments a '|' argument separates them: MySQL
// compares DISTINCT tuples argument by argument and generated values
// never hold '|', so the strings are distinct exactly when the tuples are.
// No DOUBLE arguments: the engines print floats differently (doc.go).
type GroupConcat struct {
	Distinct  bool
	Args      []Expr
	Separator string // "" is the default ","
}

func (g *GroupConcat) Type() Type { return Type{Kind: KindVarChar, Length: 1024} }

func (g *GroupConcat) write(b *strings.Builder) {
	b.WriteString("GROUP_CONCAT(")
	if g.Distinct {
		b.WriteString("DISTINCT ")
	}
	for i, a := range g.Args {
		if i > 0 {
			b.WriteString(", ")
			if g.Distinct {
				b.WriteString("'|', ")
			}
		}
		a.write(b)
	}
	b.WriteString(" ORDER BY ")
	for i, a := range g.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		a.write(b)
	}
	if g.Separator != "" {
		b.WriteString(" SEPARATOR '" + g.Separator + "'")
	}
	b.WriteString(")")
}
