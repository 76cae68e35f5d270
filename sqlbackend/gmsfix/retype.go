package gmsfix

import (
	"slices"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// planRewriter rewrites a whole plan bottom-up for the type rules: every
// node, through derived tables and set operations (which GMS analyzes in
// isolation, but whose columns' types reach the plan above them) and into
// the plans of subquery expressions (which GMS may unnest into the outer
// plan, IN (SELECT …) becoming a semi join, before analyzing them on their
// own).
//
// It also tracks the columns whose type the rewrite changed, by column id.
// GMS's planbuilder copies a column's type into every GetField that reads
// it, so a rule that changes the type of an expression (COALESCE, a UNION
// column) must retype the references to it above, as typeExactSums does
// for SUM: a Sort over a retyped alias would otherwise compare in the old
// type.
type planRewriter struct {
	types map[sql.ColumnId]sql.Type
	// visit rewrites one node whose children are rewritten already.
	visit func(r *planRewriter, n sql.Node, childrenChanged bool) (sql.Node, transform.TreeIdentity, error)
}

// rewritePlan applies f to every expression of n, bottom-up, retyping the
// references to the columns whose type changed.
func rewritePlan(n sql.Node, f transform.ExprFunc) (sql.Node, transform.TreeIdentity, error) {
	return rewritePlanNodes(n, func(sql.Node) transform.ExprFunc { return f })
}

// rewritePlanNodes is rewritePlan with the function for each node's
// expressions chosen by the node (nil: none).
func rewritePlanNodes(n sql.Node, f func(sql.Node) transform.ExprFunc) (sql.Node, transform.TreeIdentity, error) {
	return newPlanRewriter(func(r *planRewriter, n sql.Node, childrenChanged bool) (sql.Node, transform.TreeIdentity, error) {
		return r.rewriteNode(n, childrenChanged, f(n))
	}).walk(n)
}

func newPlanRewriter(visit func(r *planRewriter, n sql.Node, childrenChanged bool) (sql.Node, transform.TreeIdentity, error)) *planRewriter {
	return &planRewriter{types: map[sql.ColumnId]sql.Type{}, visit: visit}
}

// walk rewrites n and its subtree.
func (r *planRewriter) walk(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	children := n.Children()
	var changed []sql.Node
	for i, child := range children {
		out, same, err := r.walk(child)
		if err != nil {
			return nil, transform.SameTree, err
		}
		if !same {
			if changed == nil {
				changed = append([]sql.Node(nil), children...)
			}
			changed[i] = out
		}
	}
	if changed != nil {
		var err error
		if n, err = n.WithChildren(changed...); err != nil {
			return nil, transform.SameTree, err
		}
	}
	out, same, err := r.visit(r, n, changed != nil)
	if changed != nil {
		same = transform.NewTree
	}
	return out, same, err
}

// rewriteNode applies f to the expressions of one node n, after giving its
// column references the changed types and rewriting the plans of its
// subqueries, and records the columns n defines whose type changed: its
// aliases and aggregates, and when its subtree changed the columns of a
// derived table or a set operation.
func (r *planRewriter) rewriteNode(n sql.Node, childrenChanged bool, f transform.ExprFunc) (sql.Node, transform.TreeIdentity, error) {
	before := definedTypes(n)
	out, same, err := transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch x := e.(type) {
		case *expression.GetField:
			if typ, ok := r.types[x.Id()]; ok && !types.TypesEqual(x.Type(), typ) {
				return retypedField(x, typ), transform.NewTree, nil
			}
		case *plan.Subquery:
			q, same, err := r.walk(x.Query)
			if err != nil || same {
				return e, transform.SameTree, err
			}
			return x.WithQuery(q), transform.NewTree, nil
		}
		if f == nil {
			return e, transform.SameTree, nil
		}
		return f(e)
	})
	if err != nil {
		return nil, transform.SameTree, err
	}
	if same == transform.NewTree {
		if out, err = keepExpressionIds(n, out); err != nil {
			return nil, transform.SameTree, err
		}
	}
	for id, typ := range definedTypes(out) {
		if old, ok := before[id]; !ok || !types.TypesEqual(old, typ) {
			r.types[id] = typ
		}
	}
	if childrenChanged || same == transform.NewTree {
		r.recordTableColumns(out)
	}
	return out, same, nil
}

// keepExpressionIds gives the expressions of out, n rewritten, the column
// ids n's had. GMS v0.20.0's GroupConcat.WithChildren builds a new
// GROUP_CONCAT without its id, so a rewrite of its argument (IFNULL made
// a typed COALESCE) left the projection above reading a column no
// longer there: "unable to find field with index 5 in row of 1 columns".
func keepExpressionIds(n, out sql.Node) (sql.Node, error) {
	before, ok := n.(sql.Expressioner)
	if !ok {
		return out, nil
	}
	after := out.(sql.Expressioner).Expressions()
	olds := before.Expressions()
	if len(olds) != len(after) {
		return out, nil
	}
	var fixed []sql.Expression
	for i, e := range after {
		old, hadID := olds[i].(sql.IdExpression)
		cur, isID := e.(sql.IdExpression)
		if !hadID || !isID || old.Id() == 0 || cur.Id() != 0 {
			continue
		}
		if fixed == nil {
			fixed = slices.Clone(after)
		}
		fixed[i] = cur.WithId(old.Id()).(sql.Expression)
	}
	if fixed == nil {
		return out, nil
	}
	return out.(sql.Expressioner).WithExpressions(fixed...)
}

// recordTableColumns records the columns of a derived table or a set
// operation, whose types are those of its child's output.
func (r *planRewriter) recordTableColumns(n sql.Node) {
	var cols sql.ColSet
	switch n := n.(type) {
	case *plan.SubqueryAlias:
		cols = n.Columns()
	case *plan.SetOp:
		cols = n.Columns()
	default:
		return
	}
	schema := n.Schema()
	i := 0
	cols.ForEach(func(id sql.ColumnId) {
		if i < len(schema) {
			r.types[id] = schema[i].Type
		}
		i++
	})
}

// definedTypes maps the ids of the columns n's expressions define (its
// aliases and aggregates) to their types.
func definedTypes(n sql.Node) map[sql.ColumnId]sql.Type {
	e, ok := n.(sql.Expressioner)
	if !ok {
		return nil
	}
	out := map[sql.ColumnId]sql.Type{}
	for _, x := range e.Expressions() {
		if _, ok := x.(*expression.GetField); ok {
			continue
		}
		if id, ok := x.(sql.IdExpression); ok && id.Id() != 0 {
			out[id.Id()] = x.Type()
		}
	}
	return out
}

// retypedField is gf reading a column of type typ.
func retypedField(gf *expression.GetField, typ sql.Type) sql.Expression {
	retyped := expression.NewGetFieldWithTable(gf.Index(), int(gf.TableId()), typ, gf.Database(), gf.Table(), gf.Name(), gf.IsNullable())
	return retyped.WithId(gf.Id()).(sql.Expression)
}
