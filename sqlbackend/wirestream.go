package sqlbackend

import (
	"context"
	"errors"
	"io"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"github.com/lakesql/lakesql/sqlbackend/duckplan"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
)

// WireSpool sends a batch of result rows, with the result's column
// definitions, to the client of a statement: the callback
// vitess gives go-mysql-server's handler, which writes the column
// definitions with the first batch only and the end of the result once
// the handler returns.
type WireSpool func(result *sqltypes.Result, more bool) error

type wireSpoolKey struct{}

// wireSpool is a statement's result callback and whether it may keep the
// rows it is given.
type wireSpool struct {
	send      WireSpool
	keepsRows bool
}

// WithWireSpool gives the statement of ctx the client's result callback.
// A statement DuckDB runs whole then writes its rows to the client
// itself, as DuckDB's batches encode, and hands GMS's handler none
// (streamedResult). The rows are the text GMS would send: vitess turns
// them into the binary protocol's for a prepared statement, as it does
// GMS's. keepsRows says the callback may keep the rows after it returns
// (vitess's server-side cursor of a prepared statement does), so each
// batch is handed over in memory of its own.
func WithWireSpool(ctx context.Context, spool WireSpool, keepsRows bool) context.Context {
	return context.WithValue(WithWireResult(ctx), wireSpoolKey{}, wireSpool{send: spool, keepsRows: keepsRows})
}

func wireSpoolOf(ctx context.Context) (wireSpool, bool) {
	spool, ok := ctx.Value(wireSpoolKey{}).(wireSpool)
	return spool, ok
}

// streamedResult runs a statement whose whole result is a vectorNode's
// on DuckDB's text path and writes its rows to the client straight from
// DuckDB's batches. ok is false when the statement cannot be streamed so
// (no spool, an executor without the text path, a column it does not
// encode), and the caller reads it as rows.
func streamedResult(ctx *sql.Context, source sql.Node, schema sql.Schema) (it sql.RowIter, ok bool, err error) {
	spool, hasSpool := wireSpoolOf(ctx)
	v, isVector := source.(*vectorNode)
	if !hasSpool || !isVector {
		return nil, false, nil
	}
	executor, canText := v.backend.opts.Executor.(duckplan.TextExecutor)
	if !canText {
		return nil, false, nil
	}
	sources, err := v.sources(ctx)
	if errors.Is(err, duckplan.ErrUnsupported) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	rows, err := executor.RunText(ctx, v.query, sources)
	if errors.Is(err, duckplan.ErrUnsupported) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	return &spooledRows{rows: rows, spool: spool, fields: resultFields(ctx, schema)}, true, nil
}

// spooledRows writes every batch of its rows to the client at its first
// Next and then ends, as a result of no rows, GMS's handler adding the
// result's end. A failure before the first batch is sent reaches the
// client as the statement's error; after it, as with GMS's own batches,
// the client's result breaks off.
type spooledRows struct {
	rows   duckplan.TextRows
	spool  wireSpool
	fields []*querypb.Field
	sent   bool
}

func (it *spooledRows) Next(ctx *sql.Context) (sql.Row, error) {
	if it.sent {
		return nil, io.EOF
	}
	it.sent = true
	for {
		batch, err := it.rows.Next(ctx)
		if err == io.EOF {
			return nil, io.EOF
		}
		if err != nil {
			return nil, mysqlerr.From(err)
		}
		if it.spool.keepsRows {
			batch = detached(batch)
		}
		if err := it.spool.send(&sqltypes.Result{Fields: it.fields, Rows: batch}, false); err != nil {
			return nil, err
		}
	}
}

// detached is a copy of rows in memory of its own: TextRows reuses its
// batch's.
func detached(rows [][]sqltypes.Value) [][]sqltypes.Value {
	size, count := 0, 0
	for _, row := range rows {
		count += len(row)
		for _, v := range row {
			size += len(v.Raw())
		}
	}
	text := make([]byte, 0, size)
	values := make([]sqltypes.Value, 0, count)
	out := make([][]sqltypes.Value, len(rows))
	for i, row := range rows {
		start := len(values)
		for _, v := range row {
			if v.IsNull() {
				values = append(values, sqltypes.NULL)
				continue
			}
			from := len(text)
			text = append(text, v.Raw()...)
			values = append(values, sqltypes.MakeTrusted(v.Type(), text[from:len(text):len(text)]))
		}
		out[i] = values[start:len(values):len(values)]
	}
	return out
}

func (it *spooledRows) Close(*sql.Context) error { return it.rows.Close() }

// resultFields are the column definitions go-mysql-server v0.20.0's
// handler sends for a result of schema (server.schemaToFields, which is
// not exported): the columns' names and sources, wire types, character
// sets (binary for binary types, else character_set_results when set),
// display lengths, flags and decimals.
func resultFields(ctx *sql.Context, schema sql.Schema) []*querypb.Field {
	results := ctx.GetCharacterSetResults()
	fields := make([]*querypb.Field, len(schema))
	for i, c := range schema {
		fields[i] = &querypb.Field{
			Name:         c.Name,
			OrgName:      c.Name,
			Table:        c.Source,
			OrgTable:     c.Source,
			Database:     c.DatabaseSource,
			Type:         c.Type.Type(),
			Charset:      fieldCharset(c.Type, results),
			ColumnLength: c.Type.MaxTextResponseByteLength(ctx),
			Flags:        uint32(fieldFlags(c)),
			Decimals:     fieldDecimals(c.Type),
		}
	}
	return fields
}

func fieldCharset(t sql.Type, results sql.CharacterSetID) uint32 {
	switch {
	case types.IsBinaryType(t):
		return uint32(sql.Collation_binary)
	case results != sql.CharacterSet_Unspecified:
		return uint32(results)
	}
	if collated, ok := t.(sql.TypeWithCollation); ok {
		return uint32(collated.Collation().CharacterSet())
	}
	return uint32(sql.Collation_Default.CharacterSet())
}

func fieldFlags(c *sql.Column) querypb.MySqlFlag {
	var flags querypb.MySqlFlag
	if !c.Nullable {
		flags |= querypb.MySqlFlag_NOT_NULL_FLAG
	}
	if c.AutoIncrement {
		flags |= querypb.MySqlFlag_AUTO_INCREMENT_FLAG
	}
	if c.PrimaryKey {
		flags |= querypb.MySqlFlag_PRI_KEY_FLAG
	}
	if types.IsUnsigned(c.Type) {
		flags |= querypb.MySqlFlag_UNSIGNED_FLAG
	}
	return flags
}

func fieldDecimals(t sql.Type) uint32 {
	switch {
	case types.IsDecimal(t):
		return uint32(t.(sql.DecimalType).Scale())
	case types.IsDatetimeType(t):
		return uint32(t.(sql.DatetimeType).Precision())
	}
	return 0
}
