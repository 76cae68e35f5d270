package sysprocs

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

var compactSchema = sql.Schema{
	{Name: "table", Type: types.LongText},
	{Name: "snapshot_id", Type: types.Int64, Nullable: true},
	{Name: "files_rewritten", Type: types.Int64},
	{Name: "files_upgraded", Type: types.Int64},
	{Name: "files_written", Type: types.Int64},
	{Name: "bytes_read", Type: types.Int64},
	{Name: "bytes_written", Type: types.Int64},
	{Name: "attempts", Type: types.Int64},
}

// compactProcedures: sys.compact('db.t' [, partitions] [, mode] [,
// options]).
func (p *Procedures) compactProcedures() []sql.ExternalStoredProcedureDetails {
	return variants("compact", compactSchema, false,
		func(ctx *sql.Context, table string) (sql.RowIter, error) {
			return p.compact(ctx, table, "", "", "")
		},
		func(ctx *sql.Context, table, partitions string) (sql.RowIter, error) {
			return p.compact(ctx, table, partitions, "", "")
		},
		func(ctx *sql.Context, table, partitions, mode string) (sql.RowIter, error) {
			return p.compact(ctx, table, partitions, mode, "")
		},
		p.compact)
}

// compact runs one compaction. options are table options for it alone,
// 'key=value,key=value' as Java's compact procedure takes them; only
// compaction options, such as compaction.force-rewrite-all-files = true,
// which rewrites every file once (and so gives old files the file indexes
// declared since).
func (p *Procedures) compact(ctx *sql.Context, tableArg, partitions, mode, options string) (sql.RowIter, error) {
	const proc = "compact"
	t, err := p.prepare(ctx, proc, tableArg, needWrite)
	if err != nil {
		return nil, err
	}
	dynamic, err := compactionOptions(options)
	if err != nil {
		return nil, badArgument(proc, "options %q: %v", options, err)
	}
	// Paimon's compact procedure does a full compaction unless told
	// otherwise when it runs as a batch job, which a CALL is.
	m := compact.Full
	if !isDefault(mode) {
		if m, err = compact.ParseMode(mode); err != nil {
			return nil, badArgument(proc, "mode %q: want 'full' or 'minor'", mode)
		}
	}
	specs, err := compact.ParsePartitions(partitions)
	if err != nil {
		return nil, badArgument(proc, "partitions %q: %v", partitions, err)
	}
	if err := p.checkPartitionKeys(ctx, t, specs); err != nil {
		return nil, err
	}
	log := p.opts.Logger.WithField("table", t.String())
	res, err := compact.Table(ctx, compact.Options{
		FileIO: p.opts.FileIO, TableDir: t.dir, Mode: m, Partitions: specs, DynamicOptions: dynamic,
		Identity: p.compaction, Logf: log.Infof, Now: p.opts.Now, NewUUID: p.opts.NewUUID,
	})
	p.observe(func(o Observer) { o.Compacted(t.db, t.table, res, err) })
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	p.logRun(ctx, proc, t, res.String())
	p.observeBacklog(ctx, t)
	var snapshotID any
	if res.Snapshot != 0 {
		snapshotID = res.Snapshot
	}
	return sql.RowsToRowIter(sql.Row{t.String(), snapshotID, int64(res.FilesRewritten), int64(res.FilesUpgraded),
		int64(res.FilesWritten), res.BytesRead, res.BytesWritten, int64(res.Attempts)}), nil
}

// observeBacklog reports the sorted runs of the table's latest snapshot
// after a compaction, when there is an observer: a server that has not
// planned a whole read of the table since still shows what compaction
// left. Counting them reads the snapshot's manifests; a failure to do so
// is logged and does not fail the compaction, which has committed.
func (p *Procedures) observeBacklog(ctx context.Context, t tableRef) {
	if p.opts.Observer == nil {
		return
	}
	tbl, err := table.Open(ctx, p.opts.FileIO, t.dir)
	var b table.Backlog
	if err == nil {
		b, err = tbl.LatestBacklog(ctx)
	}
	if err != nil {
		p.opts.Logger.WithField("table", t.String()).WithError(err).Warn("sys.compact: cannot count the sorted runs left")
		return
	}
	p.opts.Observer.CompactionBacklog(t.db, t.table, b)
}

// checkPartitionKeys refuses a partition spec naming a column that is not
// a partition key, as a bad argument rather than a storage failure.
func (p *Procedures) checkPartitionKeys(ctx context.Context, t tableRef, specs []map[string]string) error {
	if specs == nil {
		return nil
	}
	s, err := p.latestSchema(ctx, "compact", t)
	if err != nil {
		return err
	}
	for _, spec := range specs {
		for k := range spec {
			if !slices.Contains(s.PartitionKeys, k) {
				return badArgument("compact", "partitions: %s is not a partition key of %s (partition keys: %v)", k, t, s.PartitionKeys)
			}
		}
	}
	return nil
}

// latestSchema reads the table's newest schema.
func (p *Procedures) latestSchema(ctx context.Context, proc string, t tableRef) (*spec.TableSchema, error) {
	tbl, err := table.Open(ctx, p.opts.FileIO, t.dir)
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	s, err := tbl.LatestSchema(ctx)
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	return s, nil
}

// compactionOptions parses 'key=value,key=value' of compaction.* options.
func compactionOptions(text string) (map[string]string, error) {
	if isDefault(text) {
		return nil, nil
	}
	out := map[string]string{}
	for _, pair := range strings.Split(text, ",") {
		key, value, ok := strings.Cut(pair, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case !ok || key == "":
			return nil, fmt.Errorf("%q is not key=value", pair)
		case !strings.HasPrefix(key, "compaction."):
			return nil, fmt.Errorf("%s is not a compaction option", key)
		}
		out[key] = value
	}
	return out, nil
}
