package sqlbackend

import (
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/rowdelete"
	"github.com/lakesql/lakesql/storage/table"
)

// unsupportedf is a MySQL "not supported yet" error.
func unsupportedf(format string, args ...any) error {
	return mysql.NewSQLError(mysql.ERNotSupportedYet, mysql.SSClientError, format, args...)
}

// deleteFromAppendTable serves DELETE on a table without a primary key
// (see appendrows.go).
func (e *editor) deleteFromAppendTable(ctx *sql.Context, row sql.Row) error {
	return e.removeAppendRow(ctx, row)
}

// wholePartitionFilter is the pushed filter when it selects whole
// partitions: it names partition columns only and nothing was left over.
func (e *editor) wholePartitionFilter() (predicate.Predicate, bool) {
	l := e.table.lookup
	if l == nil || l.pushdown.Filter == nil || len(l.pushdown.Residual) > 0 {
		return nil, false
	}
	for _, i := range predicate.Columns(l.pushdown.Filter) {
		if !slices.Contains(e.table.schema.PartitionKeys, e.table.schema.Fields[i].Name) {
			return nil, false
		}
	}
	return l.pushdown.Filter, true
}

// deletionMessages lists every file of a plan as deleted, per bucket,
// with the bucket's deletion vectors, which delete rows of those files
// only: the plan holds whole partitions.
func deletionMessages(plan *table.Plan) ([]commit.Message, error) {
	buckets, err := plan.Schema.CoreOptions().Bucket()
	if err != nil {
		return nil, err
	}
	totalBuckets := int32(buckets)
	msgs := make([]commit.Message, 0, len(plan.Buckets))
	for _, b := range plan.Buckets {
		msgs = append(msgs, commit.Message{
			Partition: b.Partition, Bucket: b.Bucket, TotalBuckets: totalBuckets,
			DeletedFiles: b.Files, DeletedIndexFiles: rowdelete.VectorFiles(plan.Index, &b),
		})
	}
	return msgs, nil
}

// Truncate implements sql.TruncateableTable: TRUNCATE TABLE and DELETE
// without WHERE. It overwrites the whole table as of the snapshot the
// statement read, so rows committed later by others are not removed
// silently: the commit fails with a conflict instead (apache/paimon#4802).
func (t *Table) Truncate(ctx *sql.Context) (int, error) {
	e := t.editor(ctx, false)
	if e.err != nil {
		return 0, e.err
	}
	rows, _, err := t.RowCount(ctx)
	if err != nil {
		return 0, err
	}
	e.w.messages = nil
	e.w.overwrite = &commit.Overwrite{BaseSnapshotID: e.w.base, Static: map[string]any{}}
	return int(rows), nil
}

// ruleQualifiedTruncate is the analyzer rule id of truncateQualifiedDelete.
const ruleQualifiedTruncate analyzer.RuleId = 10_006

// truncateQualifiedDelete turns a DELETE without WHERE (nor ORDER BY or
// LIMIT) of a table outside the current database into TRUNCATE, as GMS
// turns one of a table in the current database (processTruncate). GMS's
// own step looks the table up in the current database only: with none
// selected it fails with "database not found" for any table, and with
// another one it leaves the DELETE to the row path, which an append table
// refuses. It runs in AlwaysBeforeDefault, before that step, which then
// validates the TRUNCATE against the table's own database.
//
// Tables other than lakesql's data tables (the read-only system tables)
// keep the row path unless no database is selected, where GMS's step
// would fail; their TRUNCATE refuses as their DELETE does.
func truncateQualifiedDelete(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	del, ok := n.(*plan.DeleteFrom)
	if !ok || del.HasExplicitTargets() || !del.Resolved() {
		return n, transform.SameTree, nil
	}
	rt, ok := del.Child.(*plan.ResolvedTable)
	if !ok || rt.SqlDatabase == nil {
		return n, transform.SameTree, nil
	}
	db, current := rt.SqlDatabase.Name(), ctx.GetCurrentDatabase()
	_, dataTable := rt.Table.(*Table)
	if current != "" && (!dataTable || strings.EqualFold(db, current)) {
		return n, transform.SameTree, nil
	}
	return plan.NewTruncate(db, rt), transform.NewTree, nil
}
