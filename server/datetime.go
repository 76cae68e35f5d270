package server

import (
	"bytes"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// padFractions makes DATETIME(p) and TIMESTAMP(p) values in text results
// carry exactly p fraction digits, as MySQL sends them
// ("2026-04-17 00:00:00.000000"). go-mysql-server v0.20.0 formats them with
// a layout that drops trailing zeros ("2026-04-17 00:00:00"), which the
// mariadb CLI and other text-protocol clients show as is, although the
// column metadata says 6 decimals.
func padFractions(callback mysql.ResultSpoolFn) mysql.ResultSpoolFn {
	return func(res *sqltypes.Result, more bool) error {
		if res != nil {
			for i, f := range res.Fields {
				if (f.Type == querypb.Type_DATETIME || f.Type == querypb.Type_TIMESTAMP) && f.Decimals > 0 {
					padColumn(res.Rows, i, int(f.Decimals))
				}
			}
		}
		return callback(res, more)
	}
}

func padColumn(rows [][]sqltypes.Value, column, digits int) {
	for _, row := range rows {
		v := row[column]
		if v.IsNull() {
			continue
		}
		if padded, ok := padFraction(v.Raw(), digits); ok {
			row[column] = sqltypes.MakeTrusted(v.Type(), padded)
		}
	}
}

// padFraction appends the missing fraction digits to "YYYY-MM-DD hh:mm:ss[.f…]".
func padFraction(value []byte, digits int) ([]byte, bool) {
	have := 0
	if dot := bytes.LastIndexByte(value, '.'); dot >= 0 {
		have = len(value) - dot - 1
	}
	if have >= digits {
		return nil, false
	}
	out := make([]byte, 0, len(value)+digits-have+1)
	out = append(out, value...)
	if have == 0 {
		out = append(out, '.')
	}
	return append(out, bytes.Repeat([]byte{'0'}, digits-have)...), true
}
