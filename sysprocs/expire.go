package sysprocs

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/maintenance"
)

// expiredKinds are the file kinds whose deletions expire_snapshots counts
// in its own column, in the order expiry deletes them; snapshot files are
// snapshots_expired.
var expiredKinds = []struct {
	kind   maintenance.FileKind
	column string
}{
	{maintenance.FileKindData, "data_files_deleted"},
	{maintenance.FileKindChangelog, "changelog_files_deleted"},
	{maintenance.FileKindManifest, "manifests_deleted"},
	{maintenance.FileKindIndexFile, "index_files_deleted"},
	{maintenance.FileKindStatistics, "statistics_files_deleted"},
	{maintenance.FileKindManifestList, "manifest_lists_deleted"},
	{maintenance.FileKindIndexManifest, "index_manifests_deleted"},
}

var expireSnapshotsSchema = func() sql.Schema {
	s := sql.Schema{
		{Name: "table", Type: types.LongText},
		{Name: "snapshots_expired", Type: types.Int64},
	}
	for _, k := range expiredKinds {
		s = append(s, &sql.Column{Name: k.column, Type: types.Int64})
	}
	return s
}()

// expireSnapshotsProcedures: sys.expire_snapshots('db.t' [, retain_max]
// [, retain_min] [, older_than] [, max_deletes]).
func (p *Procedures) expireSnapshotsProcedures() []sql.ExternalStoredProcedureDetails {
	return variants("expire_snapshots", expireSnapshotsSchema, false,
		func(ctx *sql.Context, table string) (sql.RowIter, error) {
			return p.expireSnapshots(ctx, table, 0, 0, "", 0)
		},
		func(ctx *sql.Context, table string, retainMax int64) (sql.RowIter, error) {
			return p.expireSnapshots(ctx, table, retainMax, 0, "", 0)
		},
		func(ctx *sql.Context, table string, retainMax, retainMin int64) (sql.RowIter, error) {
			return p.expireSnapshots(ctx, table, retainMax, retainMin, "", 0)
		},
		func(ctx *sql.Context, table string, retainMax, retainMin int64, olderThan string) (sql.RowIter, error) {
			return p.expireSnapshots(ctx, table, retainMax, retainMin, olderThan, 0)
		},
		p.expireSnapshots)
}

func (p *Procedures) expireSnapshots(ctx *sql.Context, tableArg string, retainMax, retainMin int64, olderThan string, maxDeletes int64) (sql.RowIter, error) {
	const proc = "expire_snapshots"
	t, err := p.prepare(ctx, proc, tableArg, needWrite)
	if err != nil {
		return nil, err
	}
	opts := maintenance.ExpireOptions{Now: p.opts.Now}
	if opts.RetainMax, err = optionalCount(proc, "retain_max", retainMax); err != nil {
		return nil, err
	}
	if opts.RetainMin, err = optionalCount(proc, "retain_min", retainMin); err != nil {
		return nil, err
	}
	if opts.MaxDeletes, err = optionalCount(proc, "max_deletes", maxDeletes); err != nil {
		return nil, err
	}
	if opts.OlderThan, err = parseOlderThan(proc, olderThan, sqltypes.SessionLocation(ctx), p.opts.Now()); err != nil {
		return nil, err
	}
	res, err := maintenance.ExpireSnapshots(ctx, p.opts.FileIO, t.dir, opts)
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	p.observe(func(o Observer) { o.SnapshotsExpired(t.db, t.table, res) })
	p.logRun(ctx, proc, t, fmt.Sprintf("expired snapshots [%d, %d), deleted files %v", res.Begin, res.End, res.Deleted))
	row := sql.Row{t.String(), int64(res.SnapshotsExpired())}
	for _, k := range expiredKinds {
		row = append(row, int64(res.Deleted[k.kind]))
	}
	return sql.RowsToRowIter(row), nil
}
