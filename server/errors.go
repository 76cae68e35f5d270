package server

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/lakesql/lakesql/planner/rewrite"
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

// clientError is the MySQL error a client gets for err, which statement
// raised: a 1105 (unknown error) that carries the number of the error
// lakesql raised becomes that error, go-mysql-server's own kinds that it
// sends as 1105 get MySQL's numbers, other syntax errors become 1064, and
// known numbers carry their SQLSTATE.
func clientError(statement string, err error) error {
	if err == nil {
		return nil
	}
	se := sql.CastSQLError(err)
	if numbered, ok := kindError(statement, se); ok {
		return numbered
	}
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

// kindError numbers the go-mysql-server error kinds that CastSQLError
// sends as 1105 (or without MySQL's SQLSTATE and text). Its handler casts
// them before lakesql sees them, so only the text is left to match:
//   - an unknown column is 1054 (42S22);
//   - an unknown database is 1049 (42000), "Unknown database 'x'";
//   - a name longer than MySQL's 64 characters is 1059 (42000);
//   - CALL of a procedure that does not exist is 1305 (42000);
//   - CREATE/ALTER/DROP USER of an account that exists (or does not) is
//     1396;
//   - a privilege go-mysql-server checks without naming the table or
//     database is 1044 for USE and CREATE/ALTER/DROP DATABASE, 1142 for
//     statements on tables and 1227 for the others, the numbers MySQL
//     gives the same refusals.
func kindError(statement string, se *mysql.SQLError) (*mysql.SQLError, bool) {
	msg := se.Message
	switch {
	case se.Num == mysql.ERBadDb && strings.HasPrefix(msg, databaseNotFound):
		return mysql.NewSQLError(mysql.ERBadDb, mysql.SSClientError, "Unknown database '%s'", strings.TrimPrefix(msg, databaseNotFound)), true
	case se.Num != mysql.ERUnknownError:
		return se, false
	case strings.HasPrefix(msg, commandDenied):
		return privilegeError(statement, msg), true
	}
	for _, k := range numberedKinds {
		m := k.text.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		if k.format == "" {
			return mysql.NewSQLError(k.code, k.state, "%s", msg), true
		}
		return mysql.NewSQLError(k.code, k.state, k.format, m[1]), true
	}
	return se, false
}

const (
	// sql.ErrDatabaseNotFound
	databaseNotFound = "database not found: "
	// sql.ErrPrivilegeCheckFailed
	commandDenied = "command denied to user "
)

// numberedKinds are go-mysql-server's error kinds that it sends as 1105,
// by their text, with MySQL's number and SQLSTATE, and MySQL's message
// (a format of the text's first submatch; "" keeps the text).
var numberedKinds = []struct {
	text   *regexp.Regexp
	code   int
	state  string
	format string
}{
	// sql.ErrColumnNotFound and sql.ErrTableColumnNotFound
	{regexp.MustCompile(`^(column ".*" could not be found in any table in scope|table ".*" does not have column ".*")$`),
		mysql.ERBadFieldError, mysql.SSBadFieldError, ""},
	// sql.ErrInvalidIdentifier, raised only for names over
	// sql.MaxIdentifierLength
	{regexp.MustCompile("^invalid identifier: `(.*)`$"), mysql.ERTooLongIdent, mysql.SSClientError, "Identifier name '%s' is too long"},
	// sql.ErrUserCreationFailure, ErrUserAlterFailure, ErrUserDeletionFailure
	{regexp.MustCompile(`^Operation (CREATE|ALTER|DROP) (USER|ROLE) failed for `), erCannotUser, mysql.SSUnknownSQLState, ""},
	// sql.ErrStoredProcedureDoesNotExist
	{regexp.MustCompile(`^stored procedure "(.*)" does not exist$`), mysql.ERSPDoesNotExist, mysql.SSClientError, "PROCEDURE %s does not exist"},
}

func privilegeError(statement, msg string) *mysql.SQLError {
	if db, ok := databaseOf(statement); ok {
		return mysql.NewSQLError(mysql.ERDBAccessDenied, mysql.SSClientError, "Access denied for user %s to database '%s'",
			strings.TrimPrefix(msg, commandDenied), db)
	}
	if onTables(statement) {
		return mysql.NewSQLError(erTableAccessDenied, mysql.SSClientError, "%s %s", statementVerb(statement), msg)
	}
	return mysql.NewSQLError(erSpecificAccessDenied, mysql.SSClientError,
		"Access denied; you need (at least one of) the privilege(s) for this operation: %s", msg)
}

// erCannotUser is ER_CANNOT_USER, "Operation %s failed for %s".
const erCannotUser = 1396

// erSpecificAccessDenied is ER_SPECIFIC_ACCESS_DENIED_ERROR, a global
// privilege (CREATE USER, SUPER, PROCESS, …) the user lacks.
const erSpecificAccessDenied = 1227

// tableVerbs are the statements whose privileges MySQL checks per table
// (error 1142 when refused).
var tableVerbs = map[string]bool{
	"SELECT": true, "INSERT": true, "UPDATE": true, "DELETE": true, "REPLACE": true,
	"LOAD": true, "TABLE": true, "WITH": true, "TRUNCATE": true,
	"ALTER": true, "CREATE": true, "DROP": true, "RENAME": true,
}

// schemaObjects are the objects after CREATE, ALTER or DROP that are not
// tables.
var schemaObjects = map[string]bool{
	"USER": true, "ROLE": true, "DATABASE": true, "SCHEMA": true, "EVENT": true,
	"PROCEDURE": true, "FUNCTION": true, "TRIGGER": true,
}

// onTables reports whether statement is one MySQL checks table
// privileges for.
func onTables(statement string) bool {
	words := leadingWords(statement)
	if len(words) == 0 || !tableVerbs[strings.ToUpper(words[0])] {
		return false
	}
	return len(words) < 2 || !schemaObjects[strings.ToUpper(words[1])]
}

// databaseOf is the database a USE or CREATE/ALTER/DROP DATABASE (or
// SCHEMA) statement names.
func databaseOf(statement string) (string, bool) {
	words := leadingWords(statement)
	if len(words) < 2 {
		return "", false
	}
	first := strings.ToUpper(words[0])
	if first == "USE" {
		return strings.Trim(words[1], "`;"), true
	}
	if len(words) < 3 || !(first == "CREATE" || first == "ALTER" || first == "DROP") {
		return "", false
	}
	if object := strings.ToUpper(words[1]); object != "DATABASE" && object != "SCHEMA" {
		return "", false
	}
	rest := words[2:]
	for len(rest) > 1 && slices.Contains([]string{"IF", "NOT", "EXISTS"}, strings.ToUpper(rest[0])) {
		rest = rest[1:]
	}
	return strings.Trim(rest[0], "`;"), true
}

// statementVerb is the statement's first word, as MySQL names the
// command in a refusal ("INSERT command denied to user …").
func statementVerb(statement string) string {
	words := leadingWords(statement)
	if len(words) == 0 {
		return ""
	}
	return strings.ToUpper(words[0])
}

// leadingWordsBytes bounds the text leadingWords looks at: the words it
// is asked for fit, and a refused multi-megabyte INSERT is not split.
const leadingWordsBytes = 512

// leadingWords is the first words of statement, as written, after its
// leading comments (rewrite.StatementStart).
func leadingWords(statement string) []string {
	start := rewrite.StatementStart(statement)
	return strings.Fields(start[:min(len(start), leadingWordsBytes)])
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
