package sqlbackend

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/planner/ddl"
	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// Table is a Paimon table as GMS sees it in one statement: pinned to one
// snapshot, with an optional projection and pushed-down filter.
type Table struct {
	db   *Database
	name string
	t    *table.Table
	pin  pin
	// timeTravel marks an AS OF read: it reads in the snapshot's own
	// schema, where a pinned latest read uses the latest schema.
	timeTravel bool
	// branch names the Paimon branch read; "" is the main branch.
	branch string
	schema *spec.TableSchema
	// columns is schema as GMS columns, built once: GMS asks for the
	// schema many times while it analyses a statement.
	columns sql.Schema
	// projection names the columns GMS asked for; nil is all of them.
	projection []string
	// lookup is the pushed filter; nil is none.
	lookup *pushedLookup
	// pushAfterJoins makes the table take its filter after join planning
	// (see deferFilterPushdown).
	pushAfterJoins bool
	// lookupReadsAll makes a lookup join read every row for every key,
	// for keys the index cannot find (see recheckConvertedLookupKeys).
	lookupReadsAll bool
	// keys serves a lookup join's lookups of whole primary keys; set
	// when GMS makes the table the inner side of a lookup join on its
	// PRIMARY index (IndexedAccess).
	keys *keyLookups
	// rescans keeps the rows of scans the statement repeats (see
	// rescan.go); nil for tables not resolved by a statement.
	rescans *rescanSet
	// plans keeps the statement's last plan of the pinned snapshot (see
	// planMemo); nil for tables not resolved by a statement.
	plans *planMemo
	// rowEstimate is the rows the join planner is told the table has
	// under its filter (see estimateFilteredRows); nil is the table's
	// rows.
	rowEstimate *uint64
	// staged are the transaction's own uncommitted changes to the table,
	// as of the statement's start, read on top of the pinned snapshot.
	staged table.Staged
	// duplicates makes the statement's inserts report existing keys, for
	// INSERT … ON DUPLICATE KEY UPDATE and REPLACE (see
	// markReadModifyWrite); nil for other statements.
	duplicates *statementKeys
	// readsItself marks the target of an INSERT … SELECT whose SELECT
	// reads the same table: its rows derive from rows it read.
	readsItself bool
	// allLevels plans every level, level 0 included, merged (see
	// table.PlanPinnedAllLevels), where batch reads skip level 0: the
	// reads of UPDATE and DELETE (readAllLevelsToWrite) and the duplicate
	// lookups of INSERT.
	allLevels bool
}

var (
	_ sql.Table                 = (*Table)(nil)
	_ sql.ProjectedTable        = (*Table)(nil)
	_ sql.PrimaryKeyTable       = (*Table)(nil)
	_ sql.CommentedTable        = (*Table)(nil)
	_ sql.TemporaryTable        = (*Table)(nil)
	_ sql.IndexSearchableTable  = (*Table)(nil)
	_ sql.IndexedTable          = (*Table)(nil)
	_ sql.StatisticsTable       = (*Table)(nil)
	_ sql.IndexAddressableTable = (*Table)(nil)
)

func newTable(ctx *sql.Context, db *Database, name string, t *table.Table, p pin, timeTravel bool) (*Table, error) {
	tbl := &Table{db: db, name: name, t: t, pin: p, timeTravel: timeTravel, rescans: &rescanSet{}, plans: &planMemo{}}
	var err error
	if timeTravel && !p.empty() {
		tbl.schema, err = snapshotSchema(ctx, t, p)
	} else {
		tbl.schema, err = t.LatestSchema(ctx)
	}
	if err != nil {
		return nil, err
	}
	if tbl.columns, err = sqltypes.Schema(name, tbl.schema.Fields, tbl.schema.PrimaryKeys); err != nil {
		return nil, err
	}
	if !timeTravel {
		if tbl.staged, err = stagedEntries(ctx, db.name, name); err != nil {
			return nil, err
		}
	}
	return tbl, nil
}

// snapshotSchema is the schema a time-travel read of the pinned snapshot
// uses: the one the snapshot was written with, as Java's tryTimeTravel.
func snapshotSchema(ctx *sql.Context, t *table.Table, p pin) (*spec.TableSchema, error) {
	return t.Schemas().Schema(ctx, p.schemaID)
}

// Name implements sql.Nameable.
func (t *Table) Name() string { return t.name }

// String implements fmt.Stringer; EXPLAIN prints it.
func (t *Table) String() string {
	return fmt.Sprintf("%s.%s@snapshot=%s", t.db.name, t.name, t.pin)
}

// Schema implements sql.Table: the projected columns, in order.
func (t *Table) Schema() sql.Schema {
	full := t.columns
	if t.projection == nil {
		return full
	}
	out := make(sql.Schema, 0, len(t.projection))
	for _, name := range t.projection {
		if i := full.IndexOfColName(name); i >= 0 {
			out = append(out, full[i])
		}
	}
	return out
}

// Collation implements sql.Table.
func (t *Table) Collation() sql.CollationID { return sqltypes.Collation }

// Comment implements sql.CommentedTable: the table comment with the
// Paimon options SHOW CREATE TABLE shows in it, so that
// information_schema.TABLES agrees with SHOW CREATE TABLE.
func (t *Table) Comment() string { return ddl.TableComment(t.schema) }

// IsTemporary implements sql.TemporaryTable; without it, START TRANSACTION
// READ ONLY followed by DML panics in GMS (go-mysql-server.md §0.7).
func (t *Table) IsTemporary() bool { return false }

// PrimaryKeySchema implements sql.PrimaryKeyTable, which GMS needs next to
// ProjectedTable to compute column indexes (go-mysql-server.md §0.2).
func (t *Table) PrimaryKeySchema() sql.PrimaryKeySchema {
	full := t.columns
	ordinals := make([]int, 0, len(t.schema.PrimaryKeys))
	for _, k := range t.schema.PrimaryKeys {
		ordinals = append(ordinals, full.IndexOfColName(k))
	}
	return sql.NewPrimaryKeySchema(full, ordinals...)
}

// WithProjections implements sql.ProjectedTable.
func (t *Table) WithProjections(names []string) sql.Table {
	c := *t
	c.projection = t.canonicalNames(names)
	return &c
}

// Projections implements sql.ProjectedTable.
func (t *Table) Projections() []string { return t.projection }

// canonicalNames maps GMS's (lower-cased) column names to the stored ones.
func (t *Table) canonicalNames(names []string) []string {
	if names == nil {
		return nil
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		for _, f := range t.schema.Fields {
			if strings.EqualFold(f.Name, n) {
				out = append(out, f.Name)
				break
			}
		}
	}
	return out
}

// filter is the pushed predicate, nil when nothing was pushed.
func (t *Table) filter() predicate.Predicate {
	if t.lookup == nil {
		return nil
	}
	return t.lookup.pushdown.Filter
}
