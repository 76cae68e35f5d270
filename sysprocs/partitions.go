package sysprocs

import (
	"errors"
	"fmt"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/maintenance"
	"github.com/lakesql/lakesql/storage/spec"
)

var expirePartitionsSchema = sql.Schema{
	{Name: "table", Type: types.LongText},
	{Name: "partition", Type: types.LongText, Nullable: true},
	{Name: "snapshot_id", Type: types.Int64, Nullable: true},
	{Name: "files_deleted", Type: types.Int64, Nullable: true},
}

// expirePartitionsProcedures: sys.expire_partitions('db.t',
// expiration_time, timestamp_formatter [, timestamp_pattern]), the first
// arguments of Paimon's procedure, in its order.
func (p *Procedures) expirePartitionsProcedures() []sql.ExternalStoredProcedureDetails {
	return variants("expire_partitions", expirePartitionsSchema, false,
		func(ctx *sql.Context, table, expirationTime, formatter string) (sql.RowIter, error) {
			return p.expirePartitions(ctx, table, expirationTime, formatter, "")
		},
		p.expirePartitions)
}

func (p *Procedures) expirePartitions(ctx *sql.Context, tableArg, expirationTime, formatter, pattern string) (sql.RowIter, error) {
	const proc = "expire_partitions"
	t, err := p.prepare(ctx, proc, tableArg, needWrite)
	if err != nil {
		return nil, err
	}
	expiration, err := spec.ParseDuration(expirationTime)
	if err != nil || expiration <= 0 {
		return nil, badArgument(proc, "expiration_time %q is not a positive duration such as '7 d' or '12 h'", expirationTime)
	}
	// Partition values are wall-clock times in whatever zone their writer
	// used; the caller says which by the session time zone.
	loc := sqltypes.SessionLocation(ctx)
	opts := maintenance.PartitionExpireOptions{
		ExpirationTime: expiration, TimestampFormatter: formatter, TimestampPattern: pattern,
		Now: func() time.Time { return p.opts.Now().In(loc) }, NewUUID: p.opts.NewUUID,
	}
	res, err := maintenance.ExpirePartitions(ctx, p.opts.FileIO, t.dir, opts)
	if errors.Is(err, maintenance.ErrNotPartitioned) {
		// storage/maintenance names the table's directory; the caller
		// named the table.
		return nil, badArgument(proc, "table %s is not partitioned; expire_partitions drops whole partitions", t)
	}
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	p.observe(func(o Observer) { o.PartitionsExpired(t.db, t.table, res) })
	p.logRun(ctx, proc, t, fmt.Sprintf("dropped partitions %q in snapshot %d, %d files", res.Partitions, res.SnapshotID, res.FilesDeleted))
	var snapshotID any
	if res.SnapshotID != 0 {
		snapshotID = res.SnapshotID
	}
	rows := make([]sql.Row, 0, len(res.Partitions)+1)
	for _, part := range res.Partitions {
		rows = append(rows, sql.Row{t.String(), part, snapshotID, nil})
	}
	rows = append(rows, sql.Row{t.String(), nil, snapshotID, int64(res.FilesDeleted)})
	return sql.RowsToRowIter(rows...), nil
}
