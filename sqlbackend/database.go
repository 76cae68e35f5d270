package sqlbackend

import (
	"errors"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
)

// Database is one catalog database (`<warehouse>/<name>.db`).
type Database struct {
	backend *Backend
	name    string
}

var (
	_ sql.Database                = (*Database)(nil)
	_ sql.VersionedDatabase       = (*Database)(nil)
	_ sql.TableDropper            = (*Database)(nil)
	_ sql.ViewDatabase            = (*Database)(nil)
	_ sql.TriggerDatabase         = (*Database)(nil)
	_ sql.StoredProcedureDatabase = (*Database)(nil)
	_ sql.CollatedDatabase        = (*Database)(nil)
)

// Name implements sql.Nameable.
func (d *Database) Name() string { return d.name }

// GetTableNames implements sql.Database.
func (d *Database) GetTableNames(ctx *sql.Context) ([]string, error) {
	names, err := d.backend.catalog.ListTables(ctx, d.name)
	return names, mysqlerr.From(err)
}

// GetTableInsensitive implements sql.Database: the table pinned at the
// snapshot of the session's transaction.
func (d *Database) GetTableInsensitive(ctx *sql.Context, name string) (sql.Table, bool, error) {
	return d.table(ctx, name, nil)
}

// GetTableInsensitiveAsOf implements sql.VersionedDatabase. GMS hands over
// AS OF values as a string or a time.Time (go-mysql-server.md §3).
func (d *Database) GetTableInsensitiveAsOf(ctx *sql.Context, name string, asOf any) (sql.Table, bool, error) {
	if b, ok, err := parseBetween(ctx, asOf); ok || err != nil {
		if err != nil {
			return nil, false, err
		}
		return d.incrementalTable(ctx, name, b)
	}
	tt, err := parseAsOf(ctx, asOf)
	if err != nil {
		return nil, false, err
	}
	return d.table(ctx, name, &tt)
}

// GetTableNamesAsOf implements sql.VersionedDatabase: the catalog has no
// history of its own, so every current table is listed.
func (d *Database) GetTableNamesAsOf(ctx *sql.Context, _ any) ([]string, error) {
	return d.GetTableNames(ctx)
}

func (d *Database) table(ctx *sql.Context, name string, asOf *snapshot.TimeTravel) (sql.Table, bool, error) {
	if base, kind, ok := strings.Cut(name, "$"); ok {
		return d.systemTable(ctx, base, kind, asOf)
	}
	stored, ok, err := d.resolveTable(ctx, name)
	if err != nil || !ok {
		return nil, false, err
	}
	return d.pinnedTable(ctx, stored, asOf)
}

// pinnedTable opens the table stored, pinned at the snapshot asOf selects
// or at the transaction's pin; ok is false when the table is gone.
func (d *Database) pinnedTable(ctx *sql.Context, stored string, asOf *snapshot.TimeTravel) (_ *Table, ok bool, _ error) {
	t, err := d.backend.OpenTable(ctx, d.name, stored)
	if errors.Is(err, lakeerr.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	pin, err := pinFor(ctx, d.name, stored, t, asOf)
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	tbl, err := newTable(ctx, d, stored, t, pin, asOf != nil)
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	return tbl, true, nil
}

// resolveTable finds the stored name of a table: exact match first, then
// case-insensitive, as GetTableInsensitive's contract asks.
func (d *Database) resolveTable(ctx *sql.Context, name string) (string, bool, error) {
	if exists, err := d.backend.catalog.TableExists(ctx, d.name, name); err == nil && exists {
		return name, true, nil
	}
	names, err := d.backend.catalog.ListTables(ctx, d.name)
	if errors.Is(err, catalog.ErrDatabaseNotFound) {
		return "", false, sql.ErrDatabaseNotFound.New(d.name)
	}
	if err != nil {
		return "", false, mysqlerr.From(err)
	}
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return n, true, nil
		}
	}
	return "", false, nil
}

// DropTable implements sql.TableDropper.
func (d *Database) DropTable(ctx *sql.Context, name string) error {
	stored, ok, err := d.resolveTable(ctx, name)
	if err != nil {
		return err
	}
	if !ok {
		return tableNotFound(name)
	}
	if err := d.backend.catalog.DropTable(ctx, d.name, stored, false); err != nil {
		return mysqlerr.From(err)
	}
	d.backend.forget(d.name, stored)
	return nil
}

// GetTriggers implements sql.TriggerDatabase: Paimon tables have none.
func (d *Database) GetTriggers(*sql.Context) ([]sql.TriggerDefinition, error) { return nil, nil }

// CreateTrigger implements sql.TriggerDatabase.
func (d *Database) CreateTrigger(*sql.Context, sql.TriggerDefinition) error {
	return sql.ErrUnsupportedFeature.New("CREATE TRIGGER")
}

// DropTrigger implements sql.TriggerDatabase.
func (d *Database) DropTrigger(_ *sql.Context, name string) error {
	return sql.ErrTriggerDoesNotExist.New(name)
}

// GetStoredProcedure implements sql.StoredProcedureDatabase: a Paimon
// database holds no user-defined procedures (lakesql's own are CALL
// sys.*). Without this, BI tools' connect-time probes of
// information_schema.ROUTINES fail with "doesn't support stored
// procedures" instead of finding none.
func (d *Database) GetStoredProcedure(*sql.Context, string) (sql.StoredProcedureDetails, bool, error) {
	return sql.StoredProcedureDetails{}, false, nil
}

// GetStoredProcedures implements sql.StoredProcedureDatabase.
func (d *Database) GetStoredProcedures(*sql.Context) ([]sql.StoredProcedureDetails, error) {
	return nil, nil
}

// SaveStoredProcedure implements sql.StoredProcedureDatabase.
func (d *Database) SaveStoredProcedure(_ *sql.Context, spd sql.StoredProcedureDetails) error {
	return unsupportedf("CREATE PROCEDURE %s.%s: lakesql stores no procedures (its own are CALL %s.*)", d.name, spd.Name, SysDatabase)
}

// DropStoredProcedure implements sql.StoredProcedureDatabase; DROP
// PROCEDURE IF EXISTS is a no-op, as GMS recognises this error kind.
func (d *Database) DropStoredProcedure(_ *sql.Context, name string) error {
	return sql.ErrStoredProcedureDoesNotExist.New(name)
}

// GetCollation implements sql.CollatedDatabase: strings compare as bytes,
// as Paimon compares them in statistics and merges.
func (d *Database) GetCollation(*sql.Context) sql.CollationID { return sqltypes.Collation }

// SetCollation implements sql.CollatedDatabase. CREATE DATABASE from a
// client whose connection has another default collation calls it; Paimon
// has no database collation to keep, and string columns stay binary.
func (d *Database) SetCollation(*sql.Context, sql.CollationID) error { return nil }

// tableNotFound is GMS's own error for a missing table, so that
// information_schema and "did you mean" handling keep working.
func tableNotFound(name string) error { return sql.ErrTableNotFound.New(name) }
