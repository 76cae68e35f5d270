//go:build duckdb_arrow && cgo

package duckexec

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/sqlbackend/duckplan"
	"github.com/lakesql/lakesql/storage/spec"
)

// batchRows is the rows of one Arrow batch: DuckDB's vector size, so each
// batch fills whole vectors.
const batchRows = 2048

// rowReader streams the rows of a RowSource as Arrow batches, the
// relation's columns named c0, c1, …. DuckDB pulls batches from one
// thread at a time (its Arrow scan locks the stream), so it needs no lock.
type rowReader struct {
	refs    atomic.Int64
	schema  *arrow.Schema
	rows    duckplan.RowSource // nil: no rows (EXPLAIN binds the view only)
	builder *array.RecordBuilder
	appends []appendFunc
	current arrow.RecordBatch
	err     error
}

// appendFunc appends one non-null spec value to a column builder.
type appendFunc func(b array.Builder, v any) error

func newRowReader(types []columnType, src []duckplan.Column, rows duckplan.RowSource) *rowReader {
	fields := make([]arrow.Field, len(types))
	appends := make([]appendFunc, len(types))
	for i, t := range types {
		fields[i] = arrow.Field{Name: "c" + strconv.Itoa(i), Type: t.arrow, Nullable: true}
		appends[i] = appenderOf(src[i].Type)
	}
	r := &rowReader{schema: arrow.NewSchema(fields, nil), rows: rows, appends: appends}
	r.builder = array.NewRecordBuilder(memory.DefaultAllocator, r.schema)
	r.refs.Store(1)
	return r
}

func (r *rowReader) Retain() { r.refs.Add(1) }

func (r *rowReader) Release() {
	if r.refs.Add(-1) != 0 {
		return
	}
	r.releaseCurrent()
	r.builder.Release()
}

func (r *rowReader) releaseCurrent() {
	if r.current != nil {
		r.current.Release()
		r.current = nil
	}
}

func (r *rowReader) Schema() *arrow.Schema { return r.schema }

// Next reads the next batch of rows; false at the end or on an error.
func (r *rowReader) Next() bool {
	r.releaseCurrent()
	if r.rows == nil || r.err != nil {
		return false
	}
	n, err := r.fill()
	if err != nil && err != io.EOF {
		r.err = err
	}
	batch := r.builder.NewRecordBatch()
	if n == 0 || r.err != nil {
		batch.Release()
		return false
	}
	r.current = batch
	return true
}

// fill appends up to batchRows rows to the builder.
func (r *rowReader) fill() (int, error) {
	for n := range batchRows {
		row, err := r.rows.Next()
		if err != nil {
			return n, err
		}
		if len(row) != len(r.appends) {
			return n, fmt.Errorf("duckexec: row of %d values for %d columns", len(row), len(r.appends))
		}
		for i, v := range row {
			b := r.builder.Field(i)
			if v == nil {
				b.AppendNull()
			} else if err := r.appends[i](b, v); err != nil {
				return n, fmt.Errorf("duckexec: column c%d: %w", i, err)
			}
		}
	}
	return batchRows, nil
}

func (r *rowReader) RecordBatch() arrow.RecordBatch { return r.current }

// Record is RecordBatch, for the interface's older callers.
//
// Deprecated: use RecordBatch.
func (r *rowReader) Record() arrow.RecordBatch { return r.current }

func (r *rowReader) Err() error { return r.err }

var errValueType = errors.New("value of an unexpected Go type")

// appenderOf appends the spec Go values of t (see spec.DataType) to the
// builder of t's Arrow type (typeOf).
func appenderOf(t spec.DataType) appendFunc {
	switch t.Root {
	case spec.Boolean:
		return appendAs(func(b *array.BooleanBuilder, v bool) error { b.Append(v); return nil })
	case spec.TinyInt:
		return appendAs(func(b *array.Int8Builder, v int8) error { b.Append(v); return nil })
	case spec.SmallInt:
		return appendAs(func(b *array.Int16Builder, v int16) error { b.Append(v); return nil })
	case spec.Int:
		return appendAs(func(b *array.Int32Builder, v int32) error { b.Append(v); return nil })
	case spec.BigInt:
		return appendAs(func(b *array.Int64Builder, v int64) error { b.Append(v); return nil })
	case spec.Float:
		return appendAs(func(b *array.Float32Builder, v float32) error { b.Append(v); return nil })
	case spec.Double:
		return appendAs(func(b *array.Float64Builder, v float64) error { b.Append(v); return nil })
	case spec.Char:
		return appendAs(func(b *array.StringBuilder, v string) error { b.Append(sqltypes.TrimCharPadding(v)); return nil })
	case spec.VarChar:
		return appendAs(func(b *array.StringBuilder, v string) error { b.Append(v); return nil })
	case spec.Binary, spec.VarBinary, spec.Blob:
		return appendAs(func(b *array.BinaryBuilder, v []byte) error { b.Append(v); return nil })
	case spec.Date:
		return appendAs(func(b *array.Date32Builder, v spec.DateValue) error { b.Append(arrow.Date32(v)); return nil })
	case spec.Decimal:
		return appendAs(func(b *array.Decimal128Builder, v spec.DecimalValue) error { return appendDecimal(b, t.Scale, v) })
	case spec.Timestamp, spec.TimestampLTZ:
		return appendAs(appendTimestamp)
	}
	return func(array.Builder, any) error { return fmt.Errorf("%w: column type %v", ErrUnsupported, t) }
}

// appendAs adapts a typed append to an appendFunc, refusing values of
// another Go type.
func appendAs[B array.Builder, V any](f func(B, V) error) appendFunc {
	return func(b array.Builder, v any) error {
		x, ok := v.(V)
		if !ok {
			return fmt.Errorf("%w: %T", errValueType, v)
		}
		return f(b.(B), x)
	}
}

func appendDecimal(b *array.Decimal128Builder, scale int, v spec.DecimalValue) error {
	if v.Scale() != scale {
		return fmt.Errorf("decimal %s has scale %d, the column %d", v, v.Scale(), scale)
	}
	b.Append(decimal128.FromBigInt(v.Unscaled()))
	return nil
}

// appendTimestamp appends microseconds since the epoch (for a
// TIMESTAMP_LTZ, of its UTC wall clock); a finer value cannot come from a
// TIMESTAMP(p≤6) column and is refused.
func appendTimestamp(b *array.TimestampBuilder, v spec.TimestampValue) error {
	if v.NanoOfMilli%1000 != 0 {
		return fmt.Errorf("timestamp %s is finer than microseconds", v.Format(9))
	}
	b.Append(arrow.Timestamp(v.Millis*1000 + int64(v.NanoOfMilli/1000)))
	return nil
}

// deletedRowsSchema is the table of deleted rows: each file's path and
// the row numbers of its deleted rows.
var deletedRowsSchema = arrow.NewSchema([]arrow.Field{
	{Name: deletedFileColumn, Type: arrow.BinaryTypes.String},
	{Name: deletedRowColumn, Type: arrow.PrimitiveTypes.Int64},
}, nil)

// deletedRows streams the deleted rows of files, one batch per file.
func deletedRows(files []duckplan.File) (array.RecordReader, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, deletedRowsSchema)
	defer b.Release()
	var batches []arrow.RecordBatch
	defer func() {
		for _, batch := range batches {
			batch.Release()
		}
	}()
	for _, f := range files {
		if len(f.Deleted) == 0 {
			continue
		}
		paths := b.Field(0).(*array.StringBuilder)
		paths.Reserve(len(f.Deleted))
		for range f.Deleted {
			paths.Append(f.Path)
		}
		b.Field(1).(*array.Int64Builder).AppendValues(f.Deleted, nil)
		batches = append(batches, b.NewRecordBatch())
	}
	return array.NewRecordReader(deletedRowsSchema, batches)
}
