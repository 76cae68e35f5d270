package sqlbackend

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/storage/spec"
)

// ruleRecheckLookupKeys is the analyzer rule id of recheckConvertedLookupKeys.
const ruleRecheckLookupKeys analyzer.RuleId = 10_008

// recheckConvertedLookupKeys keeps lookups into a primary key exact when a
// key has another type than its column. GMS v0.20.0 converts each key to
// the column type (plan.LookupBuilder.GetLookup): 5.50 into an INT key is
// 6, a DATETIME into a DATE loses its time, and a key out of the column's
// range becomes the nearest or the zero value. A lookup join drops the
// join conditions its keys matched (analyzer/indexed_joins.go
// addLookupJoins), so it took the rows of the converted values as matches:
// the rule puts the comparison of each such key with its column back into
// the join's condition (a lookup from a subquery keeps its filter anyway).
// A key that is not a string, looked up in a string column, compares as a
// number or a date (7 = '0007' = '7.0'), which the converted key '7'
// cannot find: such a lookup reads the whole table (MySQL cannot use the
// index for that comparison either).
func recheckConvertedLookupKeys(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	n, sameLookups, err := transform.Node(n, readAllForUnfindableKeys)
	if err != nil {
		return nil, transform.SameTree, err
	}
	n, sameJoins, err := transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		j, ok := n.(*plan.JoinNode)
		if !ok || !j.Op.IsLookup() {
			return n, transform.SameTree, nil
		}
		return recheckLookupJoin(j)
	})
	return n, sameLookups && sameJoins, err
}

// readAllForUnfindableKeys makes a lookup whose key the index cannot find
// read every row (the caller's condition selects the matches): a key
// that is not a string in a string column, and any key of a CHAR column,
// whose stored values may keep the padding SQL strips.
func readAllForUnfindableKeys(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	ita, ok := n.(*plan.IndexedTableAccess)
	if !ok || ita.IsStatic() {
		return n, transform.SameTree, nil
	}
	t, ok := ita.Table.(*Table)
	ix, isOurs := ita.Index().(*tableIndex)
	if !ok || !isOurs {
		return n, transform.SameTree, nil
	}
	for i, key := range ita.Expressions() {
		if types.IsTextOnly(ix.types[i]) && !types.IsTextOnly(key.Type()) || t.storedAsChar(ix.columns[i]) {
			whole := *t
			whole.lookupReadsAll = true
			out, err := ita.WithTable(&whole)
			return out, transform.NewTree, err
		}
	}
	return n, transform.SameTree, nil
}

func recheckLookupJoin(j *plan.JoinNode) (sql.Node, transform.TreeIdentity, error) {
	access, ok := findLookup(j.Right())
	if !ok {
		return j, transform.SameTree, nil
	}
	checks, err := access.rechecks()
	if err != nil || len(checks) == 0 {
		return j, transform.SameTree, err
	}
	out := *j
	if out.Filter != nil {
		checks = append([]sql.Expression{out.Filter}, checks...)
	}
	out.Filter = expression.JoinAnd(checks...)
	return &out, transform.NewTree, nil
}

// lookup is the lakesql table a lookup join looks its keys up in.
type lookup struct {
	ita   *plan.IndexedTableAccess
	table *Table
	index *tableIndex
	// name is what the join calls the table: its alias, if it has one.
	name string
	// projected are the ids of the columns a projection between the join
	// and the table lets through; nil when there is no projection.
	projected map[sql.ColumnId]bool
}

// findLookup finds the table under the right side of a lookup join,
// through the nodes GMS puts between them (memo.ExecBuilder.buildIndexScan).
func findLookup(n sql.Node) (lookup, bool) {
	var l lookup
	for {
		switch x := n.(type) {
		case *plan.IndexedTableAccess:
			t, ok := x.Table.(*Table)
			ix, isOurs := x.Index().(*tableIndex)
			if !ok || !isOurs || x.IsStatic() {
				return lookup{}, false
			}
			l.ita, l.table, l.index = x, t, ix
			if l.name == "" {
				l.name = t.name
			}
			return l, true
		case *plan.TableAlias:
			l.name = x.Name()
			n = x.Child
		case *plan.Project:
			l.projected = projectedIDs(x)
			n = x.Child
		case *plan.Filter, *plan.Distinct, *plan.OrderedDistinct, *plan.Limit, *plan.Sort:
			n = x.Children()[0]
		default:
			return lookup{}, false
		}
	}
}

func projectedIDs(p *plan.Project) map[sql.ColumnId]bool {
	ids := map[sql.ColumnId]bool{}
	for _, e := range p.Projections {
		if id, ok := e.(sql.IdExpression); ok {
			ids[id.Id()] = true
		}
	}
	return ids
}

// rechecks are the comparisons with their columns of the keys whose type
// is not their column's, and of every key of a lookup that reads every
// row.
func (l lookup) rechecks() ([]sql.Expression, error) {
	var checks []sql.Expression
	nullSafe := l.ita.NullMask()
	for i, key := range l.ita.Expressions() {
		if !l.table.lookupReadsAll && types.TypesEqual(key.Type(), l.index.types[i]) {
			continue
		}
		col, err := l.column(l.index.columns[i])
		if err != nil {
			return nil, err
		}
		checks = append(checks, keyEquality(key, col, i < len(nullSafe) && nullSafe[i]))
	}
	return checks, nil
}

// column is the join's reference to a column of the looked-up table, with
// the column id GMS gives it: the table's first id plus the column's
// position in the whole schema (analyzer/fix_exec_indexes.go
// columnIdsForNode).
func (l lookup) column(name string) (*expression.GetField, error) {
	schema := l.table.PrimaryKeySchema().Schema
	pos := schema.IndexOfColName(name)
	first, ok := l.ita.Columns().Next(1)
	if pos < 0 || !ok {
		return nil, fmt.Errorf("lookup join into %s: no column %s", l.table.name, name)
	}
	id := first + sql.ColumnId(pos)
	if l.projected != nil && !l.projected[id] {
		return nil, unsupportedf("lookup join into %s on %s, converted to its type, with the column projected away", l.table.name, name)
	}
	c := schema[pos]
	gf := expression.NewGetFieldWithTable(pos, int(l.ita.Id()), c.Type, l.table.db.name, l.name, c.Name, c.Nullable)
	return gf.WithId(id).(*expression.GetField), nil
}

// keyEquality compares a key with its column. GMS compares two DECIMALs
// in the type of the left one, rounding the right one to its scale, so the
// operand with more fraction digits goes left.
func keyEquality(key, col sql.Expression, nullSafe bool) sql.Expression {
	left, right := key, col
	if scale(col.Type()) > scale(key.Type()) {
		left, right = col, key
	}
	if nullSafe {
		return expression.NewNullSafeEquals(left, right)
	}
	return expression.NewEquals(left, right)
}

func scale(t sql.Type) uint8 {
	if d, ok := t.(sql.DecimalType); ok {
		return d.Scale()
	}
	return 0
}

// storedAsChar reports whether the table's column name is a CHAR in
// storage.
func (t *Table) storedAsChar(name string) bool {
	i := t.schema.FieldIndex(name)
	return i >= 0 && t.schema.Fields[i].Type.Root == spec.Char
}
