package catalog

import (
	"errors"
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// Failure classes of catalog operations. Each maps to one MySQL error in the
// SQL layer; test them with errors.Is. The "not found" classes also match
// lakeerr.ErrNotFound, and a lost CreateTable or CreateDatabase race also
// matches fileio.ErrExist. Features lakesql does not implement (dynamic
// buckets, other file formats, type changes outside the allowed list) wrap
// lakeerr.ErrUnsupported instead.
var (
	// ErrInvalidName marks a database or table name that is empty, could
	// leave the warehouse directory, or that Paimon reserves.
	ErrInvalidName = errors.New("invalid name")
	// ErrInvalidDefinition marks a table definition or schema change that
	// Paimon itself rejects (SchemaValidation), such as a primary key naming
	// a missing column.
	ErrInvalidDefinition = errors.New("invalid table definition")

	ErrDatabaseNotFound = fmt.Errorf("database %w", lakeerr.ErrNotFound)
	ErrTableNotFound    = fmt.Errorf("table %w", lakeerr.ErrNotFound)
	ErrColumnNotFound   = fmt.Errorf("column %w", lakeerr.ErrNotFound)

	ErrDatabaseExists = errors.New("database already exists")
	ErrTableExists    = errors.New("table already exists")
	ErrColumnExists   = errors.New("column already exists")

	// ErrDatabaseNotEmpty is returned by a non-cascading DropDatabase of a
	// database that still holds tables.
	ErrDatabaseNotEmpty = errors.New("database is not empty")
)

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidDefinition, fmt.Sprintf(format, args...))
}

func unsupportedf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", lakeerr.ErrUnsupported, fmt.Sprintf(format, args...))
}
