package duckplan

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/lakesql/lakesql/storage/spec"
)

// Column is one column of a relation: its name in the Parquet files of
// Source.Files and its Paimon type, which fixes the DuckDB type of the
// relation's column.
type Column struct {
	FileName string
	Type     spec.DataType
}

// RowSource is rows lakesql's reader produced, each in the order of the
// relation's columns as spec Go values (see spec.DataType).
type RowSource interface {
	// Next returns the next row, or io.EOF after the last.
	Next() ([]any, error)
	Close() error
}

// Source is one relation of a translated statement: a lakesql table read
// at the snapshot the statement pinned, filtered by what was pushed into
// it. Its rows are the rows of Files, less their deleted rows, that
// FileFilter keeps, followed by the rows of Rows.
type Source struct {
	// Name is the relation's name in the SQL, t0, t1, ….
	Name string
	// Columns are the relation's columns c0, c1, ….
	Columns []Column
	// Files are local Parquet data files whose stored rows, less their
	// deleted rows, are table rows as they are, written in the read
	// schema, so that DuckDB may read them itself.
	Files []File
	// FileFilter is a DuckDB boolean expression over the files' columns
	// (named as Column.FileName) that the rows of Files must make TRUE:
	// the filter pushed into the table, which the scan applied to Rows
	// already. Empty keeps every row.
	FileFilter string
	// Rows opens the rows of the rest of the read; nil when Files are the
	// whole read.
	Rows func(ctx context.Context) (RowSource, error)
}

// File is a Parquet data file DuckDB reads itself.
type File struct {
	Path string
	// Deleted lists, ascending, the positions of the file's rows that are
	// not rows of the table (DuckDB's file_row_number, lakesql's row
	// position): rows a merge supersedes or retracts, rows of a deletion
	// vector. Empty when every row is a table row.
	Deleted []int64
}

// Names of the columns a read of files with deleted rows adds: the file
// name and DuckDB's row number in it. DuckDB refuses such a read of a
// file with a column of either name, read or not.
const (
	FileNameColumn  = "lakesql_file"
	RowNumberColumn = "file_row_number"
)

// AddedColumnName reports whether a column of this name keeps its files
// from being read with their deleted rows dropped (DuckDB compares names
// ignoring case).
func AddedColumnName(name string) bool {
	return strings.EqualFold(name, FileNameColumn) || strings.EqualFold(name, RowNumberColumn)
}

// Query is a translated subtree: DuckDB SQL over the relations t0, t1, …
// and the GMS schema of the subtree, whose types the executor converts
// DuckDB's values to (MySQL's result types are GMS's, never DuckDB's).
type Query struct {
	SQL    string
	Schema sql.Schema
	// Ordered says the statement asks for the rows in the order SQL
	// returns them (an ORDER BY reaches the top).
	Ordered bool
	// MaxRows is a bound on the rows the query returns that the plan
	// proves (a constant LIMIT, an aggregate without GROUP BY); 0 when
	// the plan proves none.
	MaxRows int64
}

// Executor runs translated queries; package duckexec implements it.
type Executor interface {
	// Run executes q over sources and returns its rows in q.Schema's Go
	// types. Cancelling ctx (KILL QUERY, a client gone) stops DuckDB.
	Run(ctx *sql.Context, q *Query, sources []Source) (sql.RowIter, error)
	// Explain returns DuckDB's physical plan of q over sources.
	Explain(ctx *sql.Context, q *Query, sources []Source) (string, error)
}

// TextExecutor is an Executor that can also return a query's rows as the
// MySQL text protocol's values, which a client's result takes as they
// are: the rows skip GMS's Go values, its row channel and its encoding.
type TextExecutor interface {
	Executor
	// RunText executes q over sources like Run and returns its rows as
	// the text q.Schema's types give GMS's values of them, byte for byte.
	// Its error wraps ErrUnsupported when a column's values cannot be
	// encoded so; Run may still run q.
	RunText(ctx *sql.Context, q *Query, sources []Source) (TextRows, error)
}

// TextRows are a query's rows in the text protocol's values.
type TextRows interface {
	// Next returns the next batch of rows, or io.EOF after the last. A
	// batch and its values are valid until the next call.
	Next(ctx *sql.Context) ([][]sqltypes.Value, error)
	Close() error
}
