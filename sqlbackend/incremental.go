package sqlbackend

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/sqlbackend/systables"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
)

// parseBetween reads the AS OF value of an incremental read
// (rewrite.ParseBetween); ok is false for any other AS OF value.
func parseBetween(ctx *sql.Context, v any) (snapshot.Between, bool, error) {
	b, ok, err := rewrite.ParseBetween(v, sqltypes.SessionLocation(ctx))
	return b, ok, mysqlerr.From(err)
}

// incrementalTable serves `t$audit_log FOR VERSION BETWEEN a AND b`: the
// changes committed in the snapshots the range selects, each with its row
// kind, as Paimon's incremental-between scan reads them
// (table.PlanBetween). The range is resolved here, once per statement, so
// that a wrong or expired end is reported before any row is read.
func (d *Database) incrementalTable(ctx *sql.Context, name string, b snapshot.Between) (sql.Table, bool, error) {
	base, kind, _ := strings.Cut(name, "$")
	if !strings.EqualFold(kind, "audit_log") {
		return nil, false, mysql.NewSQLError(mysql.ERNotSupportedYet, mysql.SSClientError,
			"FOR VERSION BETWEEN and FOR SYSTEM_TIME BETWEEN read a table's changes with their row kinds through its audit log: "+
				"SELECT … FROM `%s$audit_log` FOR VERSION BETWEEN …", base)
	}
	stored, ok, err := d.resolveTable(ctx, base)
	if err != nil || !ok {
		return nil, false, err
	}
	read, _ := systables.RowKindOf(kind)
	served, ok, err := d.dataSystemTable(ctx, stored, read, nil)
	if err != nil || !ok {
		return nil, ok, err
	}
	view := served.(*dataSystemView)
	from, to, err := view.base.t.Snapshots().ResolveBetween(ctx, b)
	if errors.Is(err, lakeerr.ErrNotFound) || errors.Is(err, snapshot.ErrReversedRange) {
		return nil, false, mysql.NewSQLError(mysql.ERWrongArguments, mysql.SSClientError, "%s", err.Error())
	}
	if err != nil {
		return nil, false, mysqlerr.From(err)
	}
	view.changes = &snapshot.Between{Start: snapshot.TimeTravel{SnapshotID: from}, End: snapshot.TimeTravel{SnapshotID: to}}
	return view, true, nil
}

// changesText is how EXPLAIN names the snapshots an incremental read reads.
func changesText(b *snapshot.Between) string {
	return fmt.Sprintf("changes of snapshots (%d, %d]", b.Start.SnapshotID, b.End.SnapshotID)
}
