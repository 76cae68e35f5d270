package sysprocs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/sysprocs/reconcile"
)

// reconcileSchema is sys.reconcile's result. Rows with a NULL pk are
// totals (count: rows of each side, keys of each kind of difference,
// chunks, and chunks whose checksums differed and were compared row by
// row) and the lake's writers as of the snapshot compared (snapshot_id,
// commit_user, commit_identifier, watermark); the others are the
// differing keys, up to the limit.
var reconcileSchema = sql.Schema{
	{Name: "kind", Type: types.LongText},
	{Name: "pk", Type: types.LongText, Nullable: true},
	{Name: "columns", Type: types.LongText, Nullable: true},
	{Name: "lake_row", Type: types.LongText, Nullable: true},
	{Name: "source_row", Type: types.LongText, Nullable: true},
	{Name: "count", Type: types.Int64, Nullable: true},
	{Name: "snapshot_id", Type: types.Int64, Nullable: true},
	{Name: "commit_user", Type: types.LongText, Nullable: true},
	{Name: "commit_identifier", Type: types.Int64, Nullable: true},
	{Name: "watermark", Type: types.Int64, Nullable: true},
}

// reconcileProcedures: sys.reconcile('db.t', source, 'srcdb.t' [, at] [,
// partitions] [, options]). It only reads, the lake table with SELECT, but
// it reads the source with the server's credentials, so it also needs
// EXECUTE granted on the procedure itself (authorizeReconcile).
func (p *Procedures) reconcileProcedures() []sql.ExternalStoredProcedureDetails {
	return variants("reconcile", reconcileSchema, true,
		func(ctx *sql.Context, table, source, sourceTable string) (sql.RowIter, error) {
			return p.reconcile(ctx, table, source, sourceTable, "", "", "")
		},
		func(ctx *sql.Context, table, source, sourceTable, at string) (sql.RowIter, error) {
			return p.reconcile(ctx, table, source, sourceTable, at, "", "")
		},
		func(ctx *sql.Context, table, source, sourceTable, at, partitions string) (sql.RowIter, error) {
			return p.reconcile(ctx, table, source, sourceTable, at, partitions, "")
		},
		p.reconcile)
}

// reconcileRun is one call's resolved arguments.
type reconcileRun struct {
	t       tableRef
	tbl     *table.Table
	plan    *table.Plan
	columns []reconcile.Column
	opts    reconcileOptions
	// sourceWhere is the source's condition: the options' where and the
	// partitions compared.
	sourceWhere string
}

func (p *Procedures) reconcile(ctx *sql.Context, tableArg, sourceName, sourceTable, at, partitions, options string) (sql.RowIter, error) {
	const proc = "reconcile"
	if err := authorizeReconcile(ctx); err != nil {
		return nil, err
	}
	t, err := p.prepare(ctx, proc, tableArg, needRead)
	if err != nil {
		return nil, err
	}
	source, ok := p.opts.Sources[sourceName]
	if !ok {
		return nil, badArgument(proc, "no source named %q in the server's configuration (sources: %s)", sourceName, sourceNames(p.opts.Sources))
	}
	run, err := p.prepareReconcile(ctx, t, at, partitions, options)
	if err != nil {
		return nil, err
	}
	started := p.opts.Now()
	report, err := p.compareWithSource(ctx, run, source, sourceTable)
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	p.observe(func(o Observer) { o.Reconciled(t.db, t.table, report.LakeRows+report.SourceRows, mismatches(report)) })
	p.logRun(ctx, proc, t, fmt.Sprintf("snapshot %d vs %s %s: lake %d rows, source %d, %d missing in the lake, %d extra, %d differing, %d of %d chunks compared row by row, %v",
		snapshotID(run.plan), sourceName, sourceTable, report.LakeRows, report.SourceRows, report.Missing, report.Extra, report.Differing,
		report.ChunksCompared, report.Chunks, p.opts.Now().Sub(started).Round(time.Millisecond)))
	rows, err := reconcileRows(ctx, run, report)
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	return sql.RowsToRowIter(rows...), nil
}

func mismatches(r *reconcile.Report) int64 { return r.Missing + r.Extra + r.Differing }

func sourceNames(sources map[string]reconcile.SourceConfig) string {
	names := make([]string, 0, len(sources))
	for name := range sources {
		names = append(names, name)
	}
	slices.Sort(names)
	if len(names) == 0 {
		return "none configured"
	}
	return strings.Join(names, ", ")
}

// prepareReconcile resolves the snapshot, partitions and columns a call
// compares.
func (p *Procedures) prepareReconcile(ctx *sql.Context, t tableRef, at, partitions, options string) (*reconcileRun, error) {
	const proc = "reconcile"
	opts, err := parseReconcileOptions(options)
	if err != nil {
		return nil, badArgument(proc, "options %q: %v", options, err)
	}
	tbl, err := table.Open(ctx, p.opts.FileIO, t.dir)
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	tt, err := reconcileAt(at, sqltypes.SessionLocation(ctx))
	if err != nil {
		return nil, badArgument(proc, "at %q: %v", at, err)
	}
	run := &reconcileRun{t: t, tbl: tbl, opts: opts}
	s, err := tbl.LatestSchema(ctx)
	if err != nil {
		return nil, mysqlError(proc, err)
	}
	if !tt.IsLatest() {
		snap, err := tbl.Snapshots().Resolve(ctx, tt)
		if err != nil {
			return nil, mysqlError(proc, err)
		}
		if s, err = tbl.Schemas().Schema(ctx, snap.SchemaID); err != nil {
			return nil, mysqlError(proc, err)
		}
	}
	if len(s.PrimaryKeys) == 0 {
		return nil, badArgument(proc, "table %s has no primary key to compare rows by", t)
	}
	if run.columns, err = opts.columns(s); err != nil {
		return nil, badArgument(proc, "options: %v", err)
	}
	filter, where, err := partitionCondition(s, partitions, opts)
	if err != nil {
		return nil, badArgument(proc, "partitions %q: %v", partitions, err)
	}
	run.sourceWhere = joinConditions(opts.where, where)
	if run.plan, err = tbl.PlanTimeTravel(ctx, tt, filter); err != nil {
		return nil, mysqlError(proc, err)
	}
	return run, nil
}

// reconcileAt reads the at argument: NULL for the latest snapshot, else a
// snapshot id, a tag or a time, as AS OF takes them.
func reconcileAt(at string, loc *time.Location) (snapshot.TimeTravel, error) {
	if strings.TrimSpace(at) == "" {
		return snapshot.TimeTravel{}, nil
	}
	return rewrite.ParseAsOf(at, loc)
}

// partitionCondition is the lake filter and the source condition of the
// partitions argument ('dt=2026-04-16;dt=2026-04-17', as sys.compact
// takes it, values as SQL writes them): each partition's columns equal,
// the partitions ORed.
func partitionCondition(s *spec.TableSchema, partitions string, opts reconcileOptions) (predicate.Predicate, string, error) {
	specs, err := compact.ParsePartitions(partitions)
	if err != nil || specs == nil {
		return nil, "", err
	}
	var lake []predicate.Predicate
	var source []string
	for _, part := range specs {
		var conj []predicate.Predicate
		var conds []string
		for name, text := range part {
			i := s.FieldIndex(name)
			if i < 0 || !slices.Contains(s.PartitionKeys, name) {
				return nil, "", fmt.Errorf("%s is not a partition key (partition keys: %v)", name, s.PartitionKeys)
			}
			// Values are written as SQL writes them ('2026-04-16'), which
			// the source compares too: the path form without legacy names.
			v, err := spec.ParsePartitionValue(s.Fields[i].Type, text, s.CoreOptions().PartitionDefaultName(), false)
			if err != nil {
				return nil, "", err
			}
			leaf, err := predicate.Leaf(predicate.ColumnOf(i, s.Fields[i]), predicate.OpEq, v)
			if err != nil {
				return nil, "", err
			}
			conj = append(conj, leaf)
			conds = append(conds, fmt.Sprintf("%s = '%s'", opts.sourceExpr(s.Fields[i]), strings.ReplaceAll(text, "'", "''")))
		}
		slices.Sort(conds)
		lake = append(lake, predicate.And(conj...))
		source = append(source, "("+strings.Join(conds, " AND ")+")")
	}
	return predicate.Or(lake...), strings.Join(source, " OR "), nil
}

func joinConditions(conds ...string) string {
	var parts []string
	for _, c := range conds {
		if c != "" {
			parts = append(parts, "("+c+")")
		}
	}
	return strings.Join(parts, " AND ")
}

// compareWithSource runs the comparison of the lake's plan with the
// source table, inside one consistent snapshot of the source.
func (p *Procedures) compareWithSource(ctx *sql.Context, run *reconcileRun, cfg reconcile.SourceConfig, sourceTable string) (*reconcile.Report, error) {
	db, err := cfg.Open()
	if err != nil {
		return nil, err
	}
	defer db.Close()
	src, err := reconcile.OpenMySQL(ctx, db, sourceTable, run.columns, run.sourceWhere)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	rows, err := run.tbl.ReadKeyOrdered(ctx, run.plan)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	lake, err := newLakeTexts(ctx, rows, run.columns)
	if err != nil {
		return nil, err
	}
	opts := run.opts.compare
	opts.Progress = p.reconcileProgress(ctx, run.t)
	return reconcile.Compare(ctx, run.columns, lake, src, opts)
}

// reconcileProgress logs a long comparison's progress every 10 seconds.
func (p *Procedures) reconcileProgress(ctx *sql.Context, t tableRef) func(reconcile.Report) {
	last := p.opts.Now()
	return func(r reconcile.Report) {
		if now := p.opts.Now(); now.Sub(last) >= 10*time.Second {
			last = now
			p.logRun(ctx, "reconcile", t, fmt.Sprintf("in progress: %d lake rows and %d source rows compared, %d mismatches so far",
				r.LakeRows, r.SourceRows, mismatches(&r)))
		}
	}
}

// lakeTexts turns the lake's rows into the texts MySQL prints for them.
type lakeTexts struct {
	ctx     *sql.Context
	rows    *table.KeyOrdered
	columns []int // the compared columns' positions in a row
	types   []sql.Type
	specs   []spec.DataType
}

func newLakeTexts(ctx *sql.Context, rows *table.KeyOrdered, cols []reconcile.Column) (*lakeTexts, error) {
	l := &lakeTexts{ctx: ctx, rows: rows}
	fields := rows.Fields()
	for _, c := range cols {
		i := slices.IndexFunc(fields, func(f spec.DataField) bool { return f.Name == c.Name })
		typ, err := sqltypes.Type(fields[i].Type)
		if err != nil {
			return nil, err
		}
		l.columns, l.types, l.specs = append(l.columns, i), append(l.types, typ), append(l.specs, fields[i].Type)
	}
	return l, nil
}

// Next implements reconcile.Lake.
func (l *lakeTexts) Next() (reconcile.Row, error) {
	row, err := l.rows.Next()
	if err != nil {
		return nil, err
	}
	out := make(reconcile.Row, len(l.columns))
	for i, j := range l.columns {
		if row[j] == nil {
			continue
		}
		text, err := l.text(i, row[j])
		if err != nil {
			return nil, err
		}
		out[i] = &text
	}
	return out, nil
}

// text is the MySQL text of value v of compared column i: what the
// server sends a client for it. The common key and amount types are
// printed directly; the others through go-mysql-server's type, as the
// wire protocol prints them.
func (l *lakeTexts) text(i int, v any) (string, error) {
	if s, ok := plainText(l.specs[i], v); ok {
		return s, nil
	}
	sv, err := sqltypes.ToSQL(l.specs[i], v)
	if err != nil {
		return "", err
	}
	text, err := l.types[i].SQL(l.ctx, nil, sv)
	if err != nil {
		return "", err
	}
	return text.ToString(), nil
}

// plainText prints the values whose MySQL text needs no go-mysql-server
// type: integers, strings, dates, and decimals of the column's scale,
// which TestPlainTextIsTheWireText holds to the wire's text; and floating
// values as MySQL prints a DOUBLE, which TestReconcileFloatingPointColumns
// holds to MariaDB's text.
func plainText(t spec.DataType, v any) (string, bool) {
	switch x := v.(type) {
	case int8:
		return strconv.FormatInt(int64(x), 10), t.Root == spec.TinyInt
	case int16:
		return strconv.FormatInt(int64(x), 10), t.Root == spec.SmallInt
	case int32:
		return strconv.FormatInt(int64(x), 10), t.Root == spec.Int
	case int64:
		return strconv.FormatInt(x, 10), t.Root == spec.BigInt
	case string:
		return x, t.IsString()
	case spec.DateValue:
		return x.String(), t.Root == spec.Date
	case spec.DecimalValue:
		return x.String(), t.Root == spec.Decimal && x.Scale() == t.Scale
	case float64:
		return sqltypes.DoubleText(x), t.Root == spec.Double
	case float32:
		// The source sends a FLOAT cast to DOUBLE (sourceExpr).
		return sqltypes.DoubleText(float64(x)), t.Root == spec.Float
	}
	return "", false
}

var _ reconcile.Lake = (*lakeTexts)(nil)

func snapshotID(plan *table.Plan) int64 {
	if plan.Snapshot == nil {
		return 0
	}
	return plan.Snapshot.ID
}

// reconcileRows are the result: totals, the lake's writers, then the
// differences.
func reconcileRows(ctx context.Context, run *reconcileRun, r *reconcile.Report) ([]sql.Row, error) {
	total := func(kind string, n int64, snap any) sql.Row {
		return sql.Row{kind, nil, nil, nil, nil, n, snap, nil, nil, nil}
	}
	var snap any
	if id := snapshotID(run.plan); id != 0 {
		snap = id
	}
	rows := []sql.Row{
		total("lake_rows", r.LakeRows, snap), total("source_rows", r.SourceRows, nil),
		total(string(reconcile.MissingInLake), r.Missing, nil), total(string(reconcile.ExtraInLake), r.Extra, nil),
		total(string(reconcile.Differs), r.Differing, nil),
		total("chunks", r.Chunks, nil), total("chunks_compared_by_row", r.ChunksCompared, nil),
	}
	writers, err := writersAt(ctx, run.tbl, run.plan.Snapshot)
	if err != nil {
		return nil, err
	}
	for _, w := range writers {
		rows = append(rows, sql.Row{"writer", nil, nil, nil, nil, nil, w.ID, w.CommitUser, w.CommitIdentifier, optionalInt(w.Watermark)})
	}
	for _, d := range r.Differences {
		rows = append(rows, sql.Row{string(d.Kind), jsonTexts(d.Key), optionalText(strings.Join(d.Columns, ",")),
			rowJSON(run.columns, d.Lake), rowJSON(run.columns, d.Source), nil, nil, nil, nil, nil})
	}
	return rows, nil
}

// writersAt is, for each commit user of the retained snapshots up to s,
// its last snapshot: what each writer had committed (its identifier, its
// watermark) when the compared snapshot was taken. Newest first.
func writersAt(ctx context.Context, tbl *table.Table, s *spec.Snapshot) ([]*spec.Snapshot, error) {
	if s == nil {
		return nil, nil
	}
	earliest, ok, err := tbl.Snapshots().EarliestID(ctx)
	if err != nil || !ok {
		return nil, err
	}
	seen := map[string]bool{}
	var out []*spec.Snapshot
	for id := s.ID; id >= earliest; id-- {
		snap, err := tbl.Snapshots().Snapshot(ctx, id)
		if errors.Is(err, lakeerr.ErrNotFound) {
			break // expired while listing: older ones are gone too
		}
		if err != nil {
			return nil, err
		}
		if !seen[snap.CommitUser] {
			seen[snap.CommitUser] = true
			out = append(out, snap)
		}
	}
	return out, nil
}

func optionalInt(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func optionalText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// jsonTexts renders texts as a JSON array, NULL as null.
func jsonTexts(r reconcile.Row) string {
	b, _ := json.Marshal(r)
	return string(b)
}

// rowJSON renders a row as a JSON object of its columns; nil for no row.
func rowJSON(cols []reconcile.Column, r reconcile.Row) any {
	if r == nil {
		return nil
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(c.Name)
		value, _ := json.Marshal(r[i])
		b.Write(name)
		b.WriteByte(':')
		b.Write(value)
	}
	b.WriteByte('}')
	return b.String()
}

// authorizeReconcile checks the privilege of sys.reconcile's own: EXECUTE
// on the procedure itself (GRANT EXECUTE ON PROCEDURE sys.reconcile), or
// a global EXECUTE or SUPER. EXECUTE on the sys database, which every other
// procedure takes, is not enough: reconcile reads the source with the
// credentials of the server's configuration, not the caller's.
func authorizeReconcile(ctx *sql.Context) error {
	set, counter := ctx.Session.GetPrivilegeSet()
	if counter == 0 || set == nil || set.Has(sql.PrivilegeType_Super) || set.Has(sql.PrivilegeType_Execute) {
		return nil
	}
	if set.Database("sys").Routine("reconcile", true).Has(sql.PrivilegeType_Execute) {
		return nil
	}
	client := ctx.Session.Client()
	return mysql.NewSQLError(erProcAccessDenied, mysql.SSClientError,
		"execute command denied to user '%s'@'%s' for routine 'sys.reconcile': it reads the source with the server's credentials, "+
			"so it needs GRANT EXECUTE ON PROCEDURE sys.reconcile", client.User, client.Address)
}
