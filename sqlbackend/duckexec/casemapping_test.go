//go:build duckdb_arrow && cgo

package duckexec

import (
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/internal/testkit/gmsplan"
	"github.com/lakesql/lakesql/sqlbackend/duckplan"
)

// TestCaseMappingOfEveryCodePoint runs the translation of UPPER and LOWER
// on DuckDB over every Unicode scalar value, one per row, and compares
// each with GMS's UPPER and LOWER of it. Both map code point by code
// point, so this covers every string.
func TestCaseMappingOfEveryCodePoint(t *testing.T) {
	h := gmsplan.New(t)
	h.Exec(t, "CREATE TABLE cp (s VARCHAR(4))")
	n, err := h.Plan("SELECT s, UPPER(s), LOWER(s) FROM cp")
	if err != nil {
		t.Fatal(err)
	}
	q, _, err := duckplan.Translate(n, gmsplan.IsTableRead)
	if err != nil {
		t.Fatal(err)
	}
	db := openDuck(t)
	mustExec(t, db, "CREATE VIEW t0 AS SELECT chr(i::INTEGER) AS c0 FROM range(1, 1114112) AS r(i) WHERE i NOT BETWEEN 55296 AND 57343")
	rows, err := db.Query(q.SQL)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var s, upper, lower string
		if err := rows.Scan(&s, &upper, &lower); err != nil {
			t.Fatal(err)
		}
		seen++
		lit := expression.NewLiteral(s, types.LongText)
		for _, c := range []struct {
			fn   sql.Expression
			duck string
		}{{function.NewUpper(lit), upper}, {function.NewLower(lit), lower}} {
			want, err := c.fn.Eval(h.Ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if want != c.duck {
				t.Errorf("%s of %q (U+%04X): DuckDB %q, GMS %q", c.fn, s, []rune(s)[0], c.duck, want)
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if seen != 0x110000-1-2048 {
		t.Fatalf("%d code points compared", seen)
	}
}
