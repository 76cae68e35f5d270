package gmsfix

import (
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// frames runs the RANGE framer of frame over one partition of rows whose
// only column, the ORDER BY key, holds keys (sorted as order asks), and
// returns each row's frame.
func frames(t *testing.T, frame sql.WindowFrame, order sql.SortOrder, keys ...any) []sql.WindowInterval {
	t.Helper()
	key := expression.NewGetField(0, types.Int64, "k", true)
	def := sql.NewWindowDefinition(nil, sql.SortFields{{Column: key, Order: order}}, frame, "", "")
	f, err := newRangeFramer(def)
	if err != nil {
		t.Fatal(err)
	}
	buf := make(sql.WindowBuffer, len(keys))
	for i, k := range keys {
		buf[i] = sql.Row{k}
	}
	framer, err := f.NewFramer(sql.WindowInterval{Start: 0, End: len(keys)})
	if err != nil {
		t.Fatal(err)
	}
	var out []sql.WindowInterval
	for {
		iv, err := framer.Next(sql.NewEmptyContext(), buf)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, iv)
	}
}

func intervals(bounds ...int) []sql.WindowInterval {
	var out []sql.WindowInterval
	for i := 0; i < len(bounds); i += 2 {
		out = append(out, sql.WindowInterval{Start: bounds[i], End: bounds[i+1]})
	}
	return out
}

// RANGE BETWEEN 1 PRECEDING AND CURRENT ROW: the keys within 1 below (ASC)
// or above (DESC) the row's, through its last peer; a NULL key's frame is
// its NULL peers, and no other frame holds a NULL.
func TestRangeFramerPrecedingToCurrentRow(t *testing.T) {
	one := expression.NewLiteral(int64(1), types.Int64)
	frame := plan.NewRangeNPrecedingToCurrentRowFrame(one)
	if got, want := frames(t, frame, sql.Ascending, nil, nil, int64(1), int64(2), int64(2), int64(5)), intervals(0, 2, 0, 2, 2, 3, 2, 5, 2, 5, 5, 6); !slices.Equal(got, want) {
		t.Errorf("ASC: got %v, want %v", got, want)
	}
	if got, want := frames(t, frame, sql.Descending, int64(5), int64(2), int64(2), int64(1), nil, nil), intervals(0, 1, 1, 3, 1, 3, 1, 4, 4, 6, 4, 6); !slices.Equal(got, want) {
		t.Errorf("DESC: got %v, want %v", got, want)
	}
}

// A frame that starts after it ends is empty, at its start; keys at
// BIGINT's ends are shifted exactly.
func TestRangeFramerFollowing(t *testing.T) {
	frame := plan.NewRangeNFollowingToNFollowingFrame(expression.NewLiteral(int64(2), types.Int64), expression.NewLiteral(int64(3), types.Int64))
	got := frames(t, frame, sql.Ascending, int64(-9223372036854775808), int64(0), int64(2), int64(3), int64(9223372036854775807))
	if want := intervals(1, 1, 2, 4, 4, 4, 4, 4, 5, 5); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// An offset needs one numeric or temporal key, a temporal key an INTERVAL.
func TestRangeFramerRefusals(t *testing.T) {
	one := expression.NewLiteral(int64(1), types.Int64)
	for _, c := range []struct {
		typ  sql.Type
		keys int
		want error
	}{
		{types.Int64, 2, errRangeOrderType},
		{types.Text, 1, errRangeOrderType},
		{types.Date, 1, errRangeTemporalType},
	} {
		var fields sql.SortFields
		for i := 0; i < c.keys; i++ {
			fields = append(fields, sql.SortField{Column: expression.NewGetField(i, c.typ, "k", true)})
		}
		def := sql.NewWindowDefinition(nil, fields, plan.NewRangeNPrecedingToCurrentRowFrame(one), "", "")
		if _, err := newRangeFramer(def); !errors.Is(err, c.want) {
			t.Errorf("%d keys of %s: got %v, want %v", c.keys, c.typ, err, c.want)
		}
	}
}
