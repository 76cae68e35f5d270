package jdbc

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/catalog"
)

// Java's JdbcCatalog marks a database created without properties with
// this one, and records its location under DB_LOCATION_PROP.
const (
	databaseExistsProperty   = "exists"
	databaseLocationProperty = "location"
)

var _ catalog.Metastore = (*Catalog)(nil)

// ListDatabases is JdbcCatalog.listDatabases: the databases holding a
// table and those with properties, sorted.
func (c *Catalog) ListDatabases(ctx context.Context) ([]string, error) {
	withTables, err := c.strings(ctx, `SELECT DISTINCT database_name FROM paimon_tables WHERE catalog_key = ?`, c.opts.CatalogKey)
	if err != nil {
		return nil, c.wrap("list databases", err)
	}
	withProperties, err := c.strings(ctx, `SELECT DISTINCT database_name FROM paimon_database_properties WHERE catalog_key = ?`, c.opts.CatalogKey)
	if err != nil {
		return nil, c.wrap("list databases", err)
	}
	names := append(withTables, withProperties...)
	slices.Sort(names)
	return slices.Compact(names), nil
}

// DatabaseExists is JdbcUtils.databaseExists.
func (c *Catalog) DatabaseExists(ctx context.Context, db string) (bool, error) {
	for _, query := range []string{
		`SELECT database_name FROM paimon_tables WHERE catalog_key = ? AND database_name = ? LIMIT 1`,
		`SELECT database_name FROM paimon_database_properties WHERE catalog_key = ? AND database_name = ? LIMIT 1`,
	} {
		found, err := c.strings(ctx, query, c.opts.CatalogKey, db)
		if err != nil {
			return false, c.wrap("look up database "+db, err)
		}
		if len(found) > 0 {
			return true, nil
		}
	}
	return false, nil
}

// CreateDatabase is JdbcCatalog.createDatabaseImpl: the "exists" and
// "location" properties in one statement, so a concurrent creator's
// duplicate key makes exactly one of them win.
func (c *Catalog) CreateDatabase(ctx context.Context, db, location string) error {
	_, err := c.exec(ctx, `INSERT INTO paimon_database_properties (catalog_key, database_name, property_key, property_value) VALUES (?,?,?,?), (?,?,?,?)`,
		c.opts.CatalogKey, db, databaseExistsProperty, "true",
		c.opts.CatalogKey, db, databaseLocationProperty, location)
	if c.dialect.uniqueViolation(err) {
		return fmt.Errorf("%w: %s", catalog.ErrDatabaseExists, db)
	}
	return c.wrap("create database "+db, err)
}

// DropDatabase is JdbcCatalog.dropDatabaseImpl, removing the database's
// table properties too (Java does when it keeps them).
func (c *Catalog) DropDatabase(ctx context.Context, db string) error {
	for _, stmt := range []string{
		`DELETE FROM paimon_tables WHERE catalog_key = ? AND database_name = ?`,
		`DELETE FROM paimon_database_properties WHERE catalog_key = ? AND database_name = ?`,
		`DELETE FROM paimon_table_properties WHERE catalog_key = ? AND database_name = ?`,
	} {
		if _, err := c.exec(ctx, stmt, c.opts.CatalogKey, db); err != nil {
			return c.wrap("drop database "+db, err)
		}
	}
	return nil
}

// ListTables is JdbcCatalog.listTablesImpl, sorted.
func (c *Catalog) ListTables(ctx context.Context, db string) ([]string, error) {
	names, err := c.strings(ctx, `SELECT table_name FROM paimon_tables WHERE catalog_key = ? AND database_name = ?`, c.opts.CatalogKey, db)
	if err != nil {
		return nil, c.wrap("list tables of "+db, err)
	}
	slices.Sort(names)
	return names, nil
}

// TableExists is JdbcUtils.tableExists.
func (c *Catalog) TableExists(ctx context.Context, db, table string) (bool, error) {
	found, err := c.strings(ctx, `SELECT table_name FROM paimon_tables WHERE catalog_key = ? AND database_name = ? AND table_name = ?`,
		c.opts.CatalogKey, db, table)
	if err != nil {
		return false, c.wrap("look up table "+db+"."+table, err)
	}
	return len(found) > 0, nil
}

// AddTable is JdbcUtils.insertTable.
func (c *Catalog) AddTable(ctx context.Context, db, table string) error {
	_, err := c.exec(ctx, `INSERT INTO paimon_tables (catalog_key, database_name, table_name) VALUES (?,?,?)`,
		c.opts.CatalogKey, db, table)
	if c.dialect.uniqueViolation(err) {
		return fmt.Errorf("%w: %s.%s is recorded in the catalog", catalog.ErrTableExists, db, table)
	}
	return c.wrap("record table "+db+"."+table, err)
}

// RemoveTable is the metadata part of JdbcCatalog.dropTableImpl.
func (c *Catalog) RemoveTable(ctx context.Context, db, table string) (bool, error) {
	n, err := c.exec(ctx, `DELETE FROM paimon_tables WHERE catalog_key = ? AND database_name = ? AND table_name = ?`,
		c.opts.CatalogKey, db, table)
	if err == nil && n > 0 {
		_, err = c.exec(ctx, `DELETE FROM paimon_table_properties WHERE catalog_key = ? AND database_name = ? AND table_name = ?`,
			c.opts.CatalogKey, db, table)
	}
	if err != nil {
		return false, c.wrap("forget table "+db+"."+table, err)
	}
	return n > 0, nil
}

// CheckName refuses names Java's JDBC catalog cannot reach: it is
// case-insensitive (JdbcCatalog.caseSensitive is false), so Java's
// AbstractCatalog refuses any name with upper case letters.
func (c *Catalog) CheckName(kind, name string) error {
	if name != strings.ToLower(name) {
		return fmt.Errorf("%w: %s name %q has upper case letters, which Paimon's JDBC catalog refuses (it is case-insensitive)",
			catalog.ErrInvalidName, kind, name)
	}
	return nil
}

func (c *Catalog) wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %s: %w", c, what, err)
}
