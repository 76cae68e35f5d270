package sqlbackend

import (
	"errors"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// dataSystemKind is a system table that reads the table's rows rather
// than its metadata: `$audit_log` (every row with its change kind, as
// Java's AuditLogTable) and `$ro` (only the rows on the highest LSM level,
// as Java's ReadOptimizedTable). Both are read like the table itself: at
// the transaction's pin with its own writes, or at the AS OF snapshot in
// that snapshot's schema.
type dataSystemKind struct {
	name string
	opts table.ReadOptions
}

// dataSystemKinds are the row-reading system tables, by lower-case kind.
var dataSystemKinds = map[string]*dataSystemKind{
	"audit_log": {name: "audit_log", opts: table.ReadOptions{WithRowKind: true}},
	"ro":        {name: "ro", opts: table.ReadOptions{ReadOptimized: true}},
}

// dataSystemView is `table$audit_log` or `table$ro` in one statement.
type dataSystemView struct {
	readOnly
	kind   *dataSystemKind
	base   *Table
	schema sql.Schema
}

var _ sql.Table = (*dataSystemView)(nil)

func (d *Database) dataSystemTable(ctx *sql.Context, stored string, kind *dataSystemKind, asOf *snapshot.TimeTravel) (sql.Table, bool, error) {
	t, err := d.backend.OpenTable(ctx, d.name, stored)
	if errors.Is(err, lakeerr.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	p, err := pinFor(ctx, d.name, stored, t, asOf)
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	base, err := newTable(ctx, d, stored, t, p, asOf != nil)
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	v := &dataSystemView{readOnly: readOnlyTable(d.name, stored, kind.name), kind: kind, base: base}
	fields, primaryKeys := base.schema.Fields, base.schema.PrimaryKeys
	if kind.opts.WithRowKind {
		// Java's audit log has no primary key: a key may repeat across
		// its change kinds in the streaming read it is made for.
		fields, primaryKeys = append([]spec.DataField{table.RowKindField}, fields...), nil
	}
	if v.schema, err = sqltypes.Schema(v.Name(), fields, primaryKeys); err != nil {
		return nil, false, mysqlerr.From(err)
	}
	return v, true, nil
}

// Name implements sql.Nameable.
func (v *dataSystemView) Name() string { return v.base.name + "$" + v.kind.name }

// String implements fmt.Stringer; EXPLAIN prints it.
func (v *dataSystemView) String() string {
	return fmt.Sprintf("%s.%s@snapshot=%s", v.base.db.name, v.Name(), v.base.pin)
}

// Schema implements sql.Table.
func (v *dataSystemView) Schema() sql.Schema { return v.schema }

// Collation implements sql.Table.
func (v *dataSystemView) Collation() sql.CollationID { return sqltypes.Collation }

// Partitions implements sql.Table: splits are read in parallel inside the
// row iterator, as for the table itself.
func (v *dataSystemView) Partitions(*sql.Context) (sql.PartitionIter, error) {
	return sql.PartitionsToPartitionIter(wholeTable{}), nil
}

// PartitionRows implements sql.Table.
func (v *dataSystemView) PartitionRows(ctx *sql.Context, _ sql.Partition) (sql.RowIter, error) {
	if v.base.readsNothing() {
		return sql.RowsToRowIter(), nil
	}
	plan, err := v.base.plan(ctx)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	opts := v.kind.opts
	opts.Parallelism = v.base.db.backend.opts.ReadParallelism
	rows, err := v.base.t.ExecutePlan(ctx, plan, opts)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	return newRowIter(rows), nil
}
