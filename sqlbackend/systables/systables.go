package systables

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// systemTableKind is one of Paimon's system tables, `table$kind`: its
// columns, with Java's names and types (org.apache.paimon.table.system),
// and how its rows are read.
type systemTableKind struct {
	name string
	// snapshotScoped kinds describe the files of one snapshot: the one the
	// statement pins, or the one AS OF selects, as Java time-travels
	// $files, $manifests, $partitions and $buckets. The others list the
	// table's current metadata and refuse AS OF.
	snapshotScoped bool
	fields         []spec.DataField
	rows           func(ctx *sql.Context, src *systemSource) ([][]any, error)
}

// systemTableKinds are the metadata system tables, by lower-case kind.
var systemTableKinds = kindsByName(
	&systemTableKind{name: "snapshots", fields: snapshotsFields, rows: snapshotsRows},
	&systemTableKind{name: "schemas", fields: schemasFields, rows: schemasRows},
	&systemTableKind{name: "options", fields: optionsFields, rows: optionsRows},
	&systemTableKind{name: "tags", fields: tagsFields, rows: tagsRows},
	&systemTableKind{name: "consumers", fields: consumersFields, rows: consumersRows},
	&systemTableKind{name: "files", snapshotScoped: true, fields: filesFields, rows: filesRows},
	&systemTableKind{name: "manifests", snapshotScoped: true, fields: manifestsFields, rows: manifestsRows},
	&systemTableKind{name: "partitions", snapshotScoped: true, fields: partitionsFields, rows: partitionsRows},
	&systemTableKind{name: "buckets", snapshotScoped: true, fields: bucketsFields, rows: bucketsRows},
	&systemTableKind{name: "file_indexes", snapshotScoped: true, fields: fileIndexesFields, rows: fileIndexesRows},
)

func kindsByName(kinds ...*systemTableKind) map[string]*systemTableKind {
	out := make(map[string]*systemTableKind, len(kinds))
	for _, k := range kinds {
		out[k.name] = k
	}
	return out
}

// unservedPaimonKinds are Java system tables lakesql does not serve yet;
// naming them gets "not supported" rather than "no such table".
var unservedPaimonKinds = []string{"aggregation_fields", "binlog", "branches", "statistics"}

// RowKind is a system table that reads the table's rows rather than its
// metadata: `$audit_log` (every row with its change kind, as Java's
// AuditLogTable), `$ro` (only the rows on the highest LSM level, as
// Java's ReadOptimizedTable) and `$row_tracking` (each row with its row
// id and sequence number, as Java's RowTrackingTable). Both are read like the table itself: at the
// transaction's pin with its own writes, or at the AS OF snapshot in that
// snapshot's schema; so the backend serves them, and this package names
// them.
type RowKind struct {
	Name string
	// Options say how the kind reads rows; the backend adds what every
	// read of the table takes, such as its parallelism.
	Options table.ReadOptions
}

// rowKinds are the row-reading system tables, by lower-case kind.
var rowKinds = map[string]RowKind{
	"audit_log": {Name: "audit_log", Options: table.ReadOptions{WithRowKind: true}},
	"ro":        {Name: "ro", Options: table.ReadOptions{ReadOptimized: true}},
	// Java's RowTrackingTable: a row-tracking table's rows with their
	// _ROW_ID and _SEQUENCE_NUMBER.
	"row_tracking": {Name: "row_tracking", Options: table.ReadOptions{WithRowTracking: true}},
}

// RowKindOf is the row-reading system table kind names, in any case.
func RowKindOf(kind string) (RowKind, bool) {
	k, ok := rowKinds[strings.ToLower(kind)]
	return k, ok
}

// systemSource is what a system table reads: the base table and, for
// snapshot-scoped kinds, the snapshot and the schema it is described in.
type systemSource struct {
	db, table string
	t         *table.Table
	io        fileio.FileIO
	// snapshot is nil for a table without snapshots (and for kinds that
	// are not snapshot-scoped).
	snapshot *spec.Snapshot
	// schema is the snapshot's own schema under AS OF, the latest schema
	// otherwise, as Java's time travel switches the schema.
	schema *spec.TableSchema
	// location is the session time zone: commit times are shown as its
	// wall clock (Java uses the JVM zone), so a commit_time pasted into
	// AS OF selects that snapshot.
	location *time.Location
}

// Backend is what the system tables need of the SQL backend.
type Backend interface {
	// OpenTable opens a table of the warehouse; lakeerr.ErrNotFound when
	// it is gone.
	OpenTable(ctx context.Context, db, name string) (*table.Table, error)
	// FileIO is the warehouse's file system.
	FileIO() fileio.FileIO
	// Snapshot is the snapshot the statement reads t, table name of db,
	// at: the one AS OF asOf selects, else the transaction's pin, so that
	// `t` and `t$files` agree in one transaction; nil for a table without
	// snapshots. A tag's snapshot is read from the tag, which keeps it
	// after snapshot-<id> has expired.
	Snapshot(ctx *sql.Context, db, name string, t *table.Table, asOf *snapshot.TimeTravel) (*spec.Snapshot, error)
}

// Open serves `base$kind`, a metadata system table of the table base of
// db, where base is the table's stored name: its metadata as of now, or
// for the snapshot-scoped kinds, as of the snapshot the statement reads
// base at (Backend.Snapshot). ok is false when base is gone. Kinds that
// read rows (RowKindOf) and branches are the backend's to serve.
func Open(ctx *sql.Context, b Backend, db, base, kind string, asOf *snapshot.TimeTravel) (_ sql.Table, ok bool, _ error) {
	k, err := lookupSystemKind(db, base, kind)
	if err != nil {
		return nil, false, err
	}
	if asOf != nil && !k.snapshotScoped {
		return nil, false, mysql.NewSQLError(mysql.ERNotSupportedYet, mysql.SSClientError,
			"%s.%s$%s lists the table's current metadata and has no AS OF; time travel applies to %s",
			db, base, k.name, strings.Join(kindNames(true), ", "))
	}
	t, err := b.OpenTable(ctx, db, base)
	if errors.Is(err, lakeerr.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	src := &systemSource{db: db, table: base, t: t, io: b.FileIO(), location: sqltypes.SessionLocation(ctx)}
	if k.snapshotScoped {
		if err := src.pin(ctx, b, asOf); err != nil {
			return nil, false, mysqlerr.From(err)
		}
	}
	return newSystemTable(k, src)
}

func lookupSystemKind(db, base, kind string) (*systemTableKind, error) {
	lower := strings.ToLower(kind)
	if k, ok := systemTableKinds[lower]; ok {
		return k, nil
	}
	if slices.Contains(unservedPaimonKinds, lower) {
		return nil, mysql.NewSQLError(mysql.ERNotSupportedYet, mysql.SSClientError,
			"system table %s.%s$%s is not supported; the system tables are %s", db, base, kind, strings.Join(kindNames(false), ", "))
	}
	return nil, mysql.NewSQLError(mysql.ERNoSuchTable, "42S02",
		"table '%s.%s$%s' doesn't exist: %q is not a system table; the system tables are %s",
		db, base, kind, kind, strings.Join(kindNames(false), ", "))
}

// kindNames lists the served kinds as `$kind`, sorted; only the
// snapshot-scoped ones and those reading rows (which time-travel too) when
// scopedOnly.
func kindNames(scopedOnly bool) []string {
	names := slices.Collect(maps.Keys(rowKinds))
	for name, k := range systemTableKinds {
		if !scopedOnly || k.snapshotScoped {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	out := make([]string, len(names))
	for i, name := range names {
		out[i] = "$" + name
	}
	return out
}

// pin resolves the snapshot a snapshot-scoped system table describes at
// bind time, as the backend does for the table itself, and the schema it
// is described in.
func (src *systemSource) pin(ctx *sql.Context, b Backend, asOf *snapshot.TimeTravel) error {
	var err error
	if src.snapshot, err = b.Snapshot(ctx, src.db, src.table, src.t, asOf); err != nil {
		return err
	}
	if asOf != nil && src.snapshot != nil {
		src.schema, err = src.t.Schemas().Schema(ctx, src.snapshot.SchemaID)
	} else {
		src.schema, err = src.t.LatestSchema(ctx)
	}
	return err
}

// systemTableView is a system table as GMS sees it in one statement. Its
// rows are read when GMS asks for them and hold storage values of the
// kind's columns, converted like any table's.
type systemTableView struct {
	ReadOnly
	kind   *systemTableKind
	src    *systemSource
	schema sql.Schema
}

var _ sql.Table = (*systemTableView)(nil)

func newSystemTable(k *systemTableKind, src *systemSource) (*systemTableView, bool, error) {
	v := &systemTableView{ReadOnly: NewReadOnly(src.db, src.table, k.name), kind: k, src: src}
	schema, err := sqltypes.Schema(v.Name(), k.fields, nil)
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	v.schema = schema
	return v, true, nil
}

// Name implements sql.Nameable.
func (v *systemTableView) Name() string { return v.src.table + "$" + v.kind.name }

// String implements fmt.Stringer; EXPLAIN prints it.
func (v *systemTableView) String() string {
	name := v.src.db + "." + v.Name()
	if !v.kind.snapshotScoped {
		return name
	}
	if v.src.snapshot == nil {
		return name + "@snapshot=none (empty table)"
	}
	return fmt.Sprintf("%s@snapshot=%d", name, v.src.snapshot.ID)
}

// Schema implements sql.Table.
func (v *systemTableView) Schema() sql.Schema { return v.schema }

// Collation implements sql.Table.
func (v *systemTableView) Collation() sql.CollationID { return sqltypes.Collation }

// metadata is the one partition of a system table: metadata is read in
// one piece.
type metadata struct{}

func (metadata) Key() []byte { return []byte("all") }

// Partitions implements sql.Table: metadata is read in one piece.
func (v *systemTableView) Partitions(*sql.Context) (sql.PartitionIter, error) {
	return sql.PartitionsToPartitionIter(metadata{}), nil
}

// PartitionRows implements sql.Table.
func (v *systemTableView) PartitionRows(ctx *sql.Context, _ sql.Partition) (sql.RowIter, error) {
	values, err := v.kind.rows(ctx, v.src)
	if err != nil {
		return nil, mysqlerr.From(fmt.Errorf("%s.%s: %w", v.src.db, v.Name(), err))
	}
	rows := make([]sql.Row, len(values))
	for i, r := range values {
		row := make(sql.Row, len(r))
		for j, val := range r {
			if row[j], err = sqltypes.ToSQL(v.kind.fields[j].Type, val); err != nil {
				return nil, mysqlerr.From(err)
			}
		}
		rows[i] = row
	}
	return sql.RowsToRowIter(rows...), nil
}

// Column types of the system tables, as Java declares them.
func bigintType(nullable bool) spec.DataType {
	return spec.DataType{Root: spec.BigInt, Nullable: nullable}
}

func intType(nullable bool) spec.DataType { return spec.DataType{Root: spec.Int, Nullable: nullable} }

func stringType(nullable bool) spec.DataType {
	return spec.DataType{Root: spec.VarChar, Length: spec.MaxVarLength, Nullable: nullable}
}

// timestampMillisType is TIMESTAMP(3), DataTypes.TIMESTAMP_MILLIS.
func timestampMillisType(nullable bool) spec.DataType {
	return spec.DataType{Root: spec.Timestamp, Precision: 3, Nullable: nullable}
}

func booleanType(nullable bool) spec.DataType {
	return spec.DataType{Root: spec.Boolean, Nullable: nullable}
}

// columns numbers fields in order, as Java's TABLE_TYPE does.
func columns(fields ...spec.DataField) []spec.DataField {
	for i := range fields {
		fields[i].ID = i
	}
	return fields
}

func column(name string, t spec.DataType) spec.DataField { return spec.DataField{Name: name, Type: t} }

// optional turns an absent optional value into SQL NULL.
func optional[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
