//go:build duckdb_arrow && cgo

package duckexec

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sqlbackend/duckplan"
	"github.com/lakesql/lakesql/storage/spec"
)

// maxDecimalPrecision is DuckDB's widest DECIMAL.
const maxDecimalPrecision = 38

// columnType is how a Paimon type travels: the DuckDB type of the
// relation's column, and the Arrow type rows from lakesql's reader are
// streamed in.
type columnType struct {
	duck  string
	arrow arrow.DataType
}

// typeOf maps the Paimon types the executor supports; any other wraps
// ErrUnsupported. TIMESTAMP_LTZ is a TIMESTAMP holding the instant's UTC
// wall clock, which is how lakesql shows it (planner/sqltypes); timestamps
// finer than DuckDB's microseconds are left out.
func typeOf(t spec.DataType) (columnType, error) {
	switch t.Root {
	case spec.Boolean:
		return columnType{"BOOLEAN", arrow.FixedWidthTypes.Boolean}, nil
	case spec.TinyInt:
		return columnType{"TINYINT", arrow.PrimitiveTypes.Int8}, nil
	case spec.SmallInt:
		return columnType{"SMALLINT", arrow.PrimitiveTypes.Int16}, nil
	case spec.Int:
		return columnType{"INTEGER", arrow.PrimitiveTypes.Int32}, nil
	case spec.BigInt:
		return columnType{"BIGINT", arrow.PrimitiveTypes.Int64}, nil
	case spec.Float:
		return columnType{"FLOAT", arrow.PrimitiveTypes.Float32}, nil
	case spec.Double:
		return columnType{"DOUBLE", arrow.PrimitiveTypes.Float64}, nil
	case spec.Char, spec.VarChar:
		return columnType{"VARCHAR", arrow.BinaryTypes.String}, nil
	case spec.Binary, spec.VarBinary, spec.Blob:
		return columnType{"BLOB", arrow.BinaryTypes.Binary}, nil
	case spec.Date:
		return columnType{"DATE", arrow.FixedWidthTypes.Date32}, nil
	case spec.Decimal:
		if t.Precision >= 1 && t.Precision <= maxDecimalPrecision {
			return columnType{fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale),
				&arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}}, nil
		}
	case spec.Timestamp, spec.TimestampLTZ:
		if t.Precision <= 6 {
			return columnType{"TIMESTAMP", &arrow.TimestampType{Unit: arrow.Microsecond}}, nil
		}
	}
	return columnType{}, fmt.Errorf("%w: column type %v", ErrUnsupported, t)
}

// relation is one Source as SQL: its common table expression, the
// temporary table its rows are copied to ("" without rows), and the
// temporary table of its files' deleted rows ("" without any).
type relation struct {
	source  *duckplan.Source
	types   []columnType
	table   string
	deleted string
}

// Columns a read of files with deleted rows adds, and the columns of the
// table of deleted rows.
const (
	fileColumn        = duckplan.FileNameColumn
	rowNumberColumn   = duckplan.RowNumberColumn
	deletedFileColumn = "lakesql_deleted_file"
	deletedRowColumn  = "lakesql_deleted_row"
)

// newRelation prepares src; its temporary tables are named after table.
func newRelation(src *duckplan.Source, table string) (*relation, error) {
	r := &relation{source: src, types: make([]columnType, len(src.Columns))}
	for i, c := range src.Columns {
		var err error
		if r.types[i], err = typeOf(c.Type); err != nil {
			return nil, fmt.Errorf("%s.c%d: %w", src.Name, i, err)
		}
	}
	if src.Rows != nil {
		r.table = table
	}
	if slices.ContainsFunc(src.Files, func(f duckplan.File) bool { return len(f.Deleted) > 0 }) {
		if i := slices.IndexFunc(src.Columns, addedColumn); i >= 0 {
			return nil, fmt.Errorf("%w: %s.c%d is named %s, as a column DuckDB adds to a read", ErrUnsupported, src.Name, i, src.Columns[i].FileName)
		}
		r.deleted = table + "_deleted"
	}
	return r, nil
}

// addedColumn reports whether a column bears the name of a column a read
// of files with deleted rows adds.
func addedColumn(c duckplan.Column) bool { return duckplan.AddedColumnName(c.FileName) }

// cte is `name AS (files UNION ALL files with deleted rows UNION ALL
// rows)`, with only the parts that exist; a source with none is an empty
// relation of the right types.
func (r *relation) cte() string {
	var whole, deleted []duckplan.File
	for _, f := range r.source.Files {
		if len(f.Deleted) > 0 {
			deleted = append(deleted, f)
		} else {
			whole = append(whole, f)
		}
	}
	var parts []string
	if len(whole) > 0 {
		parts = append(parts, r.filesSQL(whole, false))
	}
	if len(deleted) > 0 {
		parts = append(parts, r.filesSQL(deleted, true))
	}
	if r.table != "" {
		parts = append(parts, r.selectSQL(func(i int) string { return fmt.Sprintf("c%d", i) })+
			" FROM "+duckplan.QuoteIdent(r.table))
	}
	if len(parts) == 0 {
		parts = append(parts, r.selectSQL(func(int) string { return "NULL" })+" WHERE FALSE")
	}
	return duckplan.QuoteIdent(r.source.Name) + " AS (" + strings.Join(parts, " UNION ALL ") + ")"
}

// selectSQL is SELECT CAST(<expr i> AS <type i>) AS ci, ….
func (r *relation) selectSQL(expr func(i int) string) string {
	cols := make([]string, len(r.types))
	for i, t := range r.types {
		cols[i] = fmt.Sprintf("CAST(%s AS %s) AS c%d", expr(i), t.duck, i)
	}
	return "SELECT " + strings.Join(cols, ", ")
}

// filesSQL reads files by column name. union_by_name matches every
// file's columns by name, which ExternalRead guarantees are the read
// schema's, even where files differ in columns not read; Paimon's
// partition directories are not columns. dropDeleted drops the files'
// deleted rows: an anti join on file name and row number with the table
// of deleted rows.
func (r *relation) filesSQL(files []duckplan.File, dropDeleted bool) string {
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = duckplan.QuoteString(f.Path)
	}
	options, join := "hive_partitioning = false, union_by_name = true", ""
	if dropDeleted {
		options += fmt.Sprintf(", filename = %s, %s = true", duckplan.QuoteString(fileColumn), rowNumberColumn)
		join = fmt.Sprintf(" ANTI JOIN %s ON %s = %s AND %s = %s", duckplan.QuoteIdent(r.deleted),
			fileColumn, deletedFileColumn, rowNumberColumn, deletedRowColumn)
	}
	s := r.selectSQL(func(i int) string { return fileColumnSQL(r.source.Columns[i]) }) +
		" FROM read_parquet([" + strings.Join(paths, ", ") + "], " + options + ")" + join
	if r.source.FileFilter != "" {
		s += " WHERE " + r.source.FileFilter
	}
	return s
}

// fileColumnSQL reads column c of the files. Paimon marks a TIMESTAMP_LTZ
// column adjusted to UTC, which DuckDB reads as a TIMESTAMPTZ, whose cast
// to TIMESTAMP takes the wall clock of DuckDB's TimeZone setting (the
// machine's zone by default): the UTC wall clock is taken from the
// instant's microseconds instead. A CHAR loses its trailing spaces, as
// in every SQL read.
func fileColumnSQL(c duckplan.Column) string {
	name := duckplan.QuoteIdent(c.FileName)
	switch c.Type.Root {
	case spec.TimestampLTZ:
		return "make_timestamp(epoch_us(" + name + "))"
	case spec.Char:
		// As sqltypes.TrimCharPadding.
		return "rtrim(" + name + ", ' ')"
	}
	return name
}

// leadingWith matches a query that starts with its own WITH clause.
var leadingWith = regexp.MustCompile(`(?is)^\s*(WITH(?:\s+RECURSIVE)?)\s+(.*)$`)

// withRelations prefixes the query with the relations' common table
// expressions, joining a WITH the query has of its own.
func withRelations(ctes []string, query string) string {
	if len(ctes) == 0 {
		return query
	}
	list := strings.Join(ctes, ", ")
	if m := leadingWith.FindStringSubmatch(query); m != nil {
		return m[1] + " " + list + ", " + m[2]
	}
	return "WITH " + list + " " + query
}
