package sqlbackend

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// ruleDetectDuplicates is the analyzer rule id of markReadModifyWrite,
// above GMS's own rule ids.
const ruleDetectDuplicates analyzer.RuleId = 10_001

// markReadModifyWrite flags the target of an INSERT whose rows derive from
// rows it reads:
//   - INSERT … ON DUPLICATE KEY UPDATE. GMS runs the UPDATE part only when
//     the table reports the duplicate key (go-mysql-server.md §4.2), and
//     Paimon itself never does: a plain INSERT of an existing key is an
//     upsert. Looking keys up costs a read per row, so only this statement
//     pays for it.
//   - INSERT … SELECT from the same table.
//   - Any INSERT into a first-row table, whose merge keeps the existing
//     row of a key: an existing key fails the row with error 1062 as in
//     MySQL (INSERT IGNORE skips it) rather than vanish without a trace.
//
// Both make the commit check their keys (keysChecked). It runs in GMS's
// AlwaysBeforeDefault batch, the only one INSERT … VALUES goes through
// besides validation (sql/analyzer/node_batches.go).
func markReadModifyWrite(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		ins, ok := n.(*plan.InsertInto)
		if !ok {
			return n, transform.SameTree, nil
		}
		target := insertTarget(ins.Destination)
		duplicates := len(ins.OnDupExprs) > 0 || ins.IsReplace || (target != nil && target.keepsFirstRow())
		self := target != nil && readsTable(ins.Source, target)
		if !duplicates && !self {
			return n, transform.SameTree, nil
		}
		dest, _, err := transform.Node(ins.Destination, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
			return flagInsertTarget(n, duplicates, self)
		})
		if err != nil {
			return nil, transform.SameTree, err
		}
		marked, err := ins.WithChildren(dest)
		return marked, transform.NewTree, err
	})
}

// insertTarget is the lakesql table under an insert's destination (which
// GMS wraps in InsertDestination and ProcessTable), or nil.
func insertTarget(dest sql.Node) *Table {
	var found *Table
	transform.Inspect(dest, func(n sql.Node) bool {
		if rt, ok := n.(*plan.ResolvedTable); ok {
			if t, ok := rt.Table.(*Table); ok {
				found = t
			}
		}
		return found == nil
	})
	return found
}

// readsTable reports whether the plan reads table t, however the scan is
// wrapped (an index lookup, a subquery, a join).
func readsTable(source sql.Node, t *Table) bool {
	reads := false
	transform.Inspect(source, func(n sql.Node) bool {
		if tn, ok := n.(sql.TableNode); ok {
			if other, ok := tn.UnderlyingTable().(*Table); ok && other.t.Dir() == t.t.Dir() {
				reads = true
			}
		}
		return !reads
	})
	return reads
}

// flagInsertTarget replaces the lakesql table of a destination by one
// flagged for its duplicate checks and reads.
func flagInsertTarget(n sql.Node, duplicates, self bool) (sql.Node, transform.TreeIdentity, error) {
	rt, ok := n.(*plan.ResolvedTable)
	if !ok {
		return n, transform.SameTree, nil
	}
	t, ok := rt.Table.(*Table)
	if !ok {
		return n, transform.SameTree, nil
	}
	flagged := *t
	flagged.readsItself = self
	if duplicates {
		flagged.duplicates = &statementKeys{written: map[string]sql.Row{}}
		flagged.keys = &keyLookups{}
	}
	replaced, err := rt.WithTable(&flagged)
	return replaced, transform.NewTree, err
}

// statementKeys are the primary keys one INSERT … ON DUPLICATE KEY UPDATE
// or REPLACE wrote, by key (nil for a deleted key): a key it repeats finds
// its own earlier row, as MySQL applies the statement's rows in order.
type statementKeys struct {
	written map[string]sql.Row
	// stored are the storage values of the rows in written (keepstored.go).
	stored map[string][]any
}

// rememberStored records the storage values the statement wrote for key.
func (k *statementKeys) rememberStored(key string, values []any, kind spec.RowKind) {
	if k.stored == nil {
		k.stored = map[string][]any{}
	}
	if kind == spec.RowKindDelete {
		delete(k.stored, key)
		return
	}
	k.stored[key] = values
}

// duplicateOf returns the live row with the primary key of row, if any:
// one written earlier by this statement, else one in the pinned snapshot
// and the transaction's staged writes, looked up through the statement's
// KeyLookup (each split read once, however many rows the statement has).
// Keys of tables whose reads skip level 0 (first-row, deletion vectors)
// are looked up in every level, merged: a first-row key another writer's
// level-0 file holds is taken, as its compaction would drop this row, and
// ON DUPLICATE KEY UPDATE starts from that writer's row.
func (e *editor) duplicateOf(ctx *sql.Context, row sql.Row) (sql.Row, bool, error) {
	key := e.keyString(row)
	if existing, ok := e.keys.written[key]; ok {
		return existing, existing != nil, nil
	}
	if e.table.readsNothing() {
		return nil, false, nil
	}
	lookup, err := e.table.keyLookup(ctx)
	if errors.Is(err, table.ErrKeyLookupUnsupported) {
		return e.scanForDuplicate(ctx, row)
	}
	if err != nil {
		return nil, false, err
	}
	storageKey, err := e.storageKey(row)
	if err != nil {
		return nil, false, err
	}
	found, err := lookup.Lookup(ctx, storageKey)
	if err != nil || len(found) == 0 {
		return nil, false, err
	}
	existing, err := toSQLRow(e.table.projectedTypes(), found[0])
	return existing, err == nil, err
}

// storageKey is the primary key of a GMS row as storage values.
func (e *editor) storageKey(row sql.Row) ([]any, error) {
	key := make([]any, len(e.table.schema.PrimaryKeys))
	for j, k := range e.table.schema.PrimaryKeys {
		i := e.table.schema.FieldIndex(k)
		v, err := sqltypes.FromSQL(e.table.schema.Fields[i].Type, row[i])
		if err != nil {
			return nil, err
		}
		key[j] = v
	}
	return key, nil
}

// scanForDuplicate reads the row with the primary key of row with a
// filtered scan, for tables a KeyLookup cannot serve.
func (e *editor) scanForDuplicate(ctx *sql.Context, row sql.Row) (sql.Row, bool, error) {
	filter, err := e.keyFilter(row)
	if err != nil || filter == nil {
		return nil, false, err
	}
	c := *e.table
	c.lookup = &pushedLookup{}
	c.lookup.pushdown.Filter = filter
	c.projection = nil
	c.allLevels = c.hidesLevel0()
	p, err := c.plan(ctx)
	if err != nil {
		return nil, false, err
	}
	rows, err := c.t.ExecutePlan(ctx, p, table.ReadOptions{Limit: 1})
	if err != nil {
		return nil, false, err
	}
	it := newRowIter(rows)
	defer it.Close(ctx)
	existing, err := it.Next(ctx)
	if errors.Is(err, io.EOF) {
		return nil, false, nil
	}
	return existing, err == nil, err
}

// keyFilter selects the row with the primary key of row.
func (e *editor) keyFilter(row sql.Row) (predicate.Predicate, error) {
	var conj []predicate.Predicate
	for _, k := range e.table.schema.PrimaryKeys {
		i := e.table.schema.FieldIndex(k)
		col, _ := e.table.column(k)
		leaf, err := predicate.Leaf(col, predicate.OpEq, row[i])
		if err != nil {
			return nil, err
		}
		conj = append(conj, leaf)
	}
	return predicate.And(conj...), nil
}

// keyString renders the primary key of row the way MySQL names it in a
// duplicate-entry error: the values joined by '-'.
func (e *editor) keyString(row sql.Row) string {
	parts := make([]string, len(e.table.schema.PrimaryKeys))
	for j, k := range e.table.schema.PrimaryKeys {
		parts[j] = fmt.Sprint(row[e.table.schema.FieldIndex(k)])
	}
	return strings.Join(parts, "-")
}

// remember records the state of a key after this statement wrote it; nil
// is a deleted key.
func (e *editor) remember(row sql.Row, state sql.Row) {
	if e.keys == nil {
		return
	}
	e.keys.written[e.keyString(row)] = state
}
