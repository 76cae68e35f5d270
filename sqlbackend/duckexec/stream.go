//go:build duckdb_arrow && cgo

package duckexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	bindings "github.com/duckdb/duckdb-go-bindings"
	"github.com/duckdb/duckdb-go/v2"
)

// duckStream is a query's DuckDB streaming result read a chunk at a
// time. DuckDB runs the query as the batches are fetched, so memory
// holds what its operators hold (under the memory limit, spilling) and
// one batch, and the first batch comes before the last is computed;
// duckdb-go's results are all materialized, the whole result held
// outside the memory limit before the first row (see pages). The C API's
// streaming pending result is deprecated, yet DuckDB 1.5 keeps it and
// offers nothing else that streams.
type duckStream struct {
	conn    bindings.Connection
	stmt    bindings.PreparedStatement
	pending bindings.PendingResult
	result  bindings.Result
	// options and schema convert chunks to Arrow (arrowBatch); schema is
	// made once, when first asked for.
	options bindings.ArrowOptions
	schema  *arrow.Schema
	chunk   bindings.DataChunk
	batch   arrow.RecordBatch
	// stopInterrupt unregisters the interruption of DuckDB when ctx ends.
	stopInterrupt func() bool
	done          bool
}

// stream runs query on the session's connection as a streaming result.
// Cancelling ctx interrupts DuckDB, and the fetch under way fails.
func (s *session) stream(ctx context.Context, query string) (*duckStream, error) {
	conn, err := connectionHandle(s.conn.Raw)
	if err != nil {
		return nil, err
	}
	st := &duckStream{conn: conn}
	if err := st.start(ctx, query); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

func (st *duckStream) start(ctx context.Context, query string) error {
	conn := st.conn
	st.stopInterrupt = context.AfterFunc(ctx, func() { bindings.Interrupt(conn) })
	if bindings.Prepare(conn, query, &st.stmt) == bindings.StateError {
		return fmt.Errorf("duckexec: %s", bindings.PrepareError(st.stmt))
	}
	if bindings.PendingPreparedStreaming(st.stmt, &st.pending) == bindings.StateError {
		return fmt.Errorf("duckexec: %s", bindings.PendingError(st.pending))
	}
	if bindings.ExecutePending(st.pending, &st.result) == bindings.StateError {
		return errors.Join(ctx.Err(), fmt.Errorf("duckexec: %s", bindings.ResultError(&st.result)))
	}
	st.options = bindings.ResultGetArrowOptions(&st.result)
	return nil
}

// columnTypes are the result's DuckDB column types, to be destroyed by
// the caller.
func (st *duckStream) columnTypes() []bindings.LogicalType {
	types := make([]bindings.LogicalType, bindings.ColumnCount(&st.result))
	for i := range types {
		types[i] = bindings.ColumnLogicalType(&st.result, bindings.IdxT(i))
	}
	return types
}

// arrowSchema is the result's Arrow schema, made once.
func (st *duckStream) arrowSchema() (*arrow.Schema, error) {
	if st.schema != nil {
		return st.schema, nil
	}
	types := st.columnTypes()
	defer destroyTypes(types)
	names := make([]string, len(types))
	for i := range names {
		names[i] = bindings.ColumnName(&st.result, bindings.IdxT(i))
	}
	schema, errData := bindings.NewArrowSchema(st.options, types, names)
	if err := errorOf(errData); err != nil {
		return nil, fmt.Errorf("duckexec: the result's Arrow schema: %w", err)
	}
	st.schema = schema
	return schema, nil
}

func destroyTypes(types []bindings.LogicalType) {
	for i := range types {
		bindings.DestroyLogicalType(&types[i])
	}
}

// Next returns the next chunk, valid until the next call, or io.EOF
// after the last. Its vectors are flat, as every chunk of a result.
func (st *duckStream) Next(ctx context.Context) (bindings.DataChunk, error) {
	st.release()
	if st.done {
		return bindings.DataChunk{}, io.EOF
	}
	st.chunk = bindings.FetchChunk(st.result)
	if st.chunk.Ptr == nil {
		st.done = true
		if msg := bindings.ResultError(&st.result); msg != "" {
			return bindings.DataChunk{}, errors.Join(ctx.Err(), fmt.Errorf("duckexec: %s", msg))
		}
		return bindings.DataChunk{}, io.EOF
	}
	return st.chunk, nil
}

// arrowBatch is the current chunk as an Arrow batch, valid until the next
// call of Next.
func (st *duckStream) arrowBatch() (arrow.RecordBatch, error) {
	schema, err := st.arrowSchema()
	if err != nil {
		return nil, err
	}
	rec, errData := bindings.DataChunkToArrowArray(st.options, schema, st.chunk)
	if err := errorOf(errData); err != nil {
		return nil, fmt.Errorf("duckexec: a batch of the result as Arrow: %w", err)
	}
	st.batch = rec
	return rec, nil
}

func (st *duckStream) release() {
	if st.batch != nil {
		st.batch.Release()
		st.batch = nil
	}
	if st.chunk.Ptr != nil {
		bindings.DestroyDataChunk(&st.chunk)
		st.chunk = bindings.DataChunk{}
	}
}

// Close ends the query and frees its result; the connection is free for
// the next query.
func (st *duckStream) Close() {
	st.release()
	if st.stopInterrupt != nil {
		st.stopInterrupt()
	}
	bindings.DestroyResult(&st.result)
	bindings.DestroyPending(&st.pending)
	bindings.DestroyPrepare(&st.stmt)
	bindings.DestroyArrowOptions(&st.options)
}

func errorOf(errData bindings.ErrorData) error {
	defer bindings.DestroyErrorData(&errData)
	if !bindings.ErrorDataHasError(errData) {
		return nil
	}
	return errors.New(bindings.ErrorDataMessage(errData))
}

// connectionHandle is the DuckDB connection under a database/sql
// connection of duckdb-go, which keeps it in an unexported field:
// duckdb-go offers no streaming result (its rows and Arrow results are
// materialized). A duckdb-go without the field makes the text path
// refuse, and statements run on the row path.
func connectionHandle(raw func(func(any) error) error) (bindings.Connection, error) {
	var conn bindings.Connection
	err := raw(func(dc any) error {
		c, ok := dc.(*duckdb.Conn)
		if !ok {
			return fmt.Errorf("%w: %T is not a duckdb-go connection", ErrUnsupported, dc)
		}
		field := reflect.ValueOf(c).Elem().FieldByName("conn")
		if !field.IsValid() || field.Type() != reflect.TypeFor[bindings.Connection]() {
			return fmt.Errorf("%w: duckdb-go's connection has no DuckDB handle in field conn", ErrUnsupported)
		}
		conn = *(*bindings.Connection)(unsafe.Pointer(field.UnsafeAddr()))
		return nil
	})
	if err == nil && conn.Ptr == nil {
		err = fmt.Errorf("%w: duckdb-go's connection is closed", ErrUnsupported)
	}
	return conn, err
}
