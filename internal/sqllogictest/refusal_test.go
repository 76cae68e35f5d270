package sqllogictest

import (
	"errors"
	"testing"

	"github.com/go-sql-driver/mysql"
)

func TestLakesqlRefusals(t *testing.T) {
	// The errors are lakesql's answers to the corpus's statements.
	secondary := &mysql.MySQLError{Number: 1235, Message: "secondary indexes are not supported yet: Paimon tables have no index but the primary key (index t1i1 (x) on t1); queries prune by partition, bucket and file statistics"}
	syntax := &mysql.MySQLError{Number: 1064, Message: "syntax error at position 27 near 'UPDATE'"}
	for _, tc := range []struct {
		statement string
		err       error
		refused   bool
	}{
		{"CREATE INDEX t1i1 ON t1(x)", secondary, true},
		{"CREATE UNIQUE INDEX idx_tab0_0 ON tab0 (col3 DESC)", secondary, true},
		{"CREATE INDEX t1i1 ON t1(x)", syntax, false},
		{"CREATE TABLE t3(z INTEGER UNIQUE)", secondary, true},
		{"CREATE TABLE t3(z INTEGER)", &mysql.MySQLError{Number: 1235, Message: "CHECK constraints are not supported yet"}, false},
		{"CREATE TABLE t3(z INTEGER)", &mysql.MySQLError{Number: 1050, Message: "table already exists"}, false},
		{"DROP INDEX t1i1;", syntax, true},
		{"CREATE TRIGGER t1r1 UPDATE ON t1 BEGIN SELECT 1; END;", syntax, true},
		{"DROP TRIGGER t1r1", &mysql.MySQLError{Number: 1105, Message: `trigger "t1r1" does not exist`}, true},
		// UPDATE and DELETE of append tables work: no error of theirs
		// is a refusal.
		{"DELETE FROM t1 WHERE x > 0", &mysql.MySQLError{Number: 1235, Message: "removing more than 4194304 single rows of append table t1 in one statement"}, false},
		{"UPDATE t1 SET x=2 WHERE x>0", &mysql.MySQLError{Number: 1235, Message: "secondary indexes are not supported yet"}, false},
		{"SELECT * FROM t1", secondary, false},
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
