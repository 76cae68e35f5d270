package catalog

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
)

// Metastore keeps the names of a warehouse's databases and tables outside
// the warehouse, as Paimon's JDBC catalog (org.apache.paimon.jdbc.JdbcCatalog)
// does in its paimon_tables and paimon_database_properties tables. The
// tables' files stay where the filesystem catalog puts them
// (<warehouse>/<db>.db/<table>): a metastore only decides which names
// exist, so listing, existence, creation and dropping go through it, and
// everything else (schemas, snapshots, views) stays in the warehouse.
//
// Implementations return errors wrapping ErrDatabaseExists and
// ErrTableExists for names already taken, and must be safe for concurrent
// use.
type Metastore interface {
	ListDatabases(ctx context.Context) ([]string, error)
	DatabaseExists(ctx context.Context, db string) (bool, error)
	// CreateDatabase records a database whose directory is location.
	CreateDatabase(ctx context.Context, db, location string) error
	// DropDatabase forgets a database and every table it records.
	DropDatabase(ctx context.Context, db string) error
	ListTables(ctx context.Context, db string) ([]string, error)
	TableExists(ctx context.Context, db, table string) (bool, error)
	// AddTable records a table whose schema-0 was just published.
	AddTable(ctx context.Context, db, table string) error
	// RemoveTable forgets a table; false means it was not recorded.
	RemoveTable(ctx context.Context, db, table string) (bool, error)
	// CheckName refuses a database or table name the metastore cannot
	// hold (Java's JDBC catalog is case-insensitive: it takes lower case
	// names only), wrapping ErrInvalidName.
	CheckName(kind, name string) error
}

// NewWithMetastore returns the catalog of the warehouse at warehouse whose
// databases and tables are named by m (see Metastore); a nil m names them
// by directories, as New does. The other arguments are New's.
func NewWithMetastore(io fileio.FileIO, warehouse string, now func() time.Time, m Metastore) *Catalog {
	c := New(io, warehouse, now)
	c.metastore = m
	return c
}

// metastoreListTables lists the tables m records for db, after checking
// that m knows the database.
func (c *Catalog) metastoreListTables(ctx context.Context, db string) ([]string, error) {
	if err := c.checkDatabaseExists(ctx, db); err != nil {
		return nil, err
	}
	names, err := c.metastore.ListTables(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("list tables of %s: %w", db, err)
	}
	return names, nil
}

// metastoreTableExists is Java's getTable on a JDBC catalog: the table is
// recorded and its directory holds a schema. A recorded table without one
// exists for nobody (Java fails to load it), so it is reported missing.
func (c *Catalog) metastoreTableExists(ctx context.Context, db, table, dir string) (bool, error) {
	recorded, err := c.metastore.TableExists(ctx, db, table)
	if err != nil || !recorded {
		return false, err
	}
	return c.isTable(ctx, dir)
}

// metastoreAddTable records a table whose schema-0 this call published.
// If the record fails the schema is deleted again, as JdbcCatalog's
// createTableImpl does, so that no table directory stays behind that the
// metastore does not name.
func (c *Catalog) metastoreAddTable(ctx context.Context, db, table, dir string) error {
	err := c.metastore.AddTable(ctx, db, table)
	if err == nil {
		return nil
	}
	if cleanupErr := c.deleteTree(ctx, dir); cleanupErr != nil {
		return errors.Join(err, cleanupErr)
	}
	return err
}

// checkMetastoreName applies the metastore's rules for a new database or
// table name (see Metastore.CheckName); the filesystem catalog has none
// beyond the path rules every name is checked against.
func (c *Catalog) checkMetastoreName(kind, name string) error {
	if c.metastore == nil {
		return nil
	}
	return c.metastore.CheckName(kind, name)
}
