package sqlbackend

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/table"
)

// Index ids. PRIMARY is the primary key, declared so that SHOW INDEX, JDBC
// getPrimaryKeys and lookup joins see it; pushdown is the pseudo index a
// pushed filter travels in, never declared.
const (
	primaryIndexID  = "PRIMARY"
	pushdownIndexID = "lakesql_pushdown"
)

// GetIndexes implements sql.IndexAddressable.
func (t *Table) GetIndexes(ctx *sql.Context) ([]sql.Index, error) {
	if len(t.schema.PrimaryKeys) == 0 || !rewritesOn(ctx) {
		return nil, nil
	}
	return []sql.Index{t.index(primaryIndexID, t.schema.PrimaryKeys)}, nil
}

// PreciseMatch implements sql.IndexAddressable. It is true: the scan
// returns only rows for which the pushed storage predicate is TRUE
// (table.ReadOptions.Filter), and a conjunct planner.PushFilters pushed
// exactly has that predicate's value on every row, so GMS drops such
// conjuncts from the filter above the scan and keeps the residual one
// LookupForExpressions returns. GMS consults it only for the lookups of
// LookupForExpressions (analyzer/costed_index_scan.go): lookup joins on
// the PRIMARY index rebuild their own exact predicate (rangesPredicate).
func (t *Table) PreciseMatch() bool { return true }

// SkipIndexCosting implements sql.IndexSearchable: filters go through
// LookupForExpressions or pushFiltersIntoScans only, which see every
// conjunct.
func (t *Table) SkipIndexCosting() bool { return true }

// LookupForExpressions implements sql.IndexSearchable: the conjuncts of the
// filter above the scan become the storage predicate that prunes files and
// filters rows, and the conjuncts not pushed exactly are the residual
// filter GMS keeps above the scan (nil when there are none: PreciseMatch).
// A table marked by deferFilterPushdown declines, to be pushed by
// pushFiltersIntoScans once the joins are planned; with
// lakesql_planner_rewrites OFF every table declines. Only single-table
// UPDATE and DELETE get here, whose filter reads no other table.
func (t *Table) LookupForExpressions(ctx *sql.Context, exprs ...sql.Expression) (sql.IndexLookup, *sql.FuncDepSet, sql.Expression, bool, error) {
	if t.pushAfterJoins || !rewritesOn(ctx) {
		return sql.IndexLookup{}, nil, nil, false, nil
	}
	lookup, ok := t.pushdownLookup(ctx, exprs, nil)
	if !ok {
		return lookup, nil, nil, false, nil
	}
	return lookup, nil, lookup.Ranges.(*pushedLookup).residual(), true, nil
}

// pushdownLookup is the lookup that pushes the conjuncts exprs of a filter
// over the table into the storage predicate that prunes files and filters
// rows, or false when none of them can be pushed. others are conjuncts of
// the same filter that are not the table's alone; they stay residual.
func (t *Table) pushdownLookup(ctx *sql.Context, exprs, others []sql.Expression) (sql.IndexLookup, bool) {
	push := planner.PushFilters(t.schema.Fields, exprs)
	if push.Filter == nil {
		return sql.IndexLookup{}, false
	}
	push.Residual = append(push.Residual, others...)
	lookup := &pushedLookup{pushdown: push}
	lookup.plan, lookup.explain = t.explainLookup(ctx, push.Filter)
	index := t.index(pushdownIndexID, predicateColumns(t, push.Filter))
	return sql.IndexLookup{Index: index, Ranges: lookup}, true
}

// IndexedAccess implements sql.IndexAddressable: the table narrowed to a
// pushed filter. Ranges on the primary key are left to LookupPartitions:
// for a lookup join GMS calls IndexedAccess once, while planning, with the
// lookup of a zero key (plan.NewIndexedAccessForTableNode), and passes the
// lookup of each outer row to LookupPartitions only.
func (t *Table) IndexedAccess(_ *sql.Context, lookup sql.IndexLookup) sql.IndexedTable {
	c := *t
	if r, ok := lookup.Ranges.(*pushedLookup); ok {
		c.lookup = r
	} else if lookup.Index != nil && lookup.Index.ID() == primaryIndexID {
		c.keys = &keyLookups{}
	}
	return &c
}

// explainLookup plans the lookup once, to say in EXPLAIN what it keeps,
// and the rows of the files kept: the most the scan reads, before merging
// and the residual filter, as MySQL's EXPLAIN "rows" estimates the rows
// examined. The scan reads that same plan. A planning error is shown here and
// raised again when the scan plans for itself.
func (t *Table) explainLookup(ctx *sql.Context, filter predicate.Predicate) (*table.Plan, string) {
	if t.readsNothing() {
		return nil, "snapshot=none (empty table)"
	}
	c := *t
	c.lookup = &pushedLookup{pushdown: planner.Pushdown{Filter: filter}}
	plan, err := c.plan(ctx)
	if err != nil {
		return nil, fmt.Sprintf("snapshot=%s plan error: %v", t.pin, err)
	}
	return plan, fmt.Sprintf("%s rows=%d", summarize(plan.Scan.Explain), fileRows(plan))
}

func predicateColumns(t *Table, p predicate.Predicate) []string {
	var names []string
	for _, i := range predicate.Columns(p) {
		names = append(names, t.schema.Fields[i].Name)
	}
	return names
}

// pushedLookup is the RangeCollection a pushed filter travels in from
// pushdownLookup to IndexedAccess. Its String() is what EXPLAIN
// prints after "filters:": the storage predicate, what its plan keeps, and
// the residual conjuncts, which the Filter node above the scan evaluates
// (everything else the predicate decides exactly).
type pushedLookup struct {
	pushdown planner.Pushdown
	explain  string
	// plan is the plan of the lookup at the table's pin, nil when it was
	// not planned (no snapshot, a planning error, a lookup join's ranges).
	plan *table.Plan
}

var _ sql.RangeCollection = (*pushedLookup)(nil)

func (l *pushedLookup) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pushed[%s]", l.pushdown.Filter)
	if l.explain != "" {
		b.WriteString(" " + l.explain)
	}
	if len(l.pushdown.Residual) > 0 {
		parts := make([]string, len(l.pushdown.Residual))
		for i, e := range l.pushdown.Residual {
			parts[i] = e.String()
		}
		fmt.Fprintf(&b, " residual[%s]", strings.Join(parts, " AND "))
	}
	return b.String()
}

// residual is the AND of the conjuncts the engine keeps evaluating above
// the scan, nil when the scan decides all of them.
func (l *pushedLookup) residual() sql.Expression {
	return expression.JoinAnd(l.pushdown.Residual...)
}

func (l *pushedLookup) DebugString() string { return l.String() }

func (l *pushedLookup) Equals(other sql.RangeCollection) (bool, error) {
	o, ok := other.(*pushedLookup)
	return ok && o.String() == l.String(), nil
}

func (l *pushedLookup) Len() int { return 1 }

func (l *pushedLookup) ToRanges() []sql.Range { return nil }
