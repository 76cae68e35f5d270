package sqlbackend

import (
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/storage/snapshot"
)

// parseAsOf reads the AS OF value GMS hands over (a string or a time.Time)
// as a snapshot id, a tag or a timestamp in the session's time zone.
func parseAsOf(ctx *sql.Context, v any) (snapshot.TimeTravel, error) {
	tt, err := rewrite.ParseAsOf(v, sessionLocation(ctx))
	if err != nil {
		return tt, mysql.NewSQLError(mysql.ERWrongArguments, mysql.SSClientError, "%s", err.Error())
	}
	return tt, nil
}

// sessionLocation is the session's time_zone; SYSTEM and unknown zones are
// UTC, the zone lakesql servers run in.
func sessionLocation(ctx *sql.Context) *time.Location {
	v, err := ctx.GetSessionVariable(ctx, "time_zone")
	name, _ := v.(string)
	if err != nil || name == "" || name == "SYSTEM" {
		return time.UTC
	}
	if loc, err := time.LoadLocation(name); err == nil {
		return loc
	}
	if t, err := time.Parse("-07:00", name); err == nil {
		_, offset := t.Zone()
		return time.FixedZone(name, offset)
	}
	return time.UTC
}
