package server

import (
	"fmt"
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
		se := sql.CastSQLError(clientError(c.err))
		if se.Num != c.code || se.State != c.state || se.Message != c.err.Error() {
			t.Errorf("%v: %d (%s) %q, want %d (%s) with the same text", c.err, se.Num, se.State, se.Message, c.code, c.state)
		}
	}
}
