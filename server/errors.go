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
	if numbered, ok := dataError(se); ok {
		return numbered
	}
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

// dataErrors are the errors go-mysql-server raises for a value a column
// cannot hold, with the number and SQLSTATE MySQL gives them in strict
// mode, and for a privilege the user lacks. go-mysql-server sends them as
// 1105 (HY000), which drivers cannot tell from a server fault (JDBC
// raises DataTruncation for class 22); by then only the text is left, so
// the text of each kind is matched, alone or after the prefix of an error
// that wraps it.
var dataErrors = []struct {
	text  *regexp.Regexp
	code  int
	state string
}{
	// types.ErrLengthBeyondLimit
	{regexp.MustCompile(`(^|: )string '.*' is too large for column '.*'$`), mysql.ERDataTooLong, "22001"},
	// sql.ErrValueOutOfRange
	{regexp.MustCompile(`(^|: )\S+ out of range for \S+$`), mysql.ERWarnDataOutOfRange, "22003"},
	// types.ErrConvertToDecimalLimit
	{regexp.MustCompile(`(^|: )Out of range value for column\b`), mysql.ERWarnDataOutOfRange, "22003"},
	// types.ErrConvertingToTime
	{regexp.MustCompile(`(^|: )Incorrect datetime value: '.*'$`), erTruncatedWrongValue, "22007"},
	// sql.ErrTableAccessDeniedForUser: ER_TABLEACCESS_DENIED_ERROR
	{regexp.MustCompile(`(^|: )Access denied for user \S+ to table '.*'$`), erTableAccessDenied, mysql.SSClientError},
	// sql.ErrDatabaseAccessDeniedForUser: ER_DBACCESS_DENIED_ERROR
	{regexp.MustCompile(`(^|: )Access denied for user \S+ to database '.*'$`), mysql.ERDBAccessDenied, mysql.SSClientError},
}

// erTableAccessDenied is ER_TABLEACCESS_DENIED_ERROR, which vitess does
// not name.
const erTableAccessDenied = 1142

// erTruncatedWrongValue is ER_TRUNCATED_WRONG_VALUE, "Incorrect datetime
// value", which vitess does not name.
const erTruncatedWrongValue = 1292

// dataError numbers a 1105 whose text is one of dataErrors'.
func dataError(se *mysql.SQLError) (*mysql.SQLError, bool) {
	if se.Num != mysql.ERUnknownError {
		return se, false
	}
	for _, d := range dataErrors {
		if d.text.MatchString(se.Message) {
			return mysql.NewSQLError(d.code, d.state, "%s", se.Message), true
		}
	}
	return se, false
}
