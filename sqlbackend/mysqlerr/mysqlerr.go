// Package mysqlerr turns the failures of lakesql's storage and planner
// into the MySQL errors clients act on (From), and names the MySQL error
// numbers the vitess package does not. The backend, its system tables and
// anything else that hands GMS an error decide the class a client sees
// here, once.
package mysqlerr

import (
	"context"
	"errors"

	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/planner/ddl"
	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/write"
)

// MySQL error numbers the vitess package does not name.
const (
	// ErrorDuringCommit is ER_ERROR_DURING_COMMIT: a commit whose outcome
	// is unknown or that lost for good, and the warnings of commits that
	// wrote less than asked.
	ErrorDuringCommit = 1180
	// OpenAsReadOnly is ER_OPEN_AS_READONLY, "Table '%s' is read only".
	OpenAsReadOnly = 1036
	// erGetErrMsg is ER_GET_ERRMSG: "Got error %d '%s' from %s".
	erGetErrMsg = 1296
)

// From turns a storage error into the MySQL error a client can act on.
// GMS passes a *mysql.SQLError through unchanged (sql.CastSQLError
// type-asserts it), so the class decided here is what the client sees:
//   - a retryable commit conflict is 1213 / SQLSTATE 40001, the code every
//     MySQL client and ORM already retries on;
//   - an unknown commit outcome and a terminal conflict are 1180, with
//     the storage message naming snapshots and commit users;
//   - corruption is an engine error (1296) naming the file, never a crash;
//   - unsupported features are 1235, not-found classes their MySQL codes;
//   - index errors (planner/ddl.KeyError) are 1061, 1072 and 1091 with
//     MySQL's own text;
//   - a statement cancelled by KILL QUERY is 1317.
//
// Errors GMS already knows (its own error kinds) are returned unchanged.
func From(err error) error {
	if err == nil {
		return nil
	}
	var already *mysql.SQLError
	if errors.As(err, &already) {
		return already
	}
	var key *ddl.KeyError
	if errors.As(err, &key) {
		// MySQL's own text: tools match on "Duplicate key name".
		return mysql.NewSQLError(keyErrorCode(key), mysql.SSClientError, "%s", key.Message)
	}
	if code, state, ok := classify(err); ok {
		return mysql.NewSQLError(code, state, "%s", err.Error())
	}
	return err
}

func keyErrorCode(err *ddl.KeyError) int {
	switch {
	case errors.Is(err, ddl.ErrDuplicateKeyName):
		return mysql.ERDupKeyName
	case errors.Is(err, ddl.ErrKeyColumnNotFound):
		return mysql.ERKeyColumnDoesNotExist
	}
	return mysql.ERCantDropFieldOrKey
}

func classify(err error) (code int, state string, ok bool) {
	switch {
	case errors.Is(err, context.Canceled):
		// KILL QUERY, or the client leaving, cancelled the statement
		// wherever it was; MySQL reports each such end as 1317.
		return mysql.ERQueryInterrupted, mysql.SSQueryInterrupted, true
	case errors.Is(err, lakeerr.ErrRetryableConflict):
		return mysql.ERLockDeadlock, mysql.SSLockDeadlock, true
	case errors.Is(err, lakeerr.ErrUnknownOutcome), errors.Is(err, lakeerr.ErrTerminalConflict):
		return ErrorDuringCommit, mysql.SSUnknownSQLState, true
	case errors.Is(err, lakeerr.ErrCorruption):
		return erGetErrMsg, mysql.SSUnknownSQLState, true
	case errors.Is(err, lakeerr.ErrUnsupported):
		return mysql.ERNotSupportedYet, mysql.SSClientError, true
	case errors.Is(err, catalog.ErrInvalidName):
		return mysql.ERWrongTableName, mysql.SSClientError, true
	case errors.Is(err, catalog.ErrColumnNotFound):
		return mysql.ERBadFieldError, mysql.SSBadFieldError, true
	case errors.Is(err, catalog.ErrTableExists):
		return mysql.ERTableExists, "42S01", true
	case errors.Is(err, write.ErrInvalidRow), errors.Is(err, sqltypes.ErrValue):
		return mysql.ERTruncatedWrongValueForField, mysql.SSUnknownSQLState, true
	case errors.Is(err, rewrite.ErrSyntax):
		return mysql.ERParseError, mysql.SSClientError, true
	case errors.Is(err, rewrite.ErrInvalidAsOf):
		return mysql.ERWrongArguments, mysql.SSClientError, true
	case errors.Is(err, catalog.ErrInvalidDefinition):
		return mysql.ERNotSupportedYet, mysql.SSClientError, true
	}
	return 0, "", false
}
