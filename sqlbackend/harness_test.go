package sqlbackend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/shopspring/decimal"

	"github.com/lakesql/lakesql/internal/testkit/clocktest"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
)

// harness is an in-process engine over one warehouse, with sessions that
// behave like client connections.
type harness struct {
	t       testing.TB
	backend *Backend
	engine  *sqle.Engine
}

func newHarness(t testing.TB, warehouse string) *harness {
	t.Helper()
	return newHarnessOver(t, warehouse, localio.New())
}

// newHarnessOver is newHarness with the warehouse reached through fsys.
func newHarnessOver(t testing.TB, warehouse string, fsys fileio.FileIO) *harness {
	t.Helper()
	return newHarnessWith(t, warehouse, fsys, func(*Options) {})
}

// newHarnessWith is newHarnessOver with options set by configure; the
// backend is closed when the test ends.
func newHarnessWith(t testing.TB, warehouse string, fsys fileio.FileIO, configure func(*Options)) *harness {
	t.Helper()
	clock := clocktest.New(time.UnixMilli(1_767_225_600_000)) // 2026-01-01, advanced per call
	opts := Options{
		FileIO:    fsys,
		Warehouse: warehouse,
		Now:       clock.Tick(time.Millisecond),
		SpillDir:  t.TempDir(),
	}
	configure(&opts)
	b := New(opts)
	t.Cleanup(b.Close)
	return &harness{t: t, backend: b, engine: NewEngine(b, nil)}
}

// conn is one client session.
type conn struct {
	h       *harness
	session *Session
}

func (h *harness) connect() *conn {
	return &conn{h: h, session: h.backend.NewSession(sql.NewBaseSession())}
}

func (c *conn) context() *sql.Context {
	ctx := sql.NewContext(context.Background(), sql.WithSession(c.session))
	ctx.SetCurrentDatabase(c.session.GetCurrentDatabase())
	return ctx
}

// query runs one statement to completion (draining and closing the
// iterator, which is where autocommit commits) and returns its rows.
func (c *conn) query(q string) ([]sql.Row, error) {
	ctx := c.context()
	ctx = ctx.WithQuery(q)
	_, iter, _, err := c.h.engine.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	var rows []sql.Row
	for {
		r, err := iter.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			_ = iter.Close(ctx)
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, iter.Close(ctx)
}

func (c *conn) mustQuery(q string) []sql.Row {
	c.h.t.Helper()
	rows, err := c.query(q)
	if err != nil {
		c.h.t.Fatalf("%s: %v", q, err)
	}
	return rows
}

func (c *conn) mustExec(qs ...string) {
	c.h.t.Helper()
	for _, q := range qs {
		c.mustQuery(q)
	}
}

// format renders rows as one line each, for comparisons in tests.
// Decimals keep their scale (11.00, not 11), as a MySQL client shows them.
func format(rows []sql.Row) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		values := make([]any, len(r))
		for j, v := range r {
			if d, ok := v.(decimal.Decimal); ok && d.Exponent() < 0 {
				v = d.StringFixed(-d.Exponent())
			}
			values[j] = v
		}
		out[i] = fmt.Sprint(values)
	}
	return out
}
