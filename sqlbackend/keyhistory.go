package sqlbackend

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/sqlbackend/systables"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// keyHistoryKind names `t$key_history`.
const keyHistoryKind = "key_history"

// keyHistoryFields lead each row of `t$key_history`: the snapshot that
// committed the change, as `t$snapshots` shows it, and the change's row
// kind. The table's columns follow.
var keyHistoryFields = []spec.DataField{
	{Name: "snapshot_id", Type: spec.DataType{Root: spec.BigInt}},
	{Name: "commit_user", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}},
	{Name: "commit_identifier", Type: spec.DataType{Root: spec.BigInt}},
	{Name: "commit_kind", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength}},
	{Name: "commit_time", Type: spec.DataType{Root: spec.Timestamp, Precision: 3}},
	table.RowKindField,
}

// keyHistoryView is `t$key_history`: every change the retained snapshots
// of a primary-key table committed to the rows its WHERE selects, with
// the commit behind each (table.History). `WHERE pay_id = 42` is pushed
// into the read, which opens only the files whose partition and key range
// can hold the key; conjuncts on the commit columns are evaluated above
// it.
type keyHistoryView struct {
	systables.ReadOnly
	base   *Table
	schema sql.Schema
	types  []spec.DataType
	// lookup is the pushed filter, nil to read every change.
	lookup *pushedLookup
}

var (
	_ sql.IndexSearchableTable = (*keyHistoryView)(nil)
	_ sql.IndexedTable         = (*keyHistoryView)(nil)
)

func (d *Database) keyHistoryTable(ctx *sql.Context, stored string, asOf *snapshot.TimeTravel) (sql.Table, bool, error) {
	if asOf != nil {
		return nil, false, mysql.NewSQLError(mysql.ERNotSupportedYet, mysql.SSClientError,
			"%s.%s$%s lists every retained snapshot's changes and has no AS OF", d.name, stored, keyHistoryKind)
	}
	base, ok, err := d.pinnedTable(ctx, stored, nil)
	if err != nil || !ok {
		return nil, ok, err
	}
	if err := checkKeyHistory(d.name, stored, base.schema); err != nil {
		return nil, false, err
	}
	v := &keyHistoryView{ReadOnly: systables.NewReadOnly(d.name, stored, keyHistoryKind), base: base}
	fields := append(slices.Clone(keyHistoryFields), base.schema.Fields...)
	for _, f := range fields {
		v.types = append(v.types, f.Type)
	}
	if v.schema, err = sqltypes.Schema(v.Name(), fields, nil); err != nil {
		return nil, false, mysqlerr.From(err)
	}
	return v, true, nil
}

// checkKeyHistory refuses tables without a primary key, whose rows have
// no identity to follow, and tables with a column named like a commit
// column, which the history could not tell apart.
func checkKeyHistory(db, name string, s *spec.TableSchema) error {
	if len(s.PrimaryKeys) == 0 {
		return mysql.NewSQLError(mysql.ERNotSupportedYet, mysql.SSClientError,
			"%s.%s has no primary key, so %s$%s has no key to follow; read its changes with `%s$audit_log` FOR VERSION BETWEEN",
			db, name, name, keyHistoryKind, name)
	}
	for _, f := range keyHistoryFields {
		if s.FieldIndex(f.Name) >= 0 {
			return mysql.NewSQLError(mysql.ERNotSupportedYet, mysql.SSClientError,
				"%s.%s has a column named %s, which %s$%s names a commit column", db, name, f.Name, name, keyHistoryKind)
		}
	}
	return nil
}

// Name implements sql.Nameable.
func (v *keyHistoryView) Name() string { return v.base.name + "$" + keyHistoryKind }

// String implements fmt.Stringer.
func (v *keyHistoryView) String() string {
	if v.lookup == nil {
		return fmt.Sprintf("%s.%s", v.base.db.name, v.Name())
	}
	return fmt.Sprintf("%s.%s %s", v.base.db.name, v.Name(), v.lookup)
}

// Schema implements sql.Table.
func (v *keyHistoryView) Schema() sql.Schema { return v.schema }

// Collation implements sql.Table.
func (v *keyHistoryView) Collation() sql.CollationID { return sqltypes.Collation }

// Partitions implements sql.Table.
func (v *keyHistoryView) Partitions(*sql.Context) (sql.PartitionIter, error) {
	return sql.PartitionsToPartitionIter(wholeTable{}), nil
}

// LookupPartitions implements sql.IndexedTable.
func (v *keyHistoryView) LookupPartitions(ctx *sql.Context, _ sql.IndexLookup) (sql.PartitionIter, error) {
	return v.Partitions(ctx)
}

// PartitionRows implements sql.Table.
func (v *keyHistoryView) PartitionRows(ctx *sql.Context, _ sql.Partition) (sql.RowIter, error) {
	var filter predicate.Predicate
	if v.lookup != nil {
		filter = v.lookup.pushdown.Filter
	}
	h, err := v.base.t.History(ctx, filter)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	return &historyRows{history: h, types: v.types, location: sqltypes.SessionLocation(ctx)}, nil
}

// GetIndexes implements sql.IndexAddressable: none is declared; filters
// arrive through LookupForExpressions.
func (v *keyHistoryView) GetIndexes(*sql.Context) ([]sql.Index, error) { return nil, nil }

// PreciseMatch implements sql.IndexAddressable: the read returns only the
// changes for which the pushed predicate is TRUE.
func (v *keyHistoryView) PreciseMatch() bool { return true }

// SkipIndexCosting implements sql.IndexSearchable.
func (v *keyHistoryView) SkipIndexCosting() bool { return true }

// LookupForExpressions implements sql.IndexSearchable: conjuncts over the
// table's columns become the predicate the history is read with; those
// over the commit columns, and those not translated exactly, stay above
// the read.
func (v *keyHistoryView) LookupForExpressions(_ *sql.Context, exprs ...sql.Expression) (sql.IndexLookup, *sql.FuncDepSet, sql.Expression, bool, error) {
	var own, others []sql.Expression
	for _, e := range expression.SplitConjunction(expression.JoinAnd(exprs...)) {
		if readsCommitColumn(e) {
			others = append(others, e)
		} else {
			own = append(own, e)
		}
	}
	push := planner.PushFilters(v.base.schema.Fields, own)
	if push.Filter == nil {
		return sql.IndexLookup{}, nil, nil, false, nil
	}
	push.Residual = append(push.Residual, others...)
	lookup := &pushedLookup{pushdown: push}
	index := v.base.index(pushdownIndexID, predicateColumns(v.base, push.Filter))
	index.table = v.Name()
	return sql.IndexLookup{Index: index, Ranges: lookup}, nil, lookup.residual(), true, nil
}

// readsCommitColumn reports whether e reads one of keyHistoryFields.
func readsCommitColumn(e sql.Expression) bool {
	return transform.InspectExpr(e, func(e sql.Expression) bool {
		gf, ok := e.(*expression.GetField)
		return ok && slices.ContainsFunc(keyHistoryFields, func(f spec.DataField) bool {
			return strings.EqualFold(f.Name, gf.Name())
		})
	})
}

// IndexedAccess implements sql.IndexAddressable: the history narrowed to
// the pushed filter.
func (v *keyHistoryView) IndexedAccess(_ *sql.Context, lookup sql.IndexLookup) sql.IndexedTable {
	c := *v
	c.lookup, _ = lookup.Ranges.(*pushedLookup)
	return &c
}

// historyRows turns a table.History into SQL rows.
type historyRows struct {
	history  *table.History
	types    []spec.DataType
	location *time.Location
}

// Next implements sql.RowIter.
func (it *historyRows) Next(*sql.Context) (sql.Row, error) {
	c, err := it.history.Next()
	if err == io.EOF {
		return nil, io.EOF
	}
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	s := c.Snapshot
	commitTime := spec.TimestampFromTime(spec.LocalWallClockAsUTC(time.UnixMilli(s.TimeMillis).In(it.location)))
	values := append([]any{s.ID, s.CommitUser, s.CommitIdentifier, string(s.CommitKind), commitTime, c.Kind.String()}, c.Row...)
	row, err := toSQLRow(it.types, values)
	return row, mysqlerr.From(err)
}

// Close implements sql.RowIter.
func (it *historyRows) Close(*sql.Context) error { return it.history.Close() }
