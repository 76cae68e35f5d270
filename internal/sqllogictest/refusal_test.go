package sqllogictest

import (
	"errors"
	"testing"

	"github.com/go-sql-driver/mysql"
)

func TestLakesqlRefusals(t *testing.T) {
	// The errors are lakesql's answers to the corpus's statements.
	unique := &mysql.MySQLError{Number: 1235, Message: "index (z) on t3: unsupported: UNIQUE indexes: a Paimon file index only lets reads skip files and enforces nothing; a table's unique key is its PRIMARY KEY"}
	syntax := &mysql.MySQLError{Number: 1064, Message: "syntax error at position 27 near 'UPDATE'"}
	for _, tc := range []struct {
		statement string
		err       error
		refused   bool
	}{
		{"CREATE INDEX t1i1 ON t1(x)", unique, true},
		{"CREATE INDEX idx_tab2_0 ON tab2 (col0,col3)", &mysql.MySQLError{Number: 1235, Message: "alter table d.tab2: unsupported: indexes of several columns: a Paimon file index covers one column; declare one index per column"}, true},
		{"CREATE INDEX idx_tab2_0 ON tab2 (col0)", &mysql.MySQLError{Number: 1235, Message: "CHECK constraints are not supported yet"}, false},
		{"CREATE UNIQUE INDEX idx_tab0_0 ON tab0 (col3 DESC)", unique, true},
		{"CREATE UNIQUE INDEX t1i1 ON t1(x)", syntax, false},
		{"CREATE TABLE t3(z INTEGER UNIQUE)", unique, true},
		{"CREATE TABLE t3(z INTEGER)", &mysql.MySQLError{Number: 1235, Message: "CHECK constraints are not supported yet"}, false},
		{"CREATE TABLE t3(z INTEGER)", &mysql.MySQLError{Number: 1050, Message: "table already exists"}, false},
		{"DROP INDEX t1i1;", syntax, true},
		{"CREATE TRIGGER t1r1 UPDATE ON t1 BEGIN SELECT 1; END;", syntax, true},
		{"DROP TRIGGER t1r1", &mysql.MySQLError{Number: 1105, Message: `trigger "t1r1" does not exist`}, true},
		// UPDATE and DELETE of append tables work: no error of theirs
		// is a refusal.
		{"DELETE FROM t1 WHERE x > 0", &mysql.MySQLError{Number: 1235, Message: "removing more than 4194304 single rows of append table t1 in one statement"}, false},
		{"UPDATE t1 SET x=2 WHERE x>0", unique, false},
		{"SELECT * FROM t1", unique, false},
		// A lost connection is never a refusal, even for a statement that
		// is refused whatever the error.
		{"CREATE TRIGGER t1r1 UPDATE ON t1 BEGIN SELECT 1; END;", mysql.ErrInvalidConn, false},
		{"DROP INDEX t1i1;", errors.New("dial tcp: connection refused"), false},
	} {
		got := refusedBy(LakesqlRefusals, tc.statement, tc.err) != nil
		if got != tc.refused {
			t.Errorf("refusedBy(%q, %v) = %v, want %v", tc.statement, tc.err, got, tc.refused)
		}
	}
}
