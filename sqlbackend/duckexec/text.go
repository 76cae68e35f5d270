//go:build duckdb_arrow && cgo

package duckexec

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	gms "github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/dolthub/vitess/go/vt/proto/query"
	bindings "github.com/duckdb/duckdb-go-bindings"

	"github.com/lakesql/lakesql/sqlbackend/duckplan"
)

var _ duckplan.TextExecutor = (*Executor)(nil)

// RunText executes q over sources and returns its rows as the MySQL text
// protocol's values of q.Schema's types, read from DuckDB's streaming
// result. Every value is the text GMS's own encoding gives the Go value
// Run returns for it. A result whose columns all have an encoding of
// DuckDB's own vectors (nativeColumnOf) is read from them; any other
// through Arrow (arrowColumnOf), and a column with neither fails once
// DuckDB has started, wrapping ErrUnsupported.
func (e *Executor) RunText(ctx *gms.Context, q *duckplan.Query, sources []duckplan.Source) (duckplan.TextRows, error) {
	if len(q.Schema) == 0 {
		return nil, fmt.Errorf("%w: a result of no columns", ErrUnsupported)
	}
	convert, s, query, err := e.begin(ctx, q, sources)
	if err != nil {
		return nil, err
	}
	r := &textRows{session: s}
	if err := r.open(ctx, q.Schema, convert, query); err != nil {
		return nil, errors.Join(err, r.Close())
	}
	return r, nil
}

// textRows encodes the chunks of a query's streaming result.
type textRows struct {
	session *session
	stream  *duckStream
	// Exactly one of native and arrow is set: the columns' encodings.
	native []nativeColumn
	arrow  []arrowColumn
	bound  []boundColumn
	batch  textBatch
	closed bool
}

func (r *textRows) open(ctx *gms.Context, schema gms.Schema, convert []convertFunc, query string) (err error) {
	if r.stream, err = r.session.stream(ctx, query); err != nil {
		return err
	}
	types := r.stream.columnTypes()
	defer destroyTypes(types)
	if len(types) != len(schema) {
		return fmt.Errorf("duckexec: DuckDB returns %d columns, the schema has %d", len(types), len(schema))
	}
	r.bound = make([]boundColumn, len(schema))
	if r.native = nativeColumns(ctx, schema, types, convert); r.native != nil {
		return nil
	}
	arrowSchema, err := r.stream.arrowSchema()
	if err != nil {
		return err
	}
	r.arrow = make([]arrowColumn, len(schema))
	for i, col := range schema {
		if r.arrow[i], err = arrowColumnOf(ctx, col.Type, arrowSchema.Field(i).Type, convert[i]); err != nil {
			return fmt.Errorf("result column %q: %w", col.Name, err)
		}
	}
	return nil
}

// nativeColumns are the encodings of every column from DuckDB's vectors,
// nil when a column has none.
func nativeColumns(ctx *gms.Context, schema gms.Schema, types []bindings.LogicalType, convert []convertFunc) []nativeColumn {
	out := make([]nativeColumn, len(schema))
	for i, col := range schema {
		var ok bool
		if out[i], ok = nativeColumnOf(ctx, col.Type, types[i], convert[i]); !ok {
			return nil
		}
	}
	return out
}

// Next encodes the next chunk.
func (r *textRows) Next(ctx *gms.Context) ([][]sqltypes.Value, error) {
	chunk, err := r.stream.Next(ctx)
	if err != nil {
		return nil, err
	}
	rows := int(bindings.DataChunkGetSize(chunk))
	if r.native != nil {
		r.bindNative(chunk, rows)
	} else if err := r.bindArrow(); err != nil {
		return nil, err
	}
	return r.batch.encode(ctx, rows, r.bound)
}

func (r *textRows) bindNative(chunk bindings.DataChunk, rows int) {
	for c, col := range r.native {
		vec := bindings.DataChunkGetVector(chunk, bindings.IdxT(c))
		r.bound[c] = boundColumn{
			wireType:   col.wireType,
			valid:      validityOf(bindings.VectorGetValidity(vec), rows),
			appendText: col.bind(bindings.VectorGetData(vec), rows),
		}
	}
}

func (r *textRows) bindArrow() error {
	rec, err := r.stream.arrowBatch()
	if err != nil {
		return err
	}
	for c, col := range r.arrow {
		arr := rec.Column(c)
		r.bound[c] = boundColumn{wireType: col.wireType, appendText: col.bind(arr)}
		if arr.NullN() > 0 {
			r.bound[c].valid = arr.IsValid
		}
	}
	return nil
}

// validityOf reads a DuckDB validity mask of rows bits (bit i of word
// i/64 set: row i is not NULL); nil, every row valid, for no mask.
func validityOf(mask unsafe.Pointer, rows int) func(int) bool {
	if mask == nil {
		return nil
	}
	words := unsafe.Slice((*uint64)(mask), (rows+63)/64)
	return func(i int) bool { return words[i>>6]>>(i&63)&1 == 1 }
}

// Close ends the query and releases everything it registered; it is safe
// to call twice.
func (r *textRows) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if r.stream != nil {
		r.stream.Close()
	}
	return r.session.close()
}

// boundColumn is a column's encoding bound to one chunk: valid says
// whether row i is not NULL (nil: every row), appendText appends a non-NULL
// value's text.
type boundColumn struct {
	wireType   query.Type
	valid      func(i int) bool
	appendText appendText
}

// appendText appends the text of row i to dst, or says the value is
// NULL.
type appendText func(ctx *gms.Context, dst []byte, i int) (text []byte, null bool, err error)

// textBatch holds one encoded batch; its buffers are reused by the next.
type textBatch struct {
	// text holds the values' bytes. Each value is sliced from it as soon
	// as it is appended: when an append moves text to a larger array, the
	// values before stay in the old one, which nothing writes again.
	text   []byte
	values []sqltypes.Value
	rows   [][]sqltypes.Value
}

func (b *textBatch) encode(ctx *gms.Context, rows int, columns []boundColumn) ([][]sqltypes.Value, error) {
	width := len(columns)
	b.text = b.text[:0]
	b.values = resize(b.values, rows*width)
	for c, col := range columns {
		for i, k := 0, c; i < rows; i, k = i+1, k+width {
			if col.valid != nil && !col.valid(i) {
				b.values[k] = sqltypes.NULL
				continue
			}
			start := len(b.text)
			text, null, err := col.appendText(ctx, b.text, i)
			if err != nil {
				return nil, err
			}
			b.text = text
			if null {
				b.values[k] = sqltypes.NULL
				continue
			}
			b.values[k] = sqltypes.MakeTrusted(col.wireType, text[start:len(text):len(text)])
		}
	}
	b.rows = resize(b.rows, rows)
	for i := range b.rows {
		b.rows[i] = b.values[i*width : (i+1)*width : (i+1)*width]
	}
	return b.rows, nil
}

// resize is s with length n, reusing its array when it is large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// arrowColumn encodes one result column from Arrow: bind binds it to a
// batch's array.
type arrowColumn struct {
	wireType query.Type
	bind     func(arr arrow.Array) appendText
}

// nativeColumn encodes one result column from DuckDB's flat vectors: bind
// binds it to a chunk's vector data of rows values.
type nativeColumn struct {
	wireType query.Type
	bind     func(data unsafe.Pointer, rows int) appendText
}
