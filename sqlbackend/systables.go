package sqlbackend

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/sqlbackend/systables"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// systemTable serves `table$kind`, Paimon's system tables: the kinds that
// read the table's rows (systables.RowKindOf) and branches here, as the
// table itself is read, the metadata kinds through package systables.
func (d *Database) systemTable(ctx *sql.Context, base, kind string, asOf *snapshot.TimeTravel) (sql.Table, bool, error) {
	stored, ok, err := d.resolveTable(ctx, base)
	if err != nil || !ok {
		return nil, false, err
	}
	if read, ok := systables.RowKindOf(kind); ok {
		return d.dataSystemTable(ctx, stored, read, asOf)
	}
	if strings.EqualFold(kind, keyHistoryKind) {
		return d.keyHistoryTable(ctx, stored, asOf)
	}
	if branch, ok := strings.CutPrefix(kind, branchPrefix); ok && branch != "" {
		return d.branchTable(ctx, stored, branch, asOf)
	}
	return systables.Open(ctx, systemTablesBackend{d.backend}, d.name, stored, kind, asOf)
}

// systemTablesBackend is the backend as package systables needs it: its
// snapshots are the statement's pins.
type systemTablesBackend struct{ *Backend }

// Snapshot implements systables.Backend.
func (systemTablesBackend) Snapshot(ctx *sql.Context, db, name string, t *table.Table, asOf *snapshot.TimeTravel) (*spec.Snapshot, error) {
	p, err := pinFor(ctx, db, name, t, asOf)
	if err != nil || p.empty() {
		return nil, err
	}
	return t.Snapshots().Resolve(ctx, p.timeTravel())
}

// dataSystemView is `table$audit_log` or `table$ro` in one statement.
type dataSystemView struct {
	systables.ReadOnly
	kind   systables.RowKind
	base   *Table
	schema sql.Schema
	// changes, when set, reads the changes of these snapshots instead of
	// the rows of the pinned one (incrementalTable).
	changes *snapshot.Between
}

var (
	_ sql.Table             = (*dataSystemView)(nil)
	_ sql.InsertableTable   = (*dataSystemView)(nil)
	_ sql.ReplaceableTable  = (*dataSystemView)(nil)
	_ sql.UpdatableTable    = (*dataSystemView)(nil)
	_ sql.DeletableTable    = (*dataSystemView)(nil)
	_ sql.TruncateableTable = (*dataSystemView)(nil)
)

func (d *Database) dataSystemTable(ctx *sql.Context, stored string, kind systables.RowKind, asOf *snapshot.TimeTravel) (sql.Table, bool, error) {
	base, ok, err := d.pinnedTable(ctx, stored, asOf)
	if err != nil || !ok {
		return nil, ok, err
	}
	v := &dataSystemView{ReadOnly: systables.NewReadOnly(d.name, stored, kind.Name), kind: kind, base: base}
	fields, primaryKeys := base.schema.Fields, base.schema.PrimaryKeys
	if kind.Options.WithRowKind {
		// Java's audit log has no primary key: a key may repeat across
		// its change kinds in the streaming read it is made for.
		fields, primaryKeys = append([]spec.DataField{table.RowKindField}, fields...), nil
	}
	if kind.Options.WithRowTracking {
		if on, err := base.schema.CoreOptions().RowTrackingEnabled(); err != nil || !on {
			return nil, false, mysql.NewSQLError(mysql.ERNotSupportedYet, mysql.SSClientError,
				"%s.%s has no row ids: %s$row_tracking needs 'row-tracking.enabled' = 'true'", d.name, stored, stored)
		}
		fields = append(slices.Clip(fields), table.RowIDField, table.SequenceNumberField)
	}
	if v.schema, err = sqltypes.Schema(v.Name(), fields, primaryKeys); err != nil {
		return nil, false, mysqlerr.From(err)
	}
	return v, true, nil
}

// Name implements sql.Nameable.
func (v *dataSystemView) Name() string { return v.base.name + "$" + v.kind.Name }

// String implements fmt.Stringer; EXPLAIN prints it.
func (v *dataSystemView) String() string {
	if v.changes != nil {
		return fmt.Sprintf("%s.%s@%s", v.base.db.name, v.Name(), changesText(v.changes))
	}
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
	if v.changes == nil && v.base.readsNothing() {
		return sql.RowsToRowIter(), nil
	}
	plan, err := v.plan(ctx)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	opts := v.kind.Options
	opts.Parallelism = v.base.db.backend.opts.ReadParallelism
	rows, err := v.base.t.ExecutePlan(ctx, plan, opts)
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	return newRowIter(rows), nil
}

func (v *dataSystemView) plan(ctx *sql.Context) (*table.Plan, error) {
	if v.changes != nil {
		return v.base.t.PlanBetween(ctx, *v.changes, nil)
	}
	return v.base.plan(ctx)
}
