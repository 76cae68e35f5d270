package server

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
)

// sqlStates are the SQLSTATEs MySQL sends with the error numbers clients
// act on. go-mysql-server sends HY000 ("general error") for nearly every
// error, which hides the class drivers key on: JDBC raises
// SQLSyntaxErrorException for class 42, integrity violations for 23.
var sqlStates = map[int]string{
	mysql.ERParseError:      mysql.SSClientError,
	mysql.ERNoSuchTable:     "42S02",
	mysql.ERBadFieldError:   mysql.SSBadFieldError,
	mysql.ERBadDb:           mysql.SSClientError,
	mysql.ERTableExists:     "42S01",
	mysql.ERDupEntry:        "23000",
	mysql.ERBadNullError:    "23000",
	mysql.ERNotSupportedYet: mysql.SSClientError,
	mysql.ERLockDeadlock:    mysql.SSLockDeadlock,
}

// embeddedSQLError finds the number and state of a *mysql.SQLError whose
// text another error carries. go-mysql-server turns every error of its
// parser into sql.ErrSyntaxError with only the text (planbuilder/parse.go),
// which is how lakesql's own parse-time errors (AS OF ?, PARTITION (p)
// selection) and the syntax errors themselves arrive here.
var embeddedSQLError = regexp.MustCompile(`\(errno (\d+)\) \(sqlstate (\w{5})\)`)

// clientError is the MySQL error a client gets for err: a 1105 (unknown
// error) that carries the number of the error lakesql raised becomes that
// error, other syntax errors become 1064, and known numbers carry their
// SQLSTATE.
func clientError(err error) error {
	if err == nil {
		return nil
	}
	se := sql.CastSQLError(err)
	if se.Num == mysql.ERUnknownError {
		if m := embeddedSQLError.FindStringSubmatch(se.Message); m != nil {
			num, _ := strconv.Atoi(m[1])
			se = mysql.NewSQLError(num, m[2], "%s", strings.TrimSpace(embeddedSQLError.ReplaceAllString(se.Message, "")))
		} else if sql.ErrSyntaxError.Is(err) || strings.HasPrefix(se.Message, "syntax error") {
			se = mysql.NewSQLError(mysql.ERParseError, mysql.SSClientError, "%s", se.Message)
		}
	}
	if state, ok := sqlStates[se.Num]; ok && se.State == mysql.SSUnknownSQLState {
		se.State = state
	}
	return se
}
