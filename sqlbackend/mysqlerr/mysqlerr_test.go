package mysqlerr

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

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
