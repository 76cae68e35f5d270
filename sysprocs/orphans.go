package sysprocs

import (
	"fmt"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/maintenance"
)

var orphanSchema = sql.Schema{
	{Name: "table", Type: types.LongText},
	{Name: "file_path", Type: types.LongText, Nullable: true},
	{Name: "last_modified", Type: types.DatetimeMaxPrecision, Nullable: true},
	{Name: "files", Type: types.Int64},
	{Name: "bytes", Type: types.Int64},
	{Name: "deleted", Type: types.Int64},
}

// orphanProcedures: sys.remove_orphan_files('db.t' [, older_than]
// [, dry_run]). Files lakesql writers (SQL sessions, compaction, other
// lakesql servers on the warehouse) have written and not yet committed
// are kept at any older_than, by their write leases; files of Flink or
// Spark writers only by older_than (default: one day before now), which
// must then exceed their longest write-and-commit.
func (p *Procedures) orphanProcedures() []sql.ExternalStoredProcedureDetails {
	return variants("remove_orphan_files", orphanSchema, false,
		func(ctx *sql.Context, table string) (sql.RowIter, error) {
			return p.removeOrphanFiles(ctx, table, "", false)
		},
		func(ctx *sql.Context, table, olderThan string) (sql.RowIter, error) {
			return p.removeOrphanFiles(ctx, table, olderThan, false)
		},
		p.removeOrphanFiles)
}

func (p *Procedures) removeOrphanFiles(ctx *sql.Context, tableArg, olderThan string, dryRun bool) (sql.RowIter, error) {
	const proc = "remove_orphan_files"
	t, err := p.prepare(ctx, proc, tableArg, needWrite)
	if err != nil {
		return nil, err
	}
	loc := sqltypes.SessionLocation(ctx)
	now := p.opts.Now()
	opts := maintenance.OrphanOptions{DryRun: dryRun, Now: func() time.Time { return now }}
	before, err := parseOlderThan(proc, olderThan, loc, now)
	if err != nil {
		return nil, err
	}
	if before != nil {
		// Checked on the datetime, not the age: the age of a datetime
		// centuries ahead overflows time.Duration.
		if before.After(now) {
			return nil, badArgument(proc, "older_than %q is in the future (now is %s): files being written, which no snapshot names yet, would be removed as orphans; give a time before now",
				olderThan, now.In(loc).Format(time.DateTime))
		}
		age := now.Sub(*before)
		opts.OlderThan = &age
	}
	res, err := maintenance.RemoveOrphanFiles(ctx, p.opts.FileIO, t.dir, opts)
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	p.observe(func(o Observer) { o.OrphanFilesDeleted(t.db, t.table, res) })
	p.logRun(ctx, proc, t, fmt.Sprintf("found %d orphan files, deleted %d (%d bytes), dry run %t",
		len(res.Candidates), len(res.Deleted), res.BytesDeleted, dryRun))
	return sql.RowsToRowIter(orphanRows(t, res, loc)...), nil
}

// orphanRows is one row per candidate, then the summary row.
func orphanRows(t tableRef, res maintenance.OrphanResult, loc *time.Location) []sql.Row {
	deleted := make(map[string]bool, len(res.Deleted))
	for _, path := range res.Deleted {
		deleted[path] = true
	}
	rows := make([]sql.Row, 0, len(res.Candidates)+1)
	var bytes int64
	for _, f := range res.Candidates {
		var removed int64
		if deleted[f.Path] {
			removed = 1
		}
		bytes += f.Size
		rows = append(rows, sql.Row{t.String(), f.Path, wallClock(f.ModTime, loc), int64(1), f.Size, removed})
	}
	return append(rows, sql.Row{t.String(), nil, nil, int64(len(res.Candidates)), bytes, int64(len(res.Deleted))})
}

// wallClock renders an instant as a DATETIME in loc: go-mysql-server
// prints a time.Time's fields as they are, so they must already be the
// session's wall clock.
func wallClock(t time.Time, loc *time.Location) time.Time {
	w := t.In(loc)
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), time.UTC)
}
