package sysprocs

import (
	"fmt"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/maintenance"
)

var waitWatermarkSchema = sql.Schema{
	{Name: "table", Type: types.LongText},
	{Name: "snapshot_id", Type: types.Int64},
}

// waitWatermarkProcedures: sys.wait_watermark('db.t',
// watermark_or_timestamp [, timeout_ms]). It only reads, so it is marked
// read-only and needs SELECT on the table.
func (p *Procedures) waitWatermarkProcedures() []sql.ExternalStoredProcedureDetails {
	return variants("wait_watermark", waitWatermarkSchema, true,
		func(ctx *sql.Context, table, value string) (sql.RowIter, error) {
			return p.waitWatermark(ctx, table, value, 0)
		},
		p.waitWatermark)
}

func (p *Procedures) waitWatermark(ctx *sql.Context, tableArg, value string, timeoutMillis int64) (sql.RowIter, error) {
	const proc = "wait_watermark"
	t, err := p.prepare(ctx, proc, tableArg, needRead)
	if err != nil {
		return nil, err
	}
	want, err := parseWatermark(proc, value, sqltypes.SessionLocation(ctx))
	if err != nil {
		return nil, err
	}
	if timeoutMillis < 0 {
		return nil, badArgument(proc, "timeout_ms %d must not be negative (0 or NULL waits %v)", timeoutMillis, maintenance.DefaultWaitTimeout)
	}
	// ctx is cancelled by KILL QUERY and when the client goes away; the
	// wait's sleeps return early with its error.
	id, err := maintenance.WaitWatermark(ctx, p.opts.FileIO, t.dir, want, maintenance.WaitOptions{
		Timeout: time.Duration(timeoutMillis) * time.Millisecond, PollInterval: p.opts.WaitPollInterval,
		Now: p.opts.Now, Sleep: p.opts.Sleep,
	})
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	p.logRun(ctx, proc, t, fmt.Sprintf("watermark %d reached at snapshot %d", want, id))
	return sql.RowsToRowIter(sql.Row{t.String(), id}), nil
}
