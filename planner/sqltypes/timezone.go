package sqltypes

import (
	"time"

	"github.com/dolthub/go-mysql-server/sql"
)

// SessionLocation is the session's time_zone, the zone datetime literals
// in AS OF and procedure arguments are read in: a zone name or a
// "+hh:mm" offset; SYSTEM and unknown zones are UTC, the zone lakesql
// servers run in.
func SessionLocation(ctx *sql.Context) *time.Location {
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
