package rewrite

import (
	"errors"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// timeTravelCases pairs every time-travel spelling with the text the parser
// gets. parse_test.go parses each "want" with the real parser.
var timeTravelCases = []struct {
	name, in, want string
}{
	{"version id", "SELECT * FROM t FOR VERSION AS OF 5", "SELECT * FROM t FOR VERSION AS OF 5"},
	{"version tag", "SELECT * FROM t FOR VERSION AS OF 'daily_tag'", "SELECT * FROM t FOR VERSION AS OF 'daily_tag'"},
	{"system_time", "SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-04-16 10:00:00'", "SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-04-16 10:00:00'"},
	{"as of", "SELECT * FROM t AS OF 5", "SELECT * FROM t AS OF 5"},
	{"for timestamp", "SELECT * FROM t FOR TIMESTAMP AS OF '2026-04-16 10:00:00'", "SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-04-16 10:00:00'"},
	{"for time", "SELECT * FROM t FOR TIME AS OF '2026-04-16 10:00:00'", "SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-04-16 10:00:00'"},
	{"lower case", "select * from t for timestamp as of '2026-04-16'", "select * from t FOR SYSTEM_TIME as of '2026-04-16'"},
	{"spark version", "SELECT * FROM t VERSION AS OF 5", "SELECT * FROM t FOR VERSION AS OF 5"},
	{"spark timestamp", "SELECT * FROM t TIMESTAMP AS OF '2026-04-16 10:00:00.123'", "SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-04-16 10:00:00.123'"},
	{"trino typed literal", "SELECT * FROM t FOR TIMESTAMP AS OF TIMESTAMP '2026-04-16 10:00:00 +02:00'",
		"SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-04-16 10:00:00 +02:00'"},
	{"function value", "SELECT * FROM t FOR TIME AS OF DATE_SUB(NOW(), INTERVAL 1 HOUR)", "SELECT * FROM t FOR SYSTEM_TIME AS OF DATE_SUB(NOW(), INTERVAL 1 HOUR)"},
	{"alias with AS", "SELECT x.a FROM t FOR TIMESTAMP AS OF '2026-04-16 10:00:00' AS x", "SELECT x.a FROM t FOR SYSTEM_TIME AS OF '2026-04-16 10:00:00' AS x"},
	{"alias without AS", "SELECT x.a FROM t FOR TIME AS OF '2026-04-16' x WHERE x.a > 1", "SELECT x.a FROM t FOR SYSTEM_TIME AS OF '2026-04-16' x WHERE x.a > 1"},
	{"qualified table", "SELECT * FROM lake.`orders` FOR TIMESTAMP AS OF '2026-04-16'", "SELECT * FROM lake.`orders` FOR SYSTEM_TIME AS OF '2026-04-16'"},
	{"join of two spellings",
		"SELECT * FROM orders FOR TIMESTAMP AS OF '2026-04-16' o JOIN payments FOR VERSION AS OF 3 p ON o.id = p.order_id",
		"SELECT * FROM orders FOR SYSTEM_TIME AS OF '2026-04-16' o JOIN payments FOR VERSION AS OF 3 p ON o.id = p.order_id"},
	{"join of the same table", "SELECT * FROM t VERSION AS OF 2 JOIN t FOR TIME AS OF '2026-04-16' AS b ON t.a = b.a",
		"SELECT * FROM t FOR VERSION AS OF 2 JOIN t FOR SYSTEM_TIME AS OF '2026-04-16' AS b ON t.a = b.a"},
	{"subqueries",
		"SELECT * FROM (SELECT * FROM t FOR TIME AS OF '2026-04-16') s WHERE s.a IN (SELECT a FROM u FOR TIMESTAMP AS OF '2026-04-15')",
		"SELECT * FROM (SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-04-16') s WHERE s.a IN (SELECT a FROM u FOR SYSTEM_TIME AS OF '2026-04-15')"},
	{"common table expression", "WITH c AS (SELECT * FROM t FOR TIME AS OF '2026-04-16') SELECT * FROM c",
		"WITH c AS (SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-04-16') SELECT * FROM c"},
	{"insert select", "INSERT INTO t2 SELECT * FROM t FOR TIMESTAMP AS OF '2026-04-16 10:00:00'",
		"INSERT INTO t2 SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-04-16 10:00:00'"},
	{"describe", "DESCRIBE t FOR TIMESTAMP AS OF '2026-04-16'", "DESCRIBE t FOR SYSTEM_TIME AS OF '2026-04-16'"},
	{"show tables", "SHOW TABLES FOR TIME AS OF '2026-04-16'", "SHOW TABLES FOR SYSTEM_TIME AS OF '2026-04-16'"},
	{"comment inside FOR VERSION", "SELECT * FROM t FOR /* pinned */ VERSION AS OF 5", "SELECT * FROM t FOR VERSION AS OF 5"},
	{"comment inside FOR TIMESTAMP", "SELECT * FROM t FOR -- when\n TIMESTAMP AS OF '2026-04-16'", "SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-04-16'"},
	{"mysql executable comment", "SELECT * FROM t /*!FOR TIMESTAMP AS OF '2026-04-16' */", "SELECT * FROM t /*!FOR SYSTEM_TIME AS OF '2026-04-16' */"},
	{"multi statement", "SELECT * FROM t FOR TIME AS OF '2026-04-16'; SELECT * FROM u FOR TIMESTAMP AS OF '2026-04-15';",
		"SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-04-16'; SELECT * FROM u FOR SYSTEM_TIME AS OF '2026-04-15';"},
	{"prepared text", "PREPARE ps FROM 'SELECT * FROM t FOR TIMESTAMP AS OF ''2026-04-16'''",
		"PREPARE ps FROM 'SELECT * FROM t FOR SYSTEM_TIME AS OF ''2026-04-16'''"},
	{"prepared text with a bind parameter elsewhere", `PREPARE ps FROM "SELECT * FROM t FOR TIME AS OF '2026-04-16' WHERE a = ?"`,
		`PREPARE ps FROM 'SELECT * FROM t FOR SYSTEM_TIME AS OF ''2026-04-16'' WHERE a = ?'`},
	// Spellings inside strings, identifiers and comments are data.
	{"in a string", "SELECT 'FOR TIMESTAMP AS OF ''x''' FROM t", "SELECT 'FOR TIMESTAMP AS OF ''x''' FROM t"},
	{"in a string with escapes", `SELECT 'it\'s FOR TIME AS OF 5 \\' FROM t`, `SELECT 'it\'s FOR TIME AS OF 5 \\' FROM t`},
	{"in a double-quoted string", `SELECT "FOR TIME AS OF ""5""" FROM t`, `SELECT "FOR TIME AS OF ""5""" FROM t`},
	{"in an identifier", "SELECT `FOR TIMESTAMP AS OF` FROM t", "SELECT `FOR TIMESTAMP AS OF` FROM t"},
	{"in a line comment", "-- FOR TIMESTAMP AS OF '1'\nSELECT 1", "-- FOR TIMESTAMP AS OF '1'\nSELECT 1"},
	{"in a hash comment", "SELECT 1 # FOR TIME AS OF ?", "SELECT 1 # FOR TIME AS OF ?"},
	{"in a block comment", "/* FOR TIME AS OF ? */ SELECT 1", "/* FOR TIME AS OF ? */ SELECT 1"},
	{"in an optimizer hint", "SELECT /*+ FOR TIME AS OF ? */ 1", "SELECT /*+ FOR TIME AS OF ? */ 1"},
	{"string next to a real clause", "SELECT 'FOR TIME AS OF' AS c FROM t FOR TIME AS OF '2026-04-16'",
		"SELECT 'FOR TIME AS OF' AS c FROM t FOR SYSTEM_TIME AS OF '2026-04-16'"},
	{"hourly tag after VERSION", "SELECT * FROM t FOR VERSION AS OF '2026-04-16 10'", "SELECT * FROM t FOR VERSION AS OF '2026-04-16 10'"},
	// Incremental reads travel as an AS OF value (between.go).
	{"incremental snapshot ids", "SELECT * FROM `t$audit_log` FOR VERSION BETWEEN 100 AND 120",
		"SELECT * FROM `t$audit_log` FOR SYSTEM_TIME AS OF 'lakesql:between/v/100/120'"},
	{"incremental tags with an alias", "SELECT a.k FROM `t$audit_log` for version between 'day_1' and 'it''s' a WHERE a.k > 1",
		"SELECT a.k FROM `t$audit_log` FOR SYSTEM_TIME AS OF 'lakesql:between/v/day_1/it''s' a WHERE a.k > 1"},
	{"incremental times", "SELECT * FROM `t$audit_log` FOR SYSTEM_TIME BETWEEN '2026-04-16 10:00:00' AND '2026-04-16 11:00:00' AS x",
		"SELECT * FROM `t$audit_log` FOR SYSTEM_TIME AS OF 'lakesql:between/t/2026-04-16 10:00:00/2026-04-16 11:00:00' AS x"},
	{"incremental times spelled FOR TIMESTAMP", "SELECT * FROM `t$audit_log` FOR TIMESTAMP BETWEEN '2026-04-16' AND '2026-04-17'",
		"SELECT * FROM `t$audit_log` FOR SYSTEM_TIME AS OF 'lakesql:between/t/2026-04-16/2026-04-17'"},
	{"BETWEEN of a filter stays", "SELECT * FROM t FOR VERSION AS OF 3 WHERE a BETWEEN 1 AND 2",
		"SELECT * FROM t FOR VERSION AS OF 3 WHERE a BETWEEN 1 AND 2"},
}

func TestRewriteTimeTravel(t *testing.T) {
	for _, tc := range timeTravelCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Rewrite(tc.in)
			if err != nil {
				t.Fatalf("Rewrite(%q): %v", tc.in, err)
			}
			if got.Query != tc.want {
				t.Errorf("Rewrite(%q)\n got %q\nwant %q", tc.in, got.Query, tc.want)
			}
			if got.Overwrite != nil {
				t.Errorf("Overwrite = %+v, want nil", got.Overwrite)
			}
		})
	}
}

// TestRewriteIsIdempotent: the output spellings are ones Rewrite keeps.
func TestRewriteIsIdempotent(t *testing.T) {
	for _, tc := range timeTravelCases {
		again, err := Rewrite(tc.want)
		if err != nil || again.Query != tc.want {
			t.Errorf("Rewrite(%q) = %q, %v; want it unchanged", tc.want, again.Query, err)
		}
	}
}

func TestRewritePassesThroughUntouched(t *testing.T) {
	for _, q := range []string{
		"",
		"SELECT 1",
		"SELECT * FROM t WHERE a = ? AND b = 'x'",
		"SELECT row_number() OVER (PARTITION BY a ORDER BY b) FROM t",
		"SELECT sum(a) OVER w FROM t WINDOW w AS (PARTITION BY b)",
		"SELECT 'DELETE FROM t PARTITION (p1)', `partition` FROM t",
		"-- DELETE FROM t PARTITION (p1)\nSELECT 1",
		"INSERT INTO t VALUES (1, 'INSERT OVERWRITE t VALUES (2)')",
		"INSERT INTO t (a) SELECT a FROM s FOR SYSTEM_TIME AS OF '2026-04-16'",
		"ALTER TABLE t ADD COLUMN partition_key INT",
		"ALTER TABLE t ADD COLUMN `partition` INT COMMENT 'PARTITION (x)'",
		"CREATE TABLE p (a INT) PARTITION BY RANGE (a) (PARTITION p0 VALUES LESS THAN (10))",
		"SELECT CAST(a AS TIMESTAMP) AS ts, version AS v FROM t",
		"SELECT * FROM t FOR UPDATE",
		"PREPARE ps FROM 'SELECT * FROM t WHERE a = ?'",
		"PREPARE ps FROM @q",
		"SET @x := 1; SELECT @x",
		"SELECT 1--1",
		"SELECT 'unterminated",
		"SELECT * FROM t /* unterminated",
	} {
		got, err := Rewrite(q)
		if err != nil {
			t.Errorf("Rewrite(%q): %v", q, err)
			continue
		}
		if got.Query != q || got.Overwrite != nil {
			t.Errorf("Rewrite(%q) = %+v, want the input unchanged", q, got)
		}
	}
}

func TestRewriteDoesNotAllocateWithoutMatch(t *testing.T) {
	queries := []string{
		"SELECT id, amount FROM lake.payments WHERE dt = '2026-04-16' AND merchant_id = 42 ORDER BY id LIMIT 100",
		"SELECT * FROM t FOR SYSTEM_TIME AS OF '2026-04-16 10:00:00' JOIN u AS OF 5 ON t.a = u.a",
		"INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y'); COMMIT",
	}
	for _, q := range queries {
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := Rewrite(q); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("Rewrite(%q) allocates %.0f times, want 0", q, allocs)
		}
	}
}

// errorCases are texts Rewrite refuses; want is part of the message.
var errorCases = []struct {
	name, in string
	class    error
	want     string
}{
	{"as of ?", "SELECT * FROM t AS OF ?", lakeerr.ErrUnsupported, bindAsOfMessage},
	{"between ?", "SELECT * FROM `t$audit_log` FOR VERSION BETWEEN ? AND 5", lakeerr.ErrUnsupported, "with a bind parameter"},
	{"between an expression", "SELECT * FROM `t$audit_log` FOR VERSION BETWEEN 1+1 AND 5", ErrSyntax, "BETWEEN takes two literals"},
	{"between without AND", "SELECT * FROM `t$audit_log` FOR VERSION BETWEEN 1, 5", ErrSyntax, "BETWEEN takes two literals"},
	{"between a tag with a slash", "SELECT * FROM `t$audit_log` FOR VERSION BETWEEN 'a/b' AND 5", ErrInvalidAsOf, "cannot contain '/'"},
	{"for version as of ?", "SELECT * FROM t FOR VERSION AS OF ?", lakeerr.ErrUnsupported, bindAsOfMessage},
	{"for system_time as of ?", "SELECT * FROM t FOR SYSTEM_TIME AS OF ? AS x", lakeerr.ErrUnsupported, bindAsOfMessage},
	{"for timestamp as of ?", "SELECT * FROM t FOR TIMESTAMP AS OF ?", lakeerr.ErrUnsupported, bindAsOfMessage},
	{"for time as of ?", "SELECT * FROM t FOR TIME AS OF ?", lakeerr.ErrUnsupported, bindAsOfMessage},
	{"spark version as of ?", "SELECT * FROM t VERSION AS OF ?", lakeerr.ErrUnsupported, bindAsOfMessage},
	{"named parameter", "SELECT * FROM t AS OF :snap", lakeerr.ErrUnsupported, bindAsOfMessage},
	{"second table of a join", "SELECT * FROM t AS OF 1 JOIN u AS OF ? ON t.a = u.a", lakeerr.ErrUnsupported, bindAsOfMessage},
	{"in a subquery", "SELECT * FROM t WHERE a IN (SELECT a FROM u FOR VERSION AS OF ?)", lakeerr.ErrUnsupported, bindAsOfMessage},
	{"in a later statement", "SELECT 1; SELECT * FROM t AS OF ?", lakeerr.ErrUnsupported, bindAsOfMessage},
	{"describe", "DESCRIBE t AS OF ?", lakeerr.ErrUnsupported, bindAsOfMessage},
	{"in a prepared text", "PREPARE ps FROM 'SELECT * FROM t AS OF ?'", lakeerr.ErrUnsupported, "PREPARE ps: " + bindAsOfMessage},
	{"in a split prepared text", "PREPARE ps FROM 'SELECT * FROM t ' \"FOR VERSION AS OF ?\"", lakeerr.ErrUnsupported, bindAsOfMessage},

	{"timestamp spelling with an id", "SELECT * FROM t FOR TIMESTAMP AS OF 5", ErrInvalidAsOf, "would read 5 as snapshot id 5; write FOR VERSION AS OF 5"},
	{"time spelling with a quoted id", "SELECT * FROM t FOR TIME AS OF ' 12'", ErrInvalidAsOf, "FOR TIME AS OF ' 12' names a point in time"},
	{"spark timestamp with an id", "SELECT * FROM t TIMESTAMP AS OF 7", ErrInvalidAsOf, "TIMESTAMP AS OF 7 names a point in time"},
	{"version spelling with a date", "SELECT * FROM t FOR VERSION AS OF '2026-04-16'", ErrInvalidAsOf,
		"reads '2026-04-16' as a timestamp; write FOR SYSTEM_TIME AS OF '2026-04-16'"},
	{"spark version with a datetime", "SELECT * FROM t VERSION AS OF '2026-04-16 10:00:00'", ErrInvalidAsOf, "VERSION AS OF '2026-04-16 10:00:00' names a tag"},

	{"select partition", "SELECT * FROM t PARTITION (p1, p2) AS x", lakeerr.ErrUnsupported, "t PARTITION (p1, p2): selecting partitions is not supported"},
	{"select partition in a join", "SELECT * FROM t JOIN u PARTITION (p1) ON t.a = u.a", lakeerr.ErrUnsupported, "filter on the partition columns with WHERE"},
	{"delete partition", "DELETE FROM t PARTITION (p1) WHERE id = 1", lakeerr.ErrUnsupported,
		"rows deleted from every partition; delete a partition's rows with DELETE FROM t WHERE <partition column> = …"},
	{"update partition", "UPDATE t PARTITION (p1) SET a = 1", lakeerr.ErrUnsupported, "add WHERE <partition column> = … instead"},
	{"insert partition", "INSERT INTO t PARTITION (p1) VALUES (1)", lakeerr.ErrUnsupported, "INSERT OVERWRITE t PARTITION (<column> = <value>)"},
	{"hive static insert", "INSERT INTO t PARTITION (dt='2026-04-16') SELECT a FROM s", lakeerr.ErrUnsupported, "t PARTITION (dt='2026-04-16')"},
	{"replace partition", "REPLACE INTO t PARTITION (p1) VALUES (1)", lakeerr.ErrUnsupported, "REPLACE … t PARTITION (p1)"},
	{"insert from a partition", "INSERT INTO t SELECT * FROM s PARTITION (p1)", lakeerr.ErrUnsupported, "s PARTITION (p1): selecting partitions"},
	{"partition in an executable comment", "DELETE FROM t /*!50100 PARTITION (p1) */ WHERE a = 1", lakeerr.ErrUnsupported, "DELETE … t PARTITION (p1)"},
	{"alter drop partition", "ALTER TABLE t DROP PARTITION p1, p2", lakeerr.ErrUnsupported, "ALTER TABLE t DROP PARTITION is not supported"},
	{"alter truncate partition", "alter table lake.t truncate partition p1 tablespace", lakeerr.ErrUnsupported,
		"delete a partition's rows with DELETE FROM lake.t WHERE <partition column>"},
	{"alter exchange partition", "ALTER TABLE t EXCHANGE PARTITION p1 WITH TABLE t2", lakeerr.ErrUnsupported,
		"replace a partition with INSERT OVERWRITE t PARTITION (<column> = <value>) SELECT … FROM <other table>"},
	{"alter add partition", "ALTER TABLE t ADD PARTITION (PARTITION p3 VALUES LESS THAN (2002))", lakeerr.ErrUnsupported, "ALTER TABLE t … ADD PARTITION is not supported"},
	{"alter partition by", "ALTER TABLE t PARTITION BY HASH(a) PARTITIONS 4", lakeerr.ErrUnsupported, "ALTER TABLE t … PARTITION is not supported"},
	{"alter remove partitioning", "ALTER TABLE t REMOVE PARTITIONING", lakeerr.ErrUnsupported, "REMOVE PARTITIONING is not supported"},
}

func TestRewriteErrors(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Rewrite(tc.in)
			if err == nil {
				t.Fatalf("Rewrite(%q) = %+v, want an error", tc.in, got)
			}
			if !errors.Is(err, tc.class) {
				t.Errorf("error %q is not %v", err, tc.class)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %T is not an *Error", err)
			}
			if got != (Result{}) {
				t.Errorf("Result = %+v, want zero on error", got)
			}
		})
	}
}

// MySQL keeps the backslash of \% and \_; vitess drops it unless it is
// doubled. Other escapes, and an escaped backslash before % or _, stay.
func TestRewriteKeepsPatternEscapes(t *testing.T) {
	for in, want := range map[string]string{
		`SELECT * FROM t WHERE v LIKE '50\%'`:         `SELECT * FROM t WHERE v LIKE '50\\%'`,
		`INSERT INTO t VALUES ('a\_b', "c\%", 'd\n')`: `INSERT INTO t VALUES ('a\\_b', "c\\%", 'd\n')`,
		`SELECT 'a\\%', 'b\'\%', '%_'`:                `SELECT 'a\\%', 'b\'\\%', '%_'`,
		"SELECT `x\\%` FROM t -- '\\%'":               "SELECT `x\\%` FROM t -- '\\%'",
	} {
		r, err := Rewrite(in)
		if err != nil || r.Query != want {
			t.Errorf("Rewrite(%s) = %q, %v; want %s", in, r.Query, err, want)
		}
	}
}
