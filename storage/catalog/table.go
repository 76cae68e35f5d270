package catalog

import (
	"context"
	"errors"
	"fmt"
	"path"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
)

// ListTables returns the tables of a database, sorted: the sub-directories
// holding at least one schema file, as Java's listTablesInFileSystem
// decides. A missing database is an error wrapping ErrDatabaseNotFound.
func (c *Catalog) ListTables(ctx context.Context, db string) ([]string, error) {
	if c.metastore != nil {
		return c.metastoreListTables(ctx, db)
	}
	if err := c.checkDatabaseExists(ctx, db); err != nil {
		return nil, err
	}
	dir := c.databaseDir(db)
	infos, err := c.io.List(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("list tables in %s: %w", dir, err)
	}
	var names []string
	for _, fi := range infos {
		name := path.Base(fi.Path)
		if !fi.IsDir || validateTableName(name) != nil {
			continue
		}
		isTable, err := c.isTable(ctx, fi.Path)
		if err != nil {
			return nil, err
		}
		if isTable {
			names = append(names, name)
		}
	}
	return names, nil
}

// TableExists reports whether the table has a schema.
func (c *Catalog) TableExists(ctx context.Context, db, table string) (bool, error) {
	dir, err := c.TablePath(db, table)
	if err != nil {
		return false, err
	}
	if c.metastore != nil {
		return c.metastoreTableExists(ctx, db, table, dir)
	}
	return c.isTable(ctx, dir)
}

// CreateTable creates a table from def (see TableDefinition for the
// defaults and the checks applied) by publishing its schema-0. The database
// must exist. An existing table is an error wrapping ErrTableExists unless
// ifNotExists is set; when several callers race to create one table,
// exactly one succeeds and the others get ErrTableExists wrapping
// fileio.ErrExist.
func (c *Catalog) CreateTable(ctx context.Context, db, table string, def TableDefinition, ifNotExists bool) error {
	dir, err := c.TablePath(db, table)
	if err != nil {
		return err
	}
	if err := c.checkMetastoreName("table", table); err != nil {
		return err
	}
	s, err := newTableSchema(def, c.now().UnixMilli())
	if err == nil {
		err = c.checkNoView(ctx, db, table)
	}
	if err == nil {
		err = c.publishNewTable(ctx, db, dir, s)
	}
	if err == nil && c.metastore != nil {
		err = c.metastoreAddTable(ctx, db, table, dir)
	}
	if errors.Is(err, ErrTableExists) && ifNotExists {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create table %s.%s: %w", db, table, err)
	}
	return nil
}

func (c *Catalog) publishNewTable(ctx context.Context, db, dir string, s *spec.TableSchema) error {
	data, err := encodeSchema(s)
	if err != nil {
		return err
	}
	if err := c.checkDatabaseExists(ctx, db); err != nil {
		return err
	}
	schemas := schema.NewManager(c.io, dir, "")
	ids, err := schemas.IDs(ctx)
	if err != nil {
		return err
	}
	if len(ids) > 0 {
		return ErrTableExists
	}
	err = c.io.PutIfAbsent(ctx, schemas.SchemaPath(s.ID), data)
	if errors.Is(err, fileio.ErrExist) {
		return fmt.Errorf("%w: %w", ErrTableExists, err)
	}
	return err
}

// DropTable deletes a table directory with everything in it. A missing
// table is an error wrapping ErrTableNotFound unless ifExists is set.
func (c *Catalog) DropTable(ctx context.Context, db, table string, ifExists bool) error {
	dir, err := c.TablePath(db, table)
	if err != nil {
		return err
	}
	exists, err := c.forgetTable(ctx, db, table, dir)
	switch {
	case err == nil && !exists && ifExists:
		return nil
	case err == nil && !exists:
		err = ErrTableNotFound
	case err == nil:
		err = c.deleteTree(ctx, dir)
	}
	if err != nil {
		return fmt.Errorf("drop table %s.%s: %w", db, table, err)
	}
	return nil
}

// forgetTable reports whether the table exists for DropTable, and removes
// a metastore's record of it first, as JdbcCatalog.dropTableImpl does, so
// that an interrupted drop leaves files that no catalog names.
func (c *Catalog) forgetTable(ctx context.Context, db, table, dir string) (bool, error) {
	if c.metastore == nil {
		return c.isTable(ctx, dir)
	}
	return c.metastore.RemoveTable(ctx, db, table)
}

func (c *Catalog) checkDatabaseExists(ctx context.Context, db string) error {
	exists, err := c.DatabaseExists(ctx, db)
	if err == nil && !exists {
		err = fmt.Errorf("%w: %s", ErrDatabaseNotFound, db)
	}
	return err
}

// isTable reports whether dir holds a schema file
// (AbstractCatalog.tableExistsInFileSystem). Every statement asks it of
// the tables it names, so it looks for the schema-0 every table starts
// with, one request, before listing the schema directory.
func (c *Catalog) isTable(ctx context.Context, dir string) (bool, error) {
	m := schema.NewManager(c.io, dir, "")
	if first, err := fileio.Exists(ctx, c.io, m.SchemaPath(0)); err != nil || first {
		return first, err
	}
	ids, err := m.IDs(ctx)
	if err != nil {
		return false, err
	}
	return len(ids) > 0, nil
}

// encodeSchema serializes s; the only failures are type parameters out of
// range, which are a property of the definition.
func encodeSchema(s *spec.TableSchema) ([]byte, error) {
	data, err := spec.EncodeSchema(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidDefinition, err)
	}
	return data, nil
}

// checkNoView refuses a table name a view of the database holds. A
// missing database is left to publishNewTable to report.
func (c *Catalog) checkNoView(ctx context.Context, db, table string) error {
	_, isView, err := c.GetView(ctx, db, table)
	switch {
	case errors.Is(err, ErrDatabaseNotFound):
		return nil
	case err != nil:
		return err
	case isView:
		return fmt.Errorf("a view of that name exists: %w", ErrTableExists)
	}
	return nil
}
