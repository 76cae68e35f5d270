package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// A value a column cannot hold reaches the client with MySQL's number and
// SQLSTATE, also when wrapped; other errors keep theirs.
func TestClientErrorNumbersDataErrors(t *testing.T) {
	for _, c := range []struct {
		err   error
		code  int
		state string
	}{
		{types.ErrLengthBeyondLimit.New("abcdef", "c"), 1406, "22001"},
		{fmt.Errorf("insert into t: %w", types.ErrLengthBeyondLimit.New("abcdef", "c")), 1406, "22001"},
		{sql.ErrValueOutOfRange.New(300, "tinyint"), 1264, "22003"},
		{types.ErrConvertingToTime.New("2024-13-01"), 1292, "22007"},
		{types.ErrConvertToDecimalLimit.New(), 1264, "22003"},
		{sql.ErrTableNotFound.New("t"), 1146, "42S02"},
	} {
		se := sql.CastSQLError(clientError("INSERT INTO t VALUES (1)", c.err))
		if se.Num != c.code || se.State != c.state || se.Message != c.err.Error() {
			t.Errorf("%v: %d (%s) %q, want %d (%s) with the same text", c.err, se.Num, se.State, se.Message, c.code, c.state)
		}
	}
}

// go-mysql-server's own error kinds that it sends as 1105 reach the client
// with the number and SQLSTATE MySQL gives the same failure; a privilege
// refusal's number depends on whether the statement works on tables.
func TestClientErrorNumbersKinds(t *testing.T) {
	denied := sql.ErrPrivilegeCheckFailed.New("'u'@'%'")
	for _, c := range []struct {
		statement string
		err       error
		code      int
		state     string
		text      string
	}{
		{"SELECT nosuch FROM t", sql.ErrColumnNotFound.New("nosuch"), 1054, "42S22", `column "nosuch" could not be found in any table in scope`},
		{"SELECT t.nosuch FROM t", sql.ErrTableColumnNotFound.New("t", "nosuch"), 1054, "42S22", `table "t" does not have column "nosuch"`},
		{"USE nosuchdb", sql.ErrDatabaseNotFound.New("nosuchdb"), 1049, "42000", "Unknown database 'nosuchdb'"},
		{"insert into t values (1)", denied, 1142, "42000", "INSERT command denied to user 'u'@'%'"},
		{"  DROP TABLE t", denied, 1142, "42000", "DROP command denied to user 'u'@'%'"},
		{"CREATE USER x", denied, 1227, "42000", "Access denied; you need (at least one of) the privilege(s) for this operation: command denied to user 'u'@'%'"},
		{"DROP DATABASE IF EXISTS `d`", denied, 1044, "42000", "Access denied for user 'u'@'%' to database 'd'"},
		{"USE d", denied, 1044, "42000", "Access denied for user 'u'@'%' to database 'd'"},
		{"/* from the ORM */ INSERT INTO t VALUES (1)", denied, 1142, "42000", "INSERT command denied to user 'u'@'%'"},
		{"CREATE TABLE " + strings.Repeat("b", 65) + " (a INT)", sql.ErrInvalidIdentifier.New(strings.Repeat("b", 65)), 1059, "42000", "Identifier name '" + strings.Repeat("b", 65) + "' is too long"},
		{"SHOW PROCESSLIST", denied, 1227, "42000", "Access denied; you need (at least one of) the privilege(s) for this operation: command denied to user 'u'@'%'"},
	} {
		se := sql.CastSQLError(clientError(c.statement, c.err))
		if se.Num != c.code || se.State != c.state || se.Message != c.text {
			t.Errorf("%s: %v: %d (%s) %q, want %d (%s) %q", c.statement, c.err, se.Num, se.State, se.Message, c.code, c.state, c.text)
		}
	}
}
