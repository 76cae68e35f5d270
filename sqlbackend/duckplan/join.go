package duckplan

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// joinKind is the DuckDB join of GMS join type op, or why it is not
// translated. Every execution of a kind (nested loop, hash, lookup,
// merge) is the same join of its rows.
func joinKind(op plan.JoinType) (string, error) {
	switch {
	case op.IsLateral():
		return "", errors.New("duckplan: lateral joins are not translated")
	case op.IsAnti():
		return "ANTI", nil
	case op.IsExcludeNulls():
		// The left joins that drop rows whose condition is NULL: GMS's
		// NULL rules there are its own.
		return "", fmt.Errorf("duckplan: %s is not translated", op)
	case op.IsRange():
		return "", fmt.Errorf("duckplan: %s is not translated", op)
	case op.IsCross():
		return "CROSS JOIN", nil
	case op.IsSemi():
		return "SEMI JOIN", nil
	case op.IsLeftOuter():
		return "LEFT JOIN", nil
	}
	switch op {
	case plan.JoinTypeInner, plan.JoinTypeHash, plan.JoinTypeLookup, plan.JoinTypeMerge:
		return "JOIN", nil
	}
	return "", fmt.Errorf("duckplan: %s is not translated", op)
}

// join is a join of two translated inputs, l and r, on the join's
// condition: GMS's Filter, and for a lookup join also the lookup's key
// equalities, which GMS took out of Filter (analyzer/indexed_joins.go
// addLookupJoins keeps only the conjuncts the index did not match).
func (t *translator) join(n *plan.JoinNode) (rel, error) {
	if n.ScopeLen != 0 {
		return rel{}, errors.New("duckplan: a join that reads the rows around it is not translated")
	}
	kind, err := joinKind(n.Op)
	if err != nil {
		return rel{}, err
	}
	// GMS numbers a join's columns after those of the joins it is the
	// right side of (fix_exec_indexes.go: a join child's scope is lateral
	// to its right siblings, and ON conditions and lookup keys see the
	// lateral scopes): the right side is translated with the left's
	// columns ahead of its own.
	outer := t.lateral
	defer func() { t.lateral = outer }()
	left, err := t.node(n.Left())
	if err != nil {
		return rel{}, err
	}
	t.lateral = outer + len(n.Left().Schema())
	rightNode := n.Right()
	if h, ok := rightNode.(*plan.HashLookup); ok {
		rightNode = h.Child
	}
	var lookup *plan.IndexedTableAccess
	if n.Op.IsLookup() {
		if lookup, err = t.lookupInner(rightNode); err != nil {
			return rel{}, err
		}
	}
	right, err := t.node(rightNode)
	if err != nil {
		return rel{}, err
	}
	width := len(n.Left().Schema())
	x := &exprs{width: width + len(rightNode.Schema()), column: func(i int) string {
		if i < width {
			return "l." + out(i)
		}
		return "r." + out(i-width)
	}}
	cond, err := joinCondition(n, lookup, width, outer)
	if err != nil {
		return rel{}, err
	}
	cols := make([]string, 0, x.width)
	for i := range len(n.Schema()) {
		cols = append(cols, x.column(i)+" AS "+out(i))
	}
	if kind == "ANTI" {
		return antiJoin(x, cols, left, right, cond, width)
	}
	on := "TRUE"
	if cond != nil {
		if on, err = x.cond(cond); err != nil {
			return rel{}, err
		}
	}
	s := "SELECT " + columnList(cols) + " FROM (" + left.sql + ") AS l " + kind + " (" + right.sql + ") AS r"
	if kind != "CROSS JOIN" {
		s += " ON " + on
	}
	return rel{sql: s, width: len(cols)}, nil
}

// antiJoin is GMS's anti join of l and r on cond, the join it makes of `x
// NOT IN (subquery)`: it drops a row of l when cond is TRUE or NULL for a
// row of r (plan.JoinType.IsExcludeNulls; rowexec's existsIter) and keeps
// every row of l when r has none. That is MySQL's NOT IN, which DuckDB's
// NOT IN of a subquery computes as the SQL standard does, NULLs on either
// side included, as a hash join. It is translated when cond is one
// equality of a value of l with a value of r.
func antiJoin(x *exprs, cols []string, l, r rel, cond sql.Expression, width int) (rel, error) {
	eq, ok := cond.(*expression.Equals)
	if !ok {
		return rel{}, errors.New("duckplan: an anti join on other than one equality is not translated")
	}
	outer, inner := eq.Left(), eq.Right()
	if sideOf(outer, width) == sideRight && sideOf(inner, width) == sideLeft {
		outer, inner = inner, outer
	}
	if sideOf(outer, width) != sideLeft || sideOf(inner, width) != sideRight {
		return rel{}, errors.New("duckplan: an anti join whose equality does not compare a value of each side is not translated")
	}
	s, err := x.operands(outer, inner)
	if err != nil {
		return rel{}, err
	}
	sql := "SELECT " + columnList(cols) + " FROM (" + l.sql + ") AS l WHERE " + s[0] +
		" NOT IN (SELECT " + s[1] + " FROM (" + r.sql + ") AS r)"
	return rel{sql: sql, width: len(cols)}, nil
}

// side is which inputs of a join an expression reads.
type side int

const (
	sideNone side = iota
	sideLeft
	sideRight
)

// sideOf is the inputs e reads, the left one's columns being the first
// width.
func sideOf(e sql.Expression, width int) side {
	s := sideNone
	transform.InspectExpr(e, func(e sql.Expression) bool {
		if gf, ok := e.(*expression.GetField); ok {
			if gf.Index() < width {
				s |= sideLeft
			} else {
				s |= sideRight
			}
		}
		return false
	})
	return s
}

// lookupInner is the index read of the inner side of a lookup join,
// reached through nodes that keep its columns in place, which must be a
// leaf: the caller reads it whole.
func (t *translator) lookupInner(n sql.Node) (*plan.IndexedTableAccess, error) {
	for {
		switch x := n.(type) {
		case *plan.TableAlias:
			n = x.Child
		case *plan.Filter:
			n = x.Child
		case *plan.IndexedTableAccess:
			if !t.isLeaf(x) {
				return nil, errors.New("duckplan: the index lookup of a lookup join is not a table read")
			}
			if t.wholeReads == nil {
				t.wholeReads = map[sql.Node]bool{}
			}
			t.wholeReads[x] = true
			return x, nil
		default:
			return nil, fmt.Errorf("duckplan: a lookup join into %s is not translated", nodeName(n))
		}
	}
}

// joinCondition is the ON condition of n over l's and r's columns, nil
// for none. GMS numbered its columns after the outer columns of the joins
// n is the right side of; a condition that reads those is refused.
func joinCondition(n *plan.JoinNode, lookup *plan.IndexedTableAccess, width, outer int) (sql.Expression, error) {
	var conds []sql.Expression
	if n.Filter != nil && !n.Op.IsCross() {
		conds = append(conds, n.Filter)
	}
	if lookup != nil {
		keys, err := lookupKeys(lookup, outer+width)
		if err != nil {
			return nil, err
		}
		conds = append(conds, keys...)
	}
	if len(conds) == 0 {
		return nil, nil
	}
	return withoutOuterColumns(expression.JoinAnd(conds...), outer)
}

// withoutOuterColumns renumbers e's columns from the first column after
// the outer ones.
func withoutOuterColumns(e sql.Expression, outer int) (sql.Expression, error) {
	if outer == 0 {
		return e, nil
	}
	var err error
	e, _, _ = transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		gf, ok := e.(*expression.GetField)
		if !ok {
			return e, transform.SameTree, nil
		}
		if gf.Index() < outer {
			err = errors.New("duckplan: a join condition on the columns of an outer join is not translated")
			return e, transform.SameTree, nil
		}
		return gf.WithIndex(gf.Index() - outer), transform.NewTree, nil
	})
	return e, err
}

// lookupKeys are the equalities a lookup join's index lookup tests: key i
// (over the outer row) equals the index's column i, NULL-safe where the
// lookup matches NULLs (plan.LookupBuilder's matchesNullMask). The inner
// side's columns follow the width columns of the row the keys read.
func lookupKeys(ita *plan.IndexedTableAccess, width int) ([]sql.Expression, error) {
	keys := ita.Expressions()
	nullSafe := ita.NullMask()
	columns := ita.Index().Expressions()
	if len(keys) > len(columns) || len(nullSafe) != len(keys) {
		return nil, errors.New("duckplan: a lookup join's keys do not match its index")
	}
	schema := ita.Schema()
	out := make([]sql.Expression, len(keys))
	for i, key := range keys {
		pos := columnIndex(schema, columns[i])
		if pos < 0 {
			return nil, fmt.Errorf("duckplan: index column %s is not read by the lookup join", columns[i])
		}
		c := schema[pos]
		col := expression.NewGetField(width+pos, c.Type, c.Name, c.Nullable)
		if nullSafe[i] {
			out[i] = expression.NewNullSafeEquals(key, col)
		} else {
			out[i] = expression.NewEquals(key, col)
		}
	}
	return out, nil
}

// columnIndex is the position in s of the column an index expression
// ("table.column") names, or -1.
func columnIndex(s sql.Schema, indexExpr string) int {
	name := indexExpr[strings.LastIndex(indexExpr, ".")+1:]
	name = strings.Trim(name, "`")
	for i, c := range s {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

// setOp is UNION [ALL] of inputs whose columns are of one class each, and
// the ORDER BY, LIMIT and OFFSET of the union.
func (t *translator) setOp(n *plan.SetOp) (rel, error) {
	if n.SetOpType != plan.UnionType {
		return rel{}, errors.New("duckplan: INTERSECT and EXCEPT are not translated")
	}
	if err := sameClasses(n.Left().Schema(), n.Right().Schema()); err != nil {
		return rel{}, err
	}
	op := " UNION ALL "
	if n.Distinct {
		op = " UNION "
		if err := distinctColumns(n.Schema()); err != nil {
			return rel{}, err
		}
	}
	left, err := t.node(n.Left())
	if err != nil {
		return rel{}, err
	}
	right, err := t.node(n.Right())
	if err != nil {
		return rel{}, err
	}
	l, err := unionInput(left, n.Schema())
	if err != nil {
		return rel{}, err
	}
	rs, err := unionInput(right, n.Schema())
	if err != nil {
		return rel{}, err
	}
	r := rel{sql: "SELECT * FROM ((" + l + ")" + op + "(" + rs + ")) AS q", width: left.width}
	if len(n.SortFields) > 0 {
		if r, err = t.sortRel(r, len(n.Schema()), n.SortFields, n.Limit); err != nil {
			return rel{}, err
		}
	} else if n.Limit != nil {
		if r, err = limitRel(r, "LIMIT", n.Limit); err != nil {
			return rel{}, err
		}
	}
	if n.Offset != nil {
		return limitRel(r, "OFFSET", n.Offset)
	}
	return r, nil
}

// sameClasses refuses a union whose inputs' columns MySQL would convert.
func sameClasses(l, r sql.Schema) error {
	for i := range l {
		lc, err := classOf(l[i].Type)
		if err != nil {
			return err
		}
		rc, err := classOf(r[i].Type)
		if err != nil {
			return err
		}
		if lc != rc && lc != classNull && rc != classNull {
			return errors.New("duckplan: a union of columns of different types is not translated")
		}
	}
	return nil
}

// unionInput is one input of a union with its DECIMAL columns cast to the
// union's types. DuckDB types a union's column itself, keeping the larger
// width before the larger scale: the union of a DECIMAL(38,0) product with
// a DECIMAL(12,2) column rounded the column's values to integers
// (differential seed 283), where MySQL keeps both.
func unionInput(r rel, union sql.Schema) (string, error) {
	cols := make([]string, r.width)
	cast := false
	for i := range cols {
		cols[i] = "q." + out(i) + " AS " + out(i)
		d, ok := union[i].Type.(sql.DecimalType)
		if !ok {
			continue
		}
		if d.Precision() > 38 {
			return "", errors.New("duckplan: a union of DECIMAL columns wider than 38 digits is not translated")
		}
		cols[i] = fmt.Sprintf("CAST(q.%s AS DECIMAL(%d,%d)) AS %s", out(i), d.Precision(), d.Scale(), out(i))
		cast = true
	}
	if !cast {
		return visible(r), nil
	}
	return "SELECT " + columnList(cols) + " FROM (" + visible(r) + ") AS q", nil
}
