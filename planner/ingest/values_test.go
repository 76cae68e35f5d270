package ingest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// renderTuples shows the literals of each tuple: N for NULL, i: and d: for
// numbers, s: for strings (quoted with %q).
func renderTuples(t *testing.T, v *ValuesInsert) []string {
	t.Helper()
	var rows []string
	err := v.Each(func(row []Literal) error {
		parts := make([]string, len(row))
		for i, l := range row {
			switch l.Kind {
			case Null:
				parts[i] = "N"
			case Integer:
				parts[i] = "i:" + string(l.Text)
			case DecimalNumber:
				parts[i] = "d:" + string(l.Text)
			case String:
				parts[i] = fmt.Sprintf("s:%q", l.Text)
			}
		}
		rows = append(rows, strings.Join(parts, " "))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestScanValuesInsert(t *testing.T) {
	cases := []struct {
		query, db, table string
		columns          []string
		head             string
		rows             []string
	}{
		{
			query: "INSERT INTO t VALUES (1, -2.50, 'a'), (NULL, .5, '')",
			table: "t", head: "INSERT INTO t VALUES (1, -2.50, 'a')",
			rows: []string{`i:1 d:-2.50 s:"a"`, `N d:.5 s:""`},
		},
		{
			query: "  insert into `my db`.`odd``name` (a,`b c`) value(5.,'it''s'),(007,'\\'\\\\\\n\\%\\_\\0\\q')  ;  ",
			db:    "my db", table: "odd`name", columns: []string{"a", "b c"},
			head: "  insert into `my db`.`odd``name` (a,`b c`) value(5.,'it''s')",
			rows: []string{`d:5. s:"it's"`, `i:007 s:"'\\\n\\%\\_\x00q"`},
		},
		{
			query: "INSERT INTO pay.payments VALUES\n('2024-01-01',\t1)",
			db:    "pay", table: "payments", head: "INSERT INTO pay.payments VALUES\n('2024-01-01',\t1)",
			rows: []string{`s:"2024-01-01" i:1`},
		},
	}
	for _, c := range cases {
		v, ok := ScanValuesInsert(c.query)
		if !ok {
			t.Errorf("%q refused", c.query)
			continue
		}
		if v.Database != c.db || v.Table != c.table || !slices.Equal(v.Columns, c.columns) || v.Head != c.head ||
			v.Rows != len(c.rows) || v.Width != strings.Count(c.rows[0], " ")+1 {
			t.Errorf("%q: %q.%q %q head %q, %d rows of %d", c.query, v.Database, v.Table, v.Columns, v.Head, v.Rows, v.Width)
		}
		if got := renderTuples(t, v); !slices.Equal(got, c.rows) {
			t.Errorf("%q: rows %q, want %q", c.query, got, c.rows)
		}
	}
}

// Every other spelling is left to the SQL parser.
func TestScanValuesInsertRefuses(t *testing.T) {
	for _, q := range []string{
		"INSERT IGNORE INTO t VALUES (1)",
		"INSERT t VALUES (1)",
		"REPLACE INTO t VALUES (1)",
		"INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = 1",
		"INSERT INTO t VALUES (1); SELECT 1",
		"INSERT INTO t VALUES (1) -- comment",
		"INSERT INTO t VALUES (1), (1, 2)",
		"INSERT INTO t VALUES ()",
		"INSERT INTO t VALUES (NOW())",
		"INSERT INTO t VALUES (DEFAULT)",
		"INSERT INTO t VALUES (1 + 1)",
		"INSERT INTO t VALUES (+1)",
		"INSERT INTO t VALUES (- 1)",
		"INSERT INTO t VALUES (1e3)",
		"INSERT INTO t VALUES (0x41)",
		"INSERT INTO t VALUES (X'41')",
		"INSERT INTO t VALUES (_utf8mb4'a')",
		"INSERT INTO t VALUES (\"a\")",
		"INSERT INTO t VALUES ('a' 'b')",
		"INSERT INTO t VALUES ('a)",
		"INSERT INTO t VALUES (NULLX)",
		"INSERT INTO t VALUES (1.2.3)",
		"INSERT INTO t VALUES (TRUE)",
		"INSERT INTO t VALUES ROW(1)",
		"INSERT INTO t SET a = 1",
		"INSERT INTO t SELECT 1",
		"INSERT INTO t PARTITION (p) VALUES (1)",
		"INSERT INTO values VALUES (1)",
		"INSERT INTO t (a, VALUES (1)",
		"INSERT INTO t VALUES (1) AS new",
		"INSERT INTO t VALUES",
		"/* c */ INSERT INTO t VALUES (1)",
	} {
		if v, ok := ScanValuesInsert(q); ok {
			t.Errorf("%q taken: %+v", q, v)
		}
	}
}
