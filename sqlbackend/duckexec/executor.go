//go:build duckdb_arrow && cgo

package duckexec

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/array"
	gms "github.com/dolthub/go-mysql-server/sql"
	"github.com/duckdb/duckdb-go/v2"

	"github.com/lakesql/lakesql/sqlbackend/duckplan"
)

// Executor runs translated queries on an in-memory DuckDB database. It is
// safe for concurrent use: each query takes a connection of its own from
// the pool, on which its Arrow views live.
type Executor struct {
	db *sql.DB
	// tables numbers the temporary tables of rows, so that no two queries
	// ever share a name, even on one connection.
	tables atomic.Uint64
}

var _ duckplan.Executor = (*Executor)(nil)

// New opens DuckDB bounded by cfg.
func New(cfg Config) (*Executor, error) {
	db, err := open(cfg)
	if err != nil {
		return nil, err
	}
	return &Executor{db: db}, nil
}

// Close closes DuckDB; queries still running fail.
func (e *Executor) Close() error { return e.db.Close() }

// Run executes q over sources and returns its rows in q.Schema's Go types.
// Cancelling ctx interrupts DuckDB. A column type the executor cannot
// carry either way fails before anything runs, wrapping ErrUnsupported.
func (e *Executor) Run(ctx *gms.Context, q *duckplan.Query, sources []duckplan.Source) (gms.RowIter, error) {
	convert, s, query, err := e.begin(ctx, q, sources)
	if err != nil {
		return nil, err
	}
	pages, first, err := s.openPages(ctx, q, query, e.tableName("result"))
	if err != nil {
		return nil, errors.Join(fmt.Errorf("duckexec: %w", err), s.close())
	}
	rows, err := s.conn.QueryContext(ctx, first)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("duckexec: %w", err), s.close())
	}
	it := &rowIter{rows: rows, pages: pages, session: s, convert: convert}
	if err := it.checkColumns(); err != nil {
		return nil, errors.Join(err, it.Close(ctx))
	}
	return it, nil
}

// begin takes the conversions of q's columns, refusing a column type the
// executor cannot carry before anything runs, and starts q's session
// with its sources' rows.
func (e *Executor) begin(ctx context.Context, q *duckplan.Query, sources []duckplan.Source) ([]convertFunc, *session, string, error) {
	convert, err := converters(q.Schema)
	if err != nil {
		return nil, nil, "", err
	}
	s, query, err := e.start(ctx, q, sources, true)
	return convert, s, query, err
}

// Explain returns DuckDB's plan of q over sources. The rows of sources are
// not opened: their tables are left empty.
func (e *Executor) Explain(ctx *gms.Context, q *duckplan.Query, sources []duckplan.Source) (plan string, err error) {
	s, query, err := e.start(ctx, q, sources, false)
	if err != nil {
		return "", err
	}
	defer func() { err = errors.Join(err, s.close()) }()
	rows, err := s.conn.QueryContext(ctx, "EXPLAIN "+query)
	if err != nil {
		return "", fmt.Errorf("duckexec: %w", err)
	}
	defer rows.Close()
	var out strings.Builder
	for rows.Next() {
		var key, value string
		if err := rows.Scan(&key, &value); err != nil {
			return "", err
		}
		out.WriteString(value)
	}
	return out.String(), rows.Err()
}

// start takes a connection and copies the sources' rows into it (opened
// when openRows, else none), returning the query to run.
func (e *Executor) start(ctx context.Context, q *duckplan.Query, sources []duckplan.Source, openRows bool) (*session, string, error) {
	relations := make([]*relation, len(sources))
	for i := range sources {
		var err error
		if relations[i], err = newRelation(&sources[i], e.tableName("rows")); err != nil {
			return nil, "", err
		}
	}
	conn, err := e.db.Conn(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("duckexec: %w", err)
	}
	s := &session{conn: conn}
	ctes := make([]string, len(relations))
	for i, r := range relations {
		if err := s.register(ctx, r, openRows); err != nil {
			return nil, "", errors.Join(err, s.close())
		}
		ctes[i] = r.cte()
	}
	return s, withRelations(ctes, q.SQL), nil
}

// tableName is a name for a temporary table of kind that no other query
// uses.
func (e *Executor) tableName(kind string) string {
	return fmt.Sprintf("lakesql_%s_%d", kind, e.tables.Add(1))
}

// session is one query's connection and the tables it filled there.
type session struct {
	conn   *sql.Conn
	arrow  *duckdb.Arrow
	tables []string
}

// register copies a relation's rows, if any, and its files' deleted
// rows, if any, into temporary tables of the session. The stream of rows
// is opened only when openRows.
func (s *session) register(ctx context.Context, r *relation, openRows bool) (err error) {
	if r.deleted != "" {
		deleted, err := deletedRows(r.source.Files)
		if err != nil {
			return err
		}
		defer deleted.Release()
		if err := s.copyArrow(ctx, deleted, r.deleted); err != nil {
			return fmt.Errorf("duckexec: the deleted rows of %s: %w", r.source.Name, err)
		}
	}
	if r.table == "" {
		return nil
	}
	var rows duckplan.RowSource
	if openRows {
		if rows, err = r.source.Rows(ctx); err != nil {
			return err
		}
		defer func() { err = errors.Join(err, rows.Close()) }()
	}
	reader := newRowReader(r.types, r.source.Columns, rows)
	defer reader.Release()
	if err := s.copyArrow(ctx, reader, r.table); err != nil {
		return fmt.Errorf("duckexec: the rows of %s: %w", r.source.Name, err)
	}
	return nil
}

// copyArrow copies a stream of batches into a new temporary table of
// the session: the stream is registered as an Arrow view and read once,
// whole. DuckDB scans such a view correctly only when it reads every
// column in order: a scan of some columns reads the wrong ones
// (duckdb/duckdb-go#28, #24), and a second scan finds the stream spent.
// The copy spills under the memory limit like any table.
func (s *session) copyArrow(ctx context.Context, reader array.RecordReader, table string) error {
	if err := s.useArrow(); err != nil {
		return err
	}
	view := table + "_stream"
	release, err := s.arrow.RegisterView(reader, view)
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	defer release()
	_, err = s.conn.ExecContext(ctx, "CREATE TEMP TABLE "+duckplan.QuoteIdent(table)+" AS SELECT * FROM "+duckplan.QuoteIdent(view))
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	s.tables = append(s.tables, table)
	_, err = s.conn.ExecContext(ctx, "DROP VIEW "+duckplan.QuoteIdent(view))
	return err
}

// useArrow opens the Arrow interface of the session's connection. The
// driver connection stays valid past Raw: the session holds the
// connection until close, and nothing else uses it meanwhile.
func (s *session) useArrow() error {
	if s.arrow != nil {
		return nil
	}
	return s.conn.Raw(func(dc any) error {
		c, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("duckexec: %T is not a driver connection", dc)
		}
		var err error
		s.arrow, err = duckdb.NewArrowFromConn(c)
		return err
	})
}

// close drops the session's tables and returns the connection to the
// pool.
func (s *session) close() error {
	var errs []error
	for _, table := range s.tables {
		_, err := s.conn.ExecContext(context.Background(), "DROP TABLE IF EXISTS "+duckplan.QuoteIdent(table))
		errs = append(errs, err)
	}
	errs = append(errs, s.conn.Close())
	return errors.Join(errs...)
}

// rowIter converts DuckDB's rows to q.Schema's Go types.
type rowIter struct {
	rows    *sql.Rows
	pages   *pages
	session *session
	convert []convertFunc
	values  []any
	closed  bool
}

func (it *rowIter) checkColumns() error {
	cols, err := it.rows.Columns()
	if err != nil {
		return err
	}
	// A subtree of no columns (a table read for its rows only) selects
	// one placeholder column: SQL has no SELECT of nothing.
	placeholder := len(it.convert) == 0 && len(cols) == 1
	if len(cols) != len(it.convert) && !placeholder {
		return fmt.Errorf("duckexec: DuckDB returns %d columns, the schema has %d", len(cols), len(it.convert))
	}
	it.values = make([]any, len(cols))
	return nil
}

// Next returns the next row, or io.EOF after the last.
func (it *rowIter) Next(ctx *gms.Context) (gms.Row, error) {
	for !it.rows.Next() {
		if err := it.rows.Err(); err != nil {
			return nil, fmt.Errorf("duckexec: %w", err)
		}
		if !it.pages.more() {
			return nil, io.EOF
		}
		if err := it.nextPage(ctx); err != nil {
			return nil, err
		}
	}
	ptrs := make([]any, len(it.values))
	for i := range it.values {
		ptrs[i] = &it.values[i]
	}
	if err := it.rows.Scan(ptrs...); err != nil {
		return nil, fmt.Errorf("duckexec: %w", err)
	}
	row := make(gms.Row, len(it.convert))
	for i, v := range it.values[:len(it.convert)] {
		if v == nil {
			continue
		}
		var err error
		if row[i], err = it.convert[i](v); err != nil {
			return nil, fmt.Errorf("column %d: %w", i, err)
		}
	}
	return row, nil
}

// nextPage moves to the next page of a paged result.
func (it *rowIter) nextPage(ctx context.Context) error {
	if err := it.rows.Close(); err != nil {
		return fmt.Errorf("duckexec: %w", err)
	}
	rows, err := it.session.conn.QueryContext(ctx, it.pages.page())
	if err != nil {
		return fmt.Errorf("duckexec: %w", err)
	}
	it.rows = rows
	return nil
}

// Close releases the rows and everything the query registered; it is
// safe to call twice.
func (it *rowIter) Close(*gms.Context) error {
	if it.closed {
		return nil
	}
	it.closed = true
	return errors.Join(it.rows.Close(), it.session.close())
}
