package sqlbackend

import (
	"errors"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/write"
)

// MySQL error numbers the vitess package does not name.
const (
	erErrorDuringCommit = 1180 // ER_ERROR_DURING_COMMIT
	erGetErrMsg         = 1296 // ER_GET_ERRMSG: "Got error %d '%s' from %s"
	erLockDeadlock      = 1213 // ER_LOCK_DEADLOCK, as a warning code
)

// mysqlError turns a storage error into the MySQL error a client can act
// on. GMS passes a *mysql.SQLError through unchanged (sql.CastSQLError
// type-asserts it), so the class decided here is what the client sees:
//   - a retryable commit conflict is 1213 / SQLSTATE 40001, the code every
//     MySQL client and ORM already retries on;
//   - an unknown commit outcome and a terminal conflict are 1180, with
//     the storage message naming snapshots and commit users;
//   - corruption is an engine error (1296) naming the file, never a crash;
//   - unsupported features are 1235, not-found classes their MySQL codes.
//
// Errors GMS already knows (its own error kinds) are returned unchanged.
func mysqlError(err error) error {
	if err == nil {
		return nil
	}
	var already *mysql.SQLError
	if errors.As(err, &already) {
		return already
	}
	if code, state, ok := classify(err); ok {
		return mysql.NewSQLError(code, state, "%s", err.Error())
	}
	return err
}

func classify(err error) (code int, state string, ok bool) {
	switch {
	case errors.Is(err, lakeerr.ErrRetryableConflict):
		return mysql.ERLockDeadlock, mysql.SSLockDeadlock, true
	case errors.Is(err, lakeerr.ErrUnknownOutcome), errors.Is(err, lakeerr.ErrTerminalConflict):
		return erErrorDuringCommit, mysql.SSUnknownSQLState, true
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

// tableNotFound is GMS's own error for a missing table, so that
// information_schema and "did you mean" handling keep working.
func tableNotFound(name string) error { return sql.ErrTableNotFound.New(name) }
