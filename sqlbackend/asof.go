package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/snapshot"
)

// parseAsOf reads the AS OF value GMS hands over (a string or a time.Time)
// as a snapshot id, a tag or a timestamp in the session's time zone.
func parseAsOf(ctx *sql.Context, v any) (snapshot.TimeTravel, error) {
	tt, err := rewrite.ParseAsOf(v, sqltypes.SessionLocation(ctx))
	if err != nil {
		return tt, mysql.NewSQLError(mysql.ERWrongArguments, mysql.SSClientError, "%s", err.Error())
	}
	return tt, nil
}
