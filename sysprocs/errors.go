package sysprocs

import (
	"context"
	"errors"
	"fmt"

	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/maintenance"
)

// MySQL error numbers the vitess package does not name.
const (
	erTableAccessDenied = 1142 // ER_TABLEACCESS_DENIED_ERROR
	erErrorDuringCommit = 1180 // ER_ERROR_DURING_COMMIT
	erGetErrMsg         = 1296 // ER_GET_ERRMSG
	erSPWrongNoOfArgs   = 1318 // ER_SP_WRONG_NO_OF_ARGS
	erProcAccessDenied  = 1370 // ER_PROCACCESS_DENIED_ERROR
	erUnknownError      = 1105 // ER_UNKNOWN_ERROR, also MySQL's generic warning
)

// badArgument is the error of an argument no retry can make valid.
func badArgument(proc, format string, args ...any) error {
	return mysql.NewSQLError(mysql.ERWrongArguments, mysql.SSClientError, "sys.%s: %s", proc, fmt.Sprintf(format, args...))
}

// mysqlError turns a storage error into the MySQL error a client can act
// on, with the same classes the SQL layer uses for statements: a conflict a
// retry resolves is 1213 / SQLSTATE 40001, which clients already retry.
// The message is the storage error's, which names the table, the
// snapshots and the files involved.
func mysqlError(proc string, err error) error {
	var already *mysql.SQLError
	if err == nil || errors.As(err, &already) {
		return err
	}
	code, state := classify(err)
	return mysql.NewSQLError(code, state, "sys.%s: %s", proc, err.Error())
}

func classify(err error) (code int, state string) {
	switch {
	case errors.Is(err, context.Canceled):
		return mysql.ERQueryInterrupted, mysql.SSQueryInterrupted
	case errors.Is(err, maintenance.ErrWatermarkTimeout), errors.Is(err, context.DeadlineExceeded):
		return mysql.ERQueryTimeout, mysql.SSUnknownSQLState
	case errors.Is(err, lakeerr.ErrRetryableConflict):
		return mysql.ERLockDeadlock, mysql.SSLockDeadlock
	case errors.Is(err, lakeerr.ErrUnknownOutcome), errors.Is(err, lakeerr.ErrTerminalConflict):
		return erErrorDuringCommit, mysql.SSUnknownSQLState
	case errors.Is(err, lakeerr.ErrCorruption):
		return erGetErrMsg, mysql.SSUnknownSQLState
	case errors.Is(err, lakeerr.ErrUnsupported):
		return mysql.ERNotSupportedYet, mysql.SSClientError
	case errors.Is(err, catalog.ErrInvalidName):
		return mysql.ERWrongTableName, mysql.SSClientError
	case errors.Is(err, catalog.ErrTableNotFound):
		return mysql.ERNoSuchTable, mysql.SSUnknownTable
	case errors.Is(err, maintenance.ErrAlreadyExists):
		return mysql.ERDupEntry, mysql.SSDupKey
	// The table was resolved before the call, so what is not found is what
	// an argument named: a tag or a snapshot.
	case errors.Is(err, maintenance.ErrInvalidArgument), errors.Is(err, compact.ErrInvalidPartition), errors.Is(err, lakeerr.ErrNotFound):
		return mysql.ERWrongArguments, mysql.SSClientError
	}
	return mysql.ERUnknownError, mysql.SSUnknownSQLState
}
