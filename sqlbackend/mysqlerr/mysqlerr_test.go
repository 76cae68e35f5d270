package mysqlerr

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/planner/ddl"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

func TestFromClassifies(t *testing.T) {
	for _, c := range []struct {
		err   error
		num   int
		state string
	}{
		{fmt.Errorf("commit to d.t: %w", lakeerr.ErrRetryableConflict), mysql.ERLockDeadlock, mysql.SSLockDeadlock},
		{fmt.Errorf("put snapshot-3: %w", lakeerr.ErrUnknownOutcome), ErrorDuringCommit, mysql.SSUnknownSQLState},
		{fmt.Errorf("data-1.parquet: %w", lakeerr.ErrCorruption), erGetErrMsg, mysql.SSUnknownSQLState},
		{fmt.Errorf("%w: changelog-producer", lakeerr.ErrUnsupported), mysql.ERNotSupportedYet, mysql.SSClientError},
		{fmt.Errorf("d.t: %w", catalog.ErrTableExists), mysql.ERTableExists, "42S01"},
		{fmt.Errorf("list schemas: %w", context.Canceled), mysql.ERQueryInterrupted, mysql.SSQueryInterrupted},
		{errors.Join(fmt.Errorf("duckexec: %w", context.Canceled), errors.New("INTERRUPT Error: Interrupted!")), mysql.ERQueryInterrupted, mysql.SSQueryInterrupted},
	} {
		got := sql.CastSQLError(From(c.err))
		if got.Num != c.num || got.State != c.state || got.Message != c.err.Error() {
			t.Errorf("From(%v) = %d %s %q, want %d %s with the error's message", c.err, got.Num, got.State, got.Message, c.num, c.state)
		}
	}
}

func TestFromKeepsWhatIsNoStorageClass(t *testing.T) {
	if From(nil) != nil {
		t.Error("From(nil) is not nil")
	}
	plain := errors.New("disk full")
	if got := From(plain); got != plain {
		t.Errorf("From(%v) = %v, want it unchanged", plain, got)
	}
	already := mysql.NewSQLError(mysql.ERNoSuchTable, "42S02", "no t")
	if got := From(fmt.Errorf("open: %w", already)); got != already {
		t.Errorf("a wrapped MySQL error became %v, want the MySQL error itself", got)
	}
}

// Index errors keep MySQL's own text, without the context they are
// wrapped in, and get MySQL's numbers.
func TestFromKeyErrors(t *testing.T) {
	for _, c := range []struct {
		kind error
		num  int
		text string
	}{
		{ddl.ErrDuplicateKeyName, mysql.ERDupKeyName, "Duplicate key name 'i'"},
		{ddl.ErrKeyColumnNotFound, mysql.ERKeyColumnDoesNotExist, "Key column 'x' doesn't exist in table"},
		{ddl.ErrKeyNotFound, mysql.ERCantDropFieldOrKey, "Can't DROP 'i'; check that column/key exists"},
	} {
		err := fmt.Errorf("alter table d.t: %w", &ddl.KeyError{Kind: c.kind, Message: c.text})
		got := sql.CastSQLError(From(err))
		if got.Num != c.num || got.State != mysql.SSClientError || got.Message != c.text {
			t.Errorf("From(%v) = %d %s %q, want %d %s %q", err, got.Num, got.State, got.Message, c.num, mysql.SSClientError, c.text)
		}
	}
}
