package catalog

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/lakesql/lakesql/storage/fileio"
)

// ListDatabases returns the names of the databases, sorted: every
// directory of the warehouse whose name ends in ".db". Directories whose
// name is not a valid database name (".db", ".hidden.db") are skipped,
// since no statement could address them.
func (c *Catalog) ListDatabases(ctx context.Context) ([]string, error) {
	if c.metastore != nil {
		return c.metastore.ListDatabases(ctx)
	}
	infos, err := c.io.List(ctx, c.warehouse)
	if err != nil {
		return nil, fmt.Errorf("list databases in %s: %w", c.warehouse, err)
	}
	var names []string
	for _, fi := range infos {
		name, ok := strings.CutSuffix(path.Base(fi.Path), databaseSuffix)
		if fi.IsDir && ok && validateDatabaseName(name) == nil {
			names = append(names, name)
		}
	}
	return names, nil
}

// DatabaseExists reports whether the database directory exists.
func (c *Catalog) DatabaseExists(ctx context.Context, db string) (bool, error) {
	if err := validateDatabaseName(db); err != nil {
		return false, err
	}
	return c.databaseExists(ctx, db)
}

func (c *Catalog) databaseExists(ctx context.Context, db string) (bool, error) {
	if c.metastore != nil {
		return c.metastore.DatabaseExists(ctx, db)
	}
	fi, err := c.io.Stat(ctx, c.databaseDir(db))
	switch {
	case errors.Is(err, fileio.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("database %s: %w", db, err)
	}
	return fi.IsDir, nil
}

// CreateDatabase creates a database. An existing database is an error
// wrapping ErrDatabaseExists unless ifNotExists is set.
func (c *Catalog) CreateDatabase(ctx context.Context, db string, ifNotExists bool) error {
	if err := validateDatabaseName(db); err != nil {
		return err
	}
	if err := c.checkMetastoreName("database", db); err != nil {
		return err
	}
	exists, err := c.databaseExists(ctx, db)
	if err == nil && exists {
		err = ErrDatabaseExists
	}
	if err == nil {
		err = c.recordDatabase(ctx, db)
	}
	if errors.Is(err, ErrDatabaseExists) && ifNotExists {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create database %s: %w", db, err)
	}
	return nil
}

// recordDatabase makes a database exist: a row of the metastore, or the
// marker file of the directory (see the package doc).
func (c *Catalog) recordDatabase(ctx context.Context, db string) error {
	if c.metastore != nil {
		return c.metastore.CreateDatabase(ctx, db, c.databaseDir(db))
	}
	err := c.io.PutIfAbsent(ctx, childPath(c.databaseDir(db), databaseMarker), nil)
	if errors.Is(err, fileio.ErrExist) {
		err = fmt.Errorf("%w: %w", ErrDatabaseExists, err)
	}
	return err
}

// DropDatabase deletes a database and everything under it. A database that
// holds tables is refused with ErrDatabaseNotEmpty unless cascade is set; a
// missing one is an error wrapping ErrDatabaseNotFound unless ifExists is
// set. Other files under the database directory do not count as tables
// and are deleted with it, as Java does.
func (c *Catalog) DropDatabase(ctx context.Context, db string, ifExists, cascade bool) error {
	if err := validateDatabaseName(db); err != nil {
		return err
	}
	tables, err := c.ListTables(ctx, db)
	if errors.Is(err, ErrDatabaseNotFound) && ifExists {
		return nil
	}
	if err == nil && len(tables) > 0 && !cascade {
		err = fmt.Errorf("%w: it holds %d tables", ErrDatabaseNotEmpty, len(tables))
	}
	if err == nil && c.metastore != nil {
		// Forgotten first, as JdbcCatalog.dropDatabaseImpl does: an
		// interrupted drop leaves files no catalog names, never names
		// without files.
		err = c.metastore.DropDatabase(ctx, db)
	}
	if err == nil {
		err = c.deleteTree(ctx, c.databaseDir(db))
	}
	if err != nil {
		return fmt.Errorf("drop database %s: %w", db, err)
	}
	return nil
}

// deleteTree deletes dir and everything below it. Within each directory
// the snapshot directory goes first, so that an interrupted drop leaves a
// table that reads as empty rather than one whose snapshots point at
// deleted files; the schema directory and the database marker go last, so
// that it leaves a table or database that still exists and can be dropped
// again, rather than table files without a schema that a later CREATE
// TABLE of the same name would adopt.
//
// Directories are deleted once empty where the FileIO has real directories
// (local disk); where they are implied by the files below them (memio,
// object stores) they disappear with their last file.
func (c *Catalog) deleteTree(ctx context.Context, dir string) error {
	children, err := c.io.List(ctx, dir)
	if err != nil {
		return fmt.Errorf("list %s: %w", dir, err)
	}
	// Files go a run at a time (fileio.DeleteFiles: one request per
	// thousand on S3, one directory sync on local disk), each group of
	// deletionGroups after the one before; a file deleted meanwhile, by a
	// concurrent drop, is gone as wanted.
	for _, group := range deletionGroups(children) {
		var files []string
		for _, child := range group {
			if !child.IsDir {
				files = append(files, child.Path)
				continue
			}
			if err := c.deleteTree(ctx, child.Path); err != nil {
				return err
			}
		}
		if err := fileio.DeleteFiles(ctx, c.io, files); err != nil {
			return fmt.Errorf("delete files of %s: %w", dir, err)
		}
	}
	return c.deleteEmptyDir(ctx, dir)
}

func (c *Catalog) deleteEmptyDir(ctx context.Context, dir string) error {
	exists, err := fileio.Exists(ctx, c.io, dir)
	if err == nil && exists {
		err = c.io.Delete(ctx, dir)
	}
	if err != nil && !errors.Is(err, fileio.ErrNotExist) {
		return fmt.Errorf("delete %s: %w", dir, err)
	}
	return nil
}

// deletionGroups groups the children of a directory for deleteTree, in
// the order they must go: the snapshots first, so that readers stop
// seeing the table, then everything else, then the schemas and the
// database marker, whose absence says the table or database is gone.
func deletionGroups(children []fileio.FileInfo) [][]fileio.FileInfo {
	var first, middle, last []fileio.FileInfo
	for _, child := range children {
		switch name := path.Base(child.Path); {
		case child.IsDir && name == snapshotDirName:
			first = append(first, child)
		case child.IsDir && name == schemaDirName, !child.IsDir && name == databaseMarker:
			last = append(last, child)
		default:
			middle = append(middle, child)
		}
	}
	return [][]fileio.FileInfo{first, middle, last}
}
