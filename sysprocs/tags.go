package sysprocs

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/maintenance"
)

var (
	createTagSchema = sql.Schema{
		{Name: "table", Type: types.LongText},
		{Name: "tag", Type: types.LongText},
		{Name: "snapshot_id", Type: types.Int64},
	}
	deleteTagSchema = sql.Schema{
		{Name: "table", Type: types.LongText},
		{Name: "tag", Type: types.LongText},
		{Name: "snapshot_id", Type: types.Int64},
		{Name: "files_deleted", Type: types.Int64},
	}
	expireTagsSchema = sql.Schema{
		{Name: "table", Type: types.LongText},
		{Name: "tag", Type: types.LongText, Nullable: true},
		{Name: "files_deleted", Type: types.Int64, Nullable: true},
	}
)

// tagProcedures: sys.create_tag('db.t', 'tag' [, snapshot_id]
// [, time_retained]), sys.delete_tag('db.t', 'tag') and
// sys.expire_tags('db.t' [, older_than]).
func (p *Procedures) tagProcedures() []sql.ExternalStoredProcedureDetails {
	create := variants("create_tag", createTagSchema, false,
		func(ctx *sql.Context, table, tag string) (sql.RowIter, error) {
			return p.createTag(ctx, table, tag, 0, "")
		},
		func(ctx *sql.Context, table, tag string, snapshotID int64) (sql.RowIter, error) {
			return p.createTag(ctx, table, tag, snapshotID, "")
		},
		p.createTag)
	remove := variants("delete_tag", deleteTagSchema, false, p.deleteTag)
	expire := variants("expire_tags", expireTagsSchema, false,
		func(ctx *sql.Context, table string) (sql.RowIter, error) {
			return p.expireTags(ctx, table, "")
		},
		p.expireTags)
	return append(append(create, remove...), expire...)
}

func (p *Procedures) createTag(ctx *sql.Context, tableArg, tag string, snapshotID int64, timeRetained string) (sql.RowIter, error) {
	const proc = "create_tag"
	t, err := p.prepare(ctx, proc, tableArg, needWrite)
	if err != nil {
		return nil, err
	}
	if err := checkTagName(proc, tag); err != nil {
		return nil, err
	}
	if snapshotID < 0 {
		return nil, badArgument(proc, "snapshot_id %d is out of range; snapshot ids start at 1 (0 or NULL tags the latest)", snapshotID)
	}
	retained, err := parseRetention(proc, timeRetained)
	if err != nil {
		return nil, err
	}
	created, err := maintenance.CreateTag(ctx, p.opts.FileIO, t.dir, tag,
		maintenance.CreateTagOptions{SnapshotID: snapshotID, TimeRetained: retained, Now: p.opts.Now})
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	p.logRun(ctx, proc, t, fmt.Sprintf("created tag %q on snapshot %d", tag, created.ID))
	return sql.RowsToRowIter(sql.Row{t.String(), tag, created.ID}), nil
}

func (p *Procedures) deleteTag(ctx *sql.Context, tableArg, tag string) (sql.RowIter, error) {
	const proc = "delete_tag"
	t, err := p.prepare(ctx, proc, tableArg, needWrite)
	if err != nil {
		return nil, err
	}
	res, err := maintenance.DeleteTag(ctx, p.opts.FileIO, t.dir, tag)
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	p.observe(func(o Observer) { o.FilesDeleted(t.db, t.table, proc, res.Deleted) })
	files := total(res.Deleted)
	if res.FilesLeft != nil {
		ctx.Warn(erUnknownError, "tag %q is deleted; the files only it referenced were left to sys.remove_orphan_files: %v", tag, res.FilesLeft)
	}
	p.logRun(ctx, proc, t, fmt.Sprintf("deleted tag %q of snapshot %d and %d files only it referenced", tag, res.SnapshotID, files))
	return sql.RowsToRowIter(sql.Row{t.String(), tag, res.SnapshotID, files}), nil
}

func (p *Procedures) expireTags(ctx *sql.Context, tableArg, olderThan string) (sql.RowIter, error) {
	const proc = "expire_tags"
	t, err := p.prepare(ctx, proc, tableArg, needWrite)
	if err != nil {
		return nil, err
	}
	opts := maintenance.ExpireTagsOptions{Now: p.opts.Now}
	if opts.OlderThan, err = parseOlderThan(proc, olderThan, sqltypes.SessionLocation(ctx), p.opts.Now()); err != nil {
		return nil, err
	}
	res, err := maintenance.ExpireTags(ctx, p.opts.FileIO, t.dir, opts)
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	p.observe(func(o Observer) { o.FilesDeleted(t.db, t.table, proc, res.Deleted) })
	files := total(res.Deleted)
	p.logRun(ctx, proc, t, fmt.Sprintf("expired tags %q and %d files only they referenced", res.Expired, files))
	rows := make([]sql.Row, 0, len(res.Expired)+1)
	for _, tag := range res.Expired {
		rows = append(rows, sql.Row{t.String(), tag, nil})
	}
	rows = append(rows, sql.Row{t.String(), nil, files})
	return sql.RowsToRowIter(rows...), nil
}

// total sums deletion counts over the file kinds.
func total(deleted map[maintenance.FileKind]int) int64 {
	var n int64
	for _, c := range deleted {
		n += int64(c)
	}
	return n
}
