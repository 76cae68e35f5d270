package sysprocs

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/storage/maintenance"
)

var rollbackSchema = sql.Schema{
	{Name: "table", Type: types.LongText},
	{Name: "snapshot_id", Type: types.Int64},
	{Name: "snapshots_deleted", Type: types.Int64},
	{Name: "tags_deleted", Type: types.LongText},
	{Name: "restored", Type: types.Boolean},
}

// rollbackProcedures: sys.rollback_to('db.t', snapshot_id | 'tag').
// go-mysql-server chooses overloads by argument count only, so one string
// argument takes both: a whole number is a snapshot id.
func (p *Procedures) rollbackProcedures() []sql.ExternalStoredProcedureDetails {
	return variants("rollback_to", rollbackSchema, false, p.rollbackTo)
}

func (p *Procedures) rollbackTo(ctx *sql.Context, tableArg, target string) (sql.RowIter, error) {
	const proc = "rollback_to"
	t, err := p.prepare(ctx, proc, tableArg, needWrite)
	if err != nil {
		return nil, err
	}
	to, err := parseRollbackTarget(proc, target)
	if err != nil {
		return nil, err
	}
	res, err := maintenance.RollbackTo(ctx, p.opts.FileIO, t.dir, to)
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	p.logRun(ctx, proc, t, fmt.Sprintf("rolled back to snapshot %d, deleting snapshots %v and tags %q", res.SnapshotID, res.SnapshotsDeleted, res.TagsDeleted))
	var restored int8
	if res.Restored {
		restored = 1
	}
	return sql.RowsToRowIter(sql.Row{t.String(), res.SnapshotID, int64(len(res.SnapshotsDeleted)),
		strings.Join(res.TagsDeleted, ","), restored}), nil
}
