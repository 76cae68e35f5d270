package sqlbackend

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// typedResult is a query's column types and its rows as a MySQL client
// prints them (each value in its column's type), one line per row.
type typedResult struct {
	types []string
	rows  []string
}

// queryTyped runs q and returns its column types and rows.
func (c *conn) queryTyped(q string) (typedResult, error) {
	ctx := c.context().WithQuery(q)
	schema, iter, _, err := c.h.engine.Query(ctx, q)
	if err != nil {
		return typedResult{}, err
	}
	var res typedResult
	for _, col := range schema {
		res.types = append(res.types, col.Type.String())
	}
	for {
		r, err := iter.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			_ = iter.Close(ctx)
			return typedResult{}, err
		}
		values := make([]string, len(r))
		for i, v := range r {
			text, err := schema[i].Type.SQL(ctx, nil, v)
			if err != nil {
				_ = iter.Close(ctx)
				return typedResult{}, err
			}
			values[i] = text.ToString()
			if v == nil {
				values[i] = "NULL"
			}
		}
		res.rows = append(res.rows, strings.Join(values, " | "))
	}
	return res, iter.Close(ctx)
}

// expectTyped checks q's column types (unless types is nil) and its rows
// (in order when ordered, else as a multiset).
func (c *conn) expectTyped(t *testing.T, q string, ordered bool, types []string, rows ...string) {
	t.Helper()
	got, err := c.queryTyped(q)
	if err != nil {
		t.Errorf("%s: %v", q, err)
		return
	}
	if types != nil && !slices.Equal(got.types, types) {
		t.Errorf("%s: types %v, want %v", q, got.types, types)
	}
	if !ordered {
		slices.Sort(got.rows)
		rows = slices.Clone(rows)
		slices.Sort(rows)
	}
	if !slices.Equal(got.rows, rows) {
		t.Errorf("%s:\n got %q\nwant %q", q, got.rows, rows)
	}
}
