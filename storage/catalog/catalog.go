// Package catalog is the filesystem catalog: databases are directories
// <warehouse>/<db>.db and tables are directories <warehouse>/<db>.db/<table>
// holding Paimon tables. It mirrors org.apache.paimon.catalog.FileSystemCatalog,
// so Java Paimon, Flink and Spark pointed at the same warehouse see the same
// databases and tables.
//
// # Databases on storage without directories
//
// The filesystem catalog keeps no database metadata: a database is a
// directory ending in ".db". FileIO has no mkdir, and object stores have no
// directories at all, so CreateDatabase writes an empty marker file
// <db>.db/.lakesql-database. On local disk this creates the directory Java
// expects; on an object store it gives the prefix an object, so List and
// Stat report the database. Java lists only sub-directories of a database
// as tables, so it ignores the marker, and the leading dot keeps it out of
// the table names lakesql accepts. A database created by Java (an empty
// directory on disk, or any object under the prefix) is seen as well:
// existence is decided by Stat and listing, never by the marker alone.
//
// # Concurrency
//
// Schema files are published with FileIO.PutIfAbsent and never rewritten
// or deleted by CreateTable or AlterTable, so concurrent creators and
// alterers of one table serialize on the schema id: exactly one writer
// publishes each schema-N. DropTable and DropDatabase are not atomic; they
// delete the schema directory last, so an interrupted drop leaves a table
// that still exists and can be dropped again.
package catalog

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/lakesql/lakesql/storage/fileio"
)

const (
	// databaseSuffix is Catalog.DB_SUFFIX.
	databaseSuffix = ".db"
	// databaseMarker is the file CreateDatabase writes (see the package doc).
	databaseMarker = ".lakesql-database"
	// schemaDirName is the table sub-directory whose schema-N files make a
	// directory a table.
	schemaDirName = "schema"
	// snapshotDirName holds the snapshots that make a table's data visible.
	snapshotDirName = "snapshot"
	// systemDatabase is Catalog.SYSTEM_DATABASE_NAME: Java resolves it to
	// its global system tables, never to a directory.
	systemDatabase = "sys"
	// systemTableSeparator splits "table$snapshots" and "table$branch_b" in
	// Java's Identifier, so a table name containing it is unreachable there.
	systemTableSeparator = "$"
)

// defaultViewVersionsKept: views change rarely, so a hundred small files
// per view bound the listing while making a reused version number need a
// writer that slept through a hundred changes.
const defaultViewVersionsKept = 100

// Catalog is a filesystem catalog over one warehouse. It keeps no state
// besides its configuration and is safe for concurrent use.
type Catalog struct {
	io        fileio.FileIO
	warehouse string
	now       func() time.Time
	// metastore names the databases and tables when the warehouse uses a
	// JDBC catalog; nil means the directories name them.
	metastore Metastore
	// viewVersionsKept is how many versions of a view stay below the
	// newest (see landedLatest).
	viewVersionsKept int64
}

// New returns the catalog of the warehouse at the root directory warehouse
// ("" is the working directory). now stamps the timeMillis of the schema
// files it writes; nil means time.Now.
func New(io fileio.FileIO, warehouse string, now func() time.Time) *Catalog {
	if now == nil {
		now = time.Now
	}
	if warehouse == "" {
		warehouse = "."
	}
	return &Catalog{io: io, warehouse: warehouse, now: now, viewVersionsKept: defaultViewVersionsKept}
}

// Warehouse is the root directory of the catalog.
func (c *Catalog) Warehouse() string { return c.warehouse }

// TablePath returns the directory of a table, the path storage/table.Open
// takes. It does not check that the table exists.
func (c *Catalog) TablePath(db, table string) (string, error) {
	if err := validateDatabaseName(db); err != nil {
		return "", err
	}
	if err := validateTableName(table); err != nil {
		return "", err
	}
	return c.tableDir(db, table), nil
}

func (c *Catalog) databaseDir(db string) string {
	return childPath(c.warehouse, db+databaseSuffix)
}

func (c *Catalog) tableDir(db, table string) string {
	return childPath(c.databaseDir(db), table)
}

// childPath appends one path element. Unlike path.Join it keeps the
// directory as given, so a URI-style root ("s3://bucket/wh") survives.
func childPath(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// validateDatabaseName checks a database name; "sys" is refused because
// Java never looks for it on disk.
func validateDatabaseName(name string) error {
	if err := validatePathElement("database", name); err != nil {
		return err
	}
	if name == systemDatabase {
		return fmt.Errorf("%w: database name %q is reserved for Paimon's system database", ErrInvalidName, name)
	}
	return nil
}

func validateTableName(name string) error {
	if err := validatePathElement("table", name); err != nil {
		return err
	}
	if strings.Contains(name, systemTableSeparator) {
		return fmt.Errorf("%w: table name %q contains %q, which Paimon reads as a system table or branch",
			ErrInvalidName, name, systemTableSeparator)
	}
	return nil
}

// validatePathElement refuses names that are not exactly one directory
// level below their parent: empty names, separators, NUL and other control
// characters, and a leading dot, which covers "." and ".." as well as the
// hidden temp and marker files lakesql writes. Names are case-sensitive,
// as in Java's filesystem catalog.
func validatePathElement(kind, name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: empty %s name", ErrInvalidName, kind)
	case !utf8.ValidString(name):
		return fmt.Errorf("%w: %s name %q is not valid UTF-8", ErrInvalidName, kind, name)
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("%w: %s name %q starts with '.'", ErrInvalidName, kind, name)
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("%w: %s name %q contains a path separator", ErrInvalidName, kind, name)
	case strings.ContainsFunc(name, unicode.IsControl):
		return fmt.Errorf("%w: %s name %q contains a control character", ErrInvalidName, kind, name)
	}
	return nil
}
