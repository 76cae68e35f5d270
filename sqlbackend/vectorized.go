package sqlbackend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/sqlbackend/duckplan"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// ruleVectorize is the analyzer rule id of the backend's vectorize rule.
const ruleVectorize analyzer.RuleId = 10_017

// Engines a read runs on, the values of VarExecutor and the label of the
// executor metrics.
const (
	EngineDuckDB = duckplan.EngineDuckDB
	EngineGMS    = duckplan.EngineGMS
)

// vectorizeRule hands the largest read-only subtrees of a statement that
// duckplan translates exactly to the vectorized executor. It runs after
// every other rule, on the statement's whole plan as GMS executes it
// (execution indexes assigned); duckplan.Replace leaves alone what GMS
// may run once per outer row.
func (b *Backend) vectorizeRule(build sql.NodeExecBuilder) analyzer.Rule {
	return analyzer.Rule{Id: ruleVectorize, Apply: func(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		if b.opts.Executor == nil || !wholeStatement(scope, sel) || !executorOn(ctx) || !readOnlyStatement(ctx.Query()) {
			return n, transform.SameTree, nil
		}
		minRows := executorMinRows(ctx)
		onGMS := map[sql.Node]string{}
		replaced, decisions := duckplan.Replace(n, isVectorLeaf, func(q *duckplan.Query, leaves []sql.Node, original sql.Node) sql.Node {
			if pointLookup(leaves) {
				onGMS[original] = "its filter pins whole primary keys, which lakesql's page-indexed lookup reads"
				return original
			}
			if rows, ok := leafRows(ctx, leaves); ok && rows < minRows {
				onGMS[original] = fmt.Sprintf("its tables hold %d rows, fewer than lakesql_executor_min_rows (%d)", rows, minRows)
				return original
			}
			return &vectorNode{backend: b, query: q, leaves: leaves, original: original, build: build}
		})
		for i, d := range decisions {
			if reason, ok := onGMS[d.Node]; ok {
				decisions[i].Engine, decisions[i].Reason = EngineGMS, reason
			}
		}
		if sess, ok := ctx.Session.(*Session); ok && len(decisions) > 0 {
			sess.noteEngine(engineOf(decisions))
		}
		if rewrite.IsExplain(ctx.Query()) {
			return explainEngines(ctx, replaced, decisions), transform.NewTree, nil
		}
		return replaced, transform.NewTree, nil
	}}
}

// wholeStatement reports whether the analyzer is finishing a statement's
// whole plan, where GMS has assigned the execution indexes the
// translation reads and assigns none after it. GMS also runs the last
// batch over derived tables, subqueries and each branch of a union on
// their own, before the statement's indexes are final: a subtree
// replaced there would later get columns numbered without the ids GMS
// reads from the nodes it knows (fix_exec_indexes.go columnIdsForNode),
// which misnumbered a subquery over a replaced union branch. Those passes
// leave out trackProcess (derived tables, subqueries, and stored
// procedures' bodies: analyzer.NewFinalizeSubquerySel,
// NewProcRuleSelector) or resolveUnions (a union's branches,
// NewFinalizeUnionSel).
func wholeStatement(scope *plan.Scope, sel analyzer.RuleSelector) bool {
	return scope.IsEmpty() && sel(analyzer.TrackProcessId) && sel(resolveUnionsRule)
}

// resolveUnionsRule is GMS's resolveUnions rule, whose id GMS does not
// export.
var resolveUnionsRule = gmsRuleNamed("resolveUnions")

func gmsRuleNamed(name string) analyzer.RuleId {
	for id := analyzer.RuleId(0); id <= analyzer.TrackProcessId; id++ {
		if id.String() == name {
			return id
		}
	}
	panic("go-mysql-server has no analyzer rule " + name)
}

// readOnlyStatement reports whether a statement only reads: a SELECT, a
// set operation or CTE, or an EXPLAIN. The rule also sees the SELECT of
// an INSERT … SELECT, or of CREATE TABLE … AS SELECT, analysed on its own:
// writes keep reading through GMS, the path their conflict checks and
// read-modify-write detection are built on.
func readOnlyStatement(query string) bool {
	words := strings.FieldsFunc(strings.ToUpper(rewrite.StatementStart(query)), func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r == '=' || r == '_')
	})
	for len(words) > 0 {
		switch w := words[0]; {
		case w == "SELECT", w == "TABLE":
			return true
		case w == "WITH":
			// MySQL's WITH also leads UPDATE and DELETE.
			return !slices.ContainsFunc(words, func(w string) bool {
				return w == "UPDATE" || w == "DELETE" || w == "INSERT" || w == "REPLACE"
			})
		case w == "EXPLAIN", w == "DESCRIBE", w == "DESC", w == "PLAN", w == "ANALYZE", w == "EXTENDED", strings.HasPrefix(w, "FORMAT"):
			// EXPLAIN's options, then the statement it explains.
			words = words[1:]
		default:
			return false
		}
	}
	return false
}

// maxPointKeys is how many whole primary keys a read may pin and still be
// a point lookup that stays on go-mysql-server.
const maxPointKeys = 64

// pointLookup reports whether the leaves read only the rows of a few
// whole primary keys: each leaf's pushed filter pins every primary-key
// column to values, maxPointKeys keys at most in all. lakesql's reader
// then decodes only the pages that can hold them, where DuckDB takes
// milliseconds to start and reads whole row groups (issue 17's point
// selects: 86 a second on go-mysql-server, 60 on DuckDB).
func pointLookup(leaves []sql.Node) bool {
	keys := 1
	for _, leaf := range leaves {
		t, _ := unwrapTable(leaf)
		if t.lookup == nil || len(t.schema.PrimaryKeys) == 0 {
			return false
		}
		pinned := predicate.EqualityLiterals(t.lookup.pushdown.Filter)
		for _, k := range t.schema.PrimaryKeys {
			values, ok := pinned[t.schema.FieldIndex(k)]
			if !ok {
				return false
			}
			if keys *= max(len(values), 1); keys > maxPointKeys {
				return false
			}
		}
	}
	return true
}

// leafRows are the rows of the leaves' tables at their pins, as the join
// planner counts them (before the pushed filters); ok is false when one
// cannot be counted.
func leafRows(ctx *sql.Context, leaves []sql.Node) (rows int64, ok bool) {
	for _, leaf := range leaves {
		t, _ := unwrapTable(leaf)
		n, _, err := t.RowCount(ctx)
		if err != nil {
			return 0, false
		}
		rows += int64(n)
	}
	return rows, true
}

// executorMinRows is lakesql_executor_min_rows.
func executorMinRows(ctx *sql.Context) int64 {
	n, ok := intVar(ctx, VarExecutorMinRows)
	if !ok {
		return defaultExecutorMinRows
	}
	return n
}

// executorOn reports whether lakesql_executor is 'duckdb', its default.
func executorOn(ctx *sql.Context) bool {
	v, ok := stringVar(ctx, VarExecutor)
	return !ok || strings.EqualFold(v, EngineDuckDB)
}

// isVectorLeaf reports whether n reads a lakesql table whose columns the
// executor takes: a table, a pushed filter's index access, or the inner
// side of a lookup join, which the executor reads whole (under its pushed
// filter) and joins on the join's condition.
func isVectorLeaf(n sql.Node) bool {
	t, ok := unwrapTable(n)
	if !ok {
		return false
	}
	fields, err := leafFields(t, n.Schema())
	if err != nil {
		return false
	}
	for _, f := range fields {
		if !duckplan.Supported(f.Type) {
			return false
		}
	}
	return true
}

// leafFields are the table fields of a leaf's columns, in its schema's
// order. A leaf GMS reads for its rows only (a join side none of whose
// columns is used) still gets a column, which the query never names: the
// relation's rows must be there to be counted or joined.
func leafFields(t *Table, schema sql.Schema) ([]spec.DataField, error) {
	fields := make([]spec.DataField, len(schema))
	for i, c := range schema {
		f, ok := fieldNamed(t.schema, c.Name)
		if !ok {
			return nil, fmt.Errorf("duckplan: column %s is not a field of %s", c.Name, t.name)
		}
		fields[i] = f
	}
	if len(fields) == 0 {
		i := slices.IndexFunc(t.schema.Fields, func(f spec.DataField) bool { return duckplan.Supported(f.Type) })
		if i < 0 {
			return nil, fmt.Errorf("duckplan: no column of %s can be read to count its rows", t.name)
		}
		fields = append(fields, t.schema.Fields[i])
	}
	return fields, nil
}

func fieldNamed(s *spec.TableSchema, name string) (spec.DataField, bool) {
	for _, f := range s.Fields {
		if strings.EqualFold(f.Name, name) {
			return f, true
		}
	}
	return spec.DataField{}, false
}

// engineOf is the engine a statement's reads run on: DuckDB when any
// subtree was replaced.
func engineOf(decisions []duckplan.Decision) string {
	for _, d := range decisions {
		if d.Engine == EngineDuckDB {
			return EngineDuckDB
		}
	}
	return EngineGMS
}

// vectorNode is a subtree the vectorized executor runs: DuckDB SQL over
// the pinned snapshots of its leaves' tables. original is the subtree as
// GMS planned it, which runs instead when the executor refuses at run
// time (a value it cannot convert exactly).
type vectorNode struct {
	backend  *Backend
	query    *duckplan.Query
	leaves   []sql.Node
	original sql.Node
	build    sql.NodeExecBuilder
	// duckPlan is DuckDB's plan, filled for EXPLAIN only.
	duckPlan string
}

var (
	_ sql.Node          = (*vectorNode)(nil)
	_ sql.ExecSourceRel = (*vectorNode)(nil)
)

func (n *vectorNode) Resolved() bool       { return true }
func (n *vectorNode) Schema() sql.Schema   { return n.query.Schema }
func (n *vectorNode) Children() []sql.Node { return nil }
func (n *vectorNode) IsReadOnly() bool     { return true }
func (n *vectorNode) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 0)
	}
	return n, nil
}

// String is what EXPLAIN shows: the engine, the tables read and DuckDB's
// SQL and, under EXPLAIN, DuckDB's plan.
func (n *vectorNode) String() string {
	tp := sql.NewTreePrinter()
	_ = tp.WriteNode("VectorizedExec (engine: duckdb)")
	children := []string{"sql: " + n.query.SQL}
	for i, leaf := range n.leaves {
		children = append(children, fmt.Sprintf("t%d: %s", i, describeLeaf(leaf)))
	}
	if n.duckPlan != "" {
		children = append(children, "duckdb plan:\n"+n.duckPlan)
	}
	_ = tp.WriteChildren(children...)
	return tp.String()
}

// describeLeaf names a relation's table and what was pushed into its
// read (the pinned snapshot and pruning, under the lookup's summary).
func describeLeaf(leaf sql.Node) string {
	t, _ := unwrapTable(leaf)
	text := t.db.name + "." + t.name
	if t.lookup != nil {
		text += " " + t.lookup.String()
	}
	return text
}

// RowIter implements sql.ExecSourceRel.
func (n *vectorNode) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	iter, err := n.run(ctx)
	if errors.Is(err, duckplan.ErrUnsupported) {
		if sess, ok := ctx.Session.(*Session); ok {
			sess.noteEngine(EngineGMS + "-fallback")
		}
		return n.build.Build(ctx, n.original, row)
	}
	if err != nil {
		return nil, mysqlerr.From(err)
	}
	return iter, nil
}

// run runs the query on the executor. Its error wraps
// duckplan.ErrUnsupported when a relation (its pushed filter) or the
// query cannot be handed to DuckDB exactly.
func (n *vectorNode) run(ctx *sql.Context) (sql.RowIter, error) {
	sources, err := n.sources(ctx)
	if err != nil {
		return nil, err
	}
	iter, err := n.backend.opts.Executor.Run(ctx, n.query, sources)
	if err != nil {
		return nil, err
	}
	return classifiedIter{iter}, nil
}

// sources are the relations t0, t1, … of the query: each leaf's table at
// the snapshot the statement pinned, split into the Parquet files DuckDB
// reads itself and the rows only lakesql's reader produces.
func (n *vectorNode) sources(ctx *sql.Context) ([]duckplan.Source, error) {
	sources := make([]duckplan.Source, len(n.leaves))
	for i, leaf := range n.leaves {
		s, err := leafSource(ctx, leaf, n.backend.opts.ReadParallelism)
		if err != nil {
			return nil, err
		}
		s.Name = fmt.Sprintf("t%d", i)
		sources[i] = s
	}
	return sources, nil
}

func leafSource(ctx *sql.Context, leaf sql.Node, parallelism int) (duckplan.Source, error) {
	t, _ := unwrapTable(leaf)
	fields, err := leafFields(t, leaf.Schema())
	if err != nil {
		return duckplan.Source{}, err
	}
	names := make([]string, len(fields))
	columns := make([]duckplan.Column, len(fields))
	for i, f := range fields {
		names[i] = f.Name
		columns[i] = duckplan.Column{FileName: f.Name, Type: f.Type}
	}
	src := duckplan.Source{Columns: columns}
	if t.readsNothing() {
		return src, nil
	}
	p, err := t.plan(ctx)
	if err != nil {
		return src, err
	}
	t.db.backend.opts.Metrics.RecordScan(t.db.name, t.name, p)
	ext, err := t.t.ExternalRead(ctx, p, names)
	if err != nil {
		return src, err
	}
	src.Files = make([]duckplan.File, len(ext.Files))
	for i, f := range ext.Files {
		src.Files[i] = duckplan.File{Path: f.Path, Deleted: f.Deleted}
	}
	if err := readableWithDeletions(src.Files, p.Schema.Fields); err != nil {
		return src, err
	}
	if filter := p.Scan.Filter.Residual; filter != nil && len(ext.Files) > 0 {
		if src.FileFilter, err = duckplan.FilterSQL(filter, fieldNames(p.Schema.Fields)); err != nil {
			return src, errors.Join(duckplan.ErrUnsupported, err)
		}
	}
	if rest := ext.Rest; rest != nil {
		src.Rows = func(ctx context.Context) (duckplan.RowSource, error) {
			return t.t.ExecutePlan(ctx, rest, table.ReadOptions{Columns: names, Parallelism: parallelism})
		}
	}
	return src, nil
}

// readableWithDeletions refuses, sending the statement back to
// go-mysql-server, files with deleted rows of a table that has a column
// named as one DuckDB adds to such a read, which DuckDB refuses whether
// the column is read or not.
func readableWithDeletions(files []duckplan.File, fields []spec.DataField) error {
	if !slices.ContainsFunc(files, func(f duckplan.File) bool { return len(f.Deleted) > 0 }) {
		return nil
	}
	for _, f := range fields {
		if duckplan.AddedColumnName(f.Name) {
			return fmt.Errorf("%w: the table's column %s is named as a column DuckDB adds to reads of files with deleted rows", duckplan.ErrUnsupported, f.Name)
		}
	}
	return nil
}

func fieldNames(fields []spec.DataField) []string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	return names
}

// classifiedIter gives the errors of reading the executor's rows their
// MySQL class: a statement killed while DuckDB pages its result fails
// with 1317.
type classifiedIter struct{ sql.RowIter }

func (it classifiedIter) Next(ctx *sql.Context) (sql.Row, error) {
	r, err := it.RowIter.Next(ctx)
	if err != nil && err != io.EOF {
		return nil, mysqlerr.From(err)
	}
	return r, err
}

var _ duckplan.RowSource = (*table.Rows)(nil)

// explainEngines makes EXPLAIN show where the statement's reads run:
// each vectorNode with DuckDB's own plan, and, when nothing was handed to
// DuckDB, why, in a line above the plan.
func explainEngines(ctx *sql.Context, n sql.Node, decisions []duckplan.Decision) sql.Node {
	replaced := false
	n, _, _ = transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		v, ok := n.(*vectorNode)
		if !ok {
			return n, transform.SameTree, nil
		}
		replaced = true
		c := *v
		c.duckPlan = c.explainDuckDB(ctx)
		return &c, transform.NewTree, nil
	})
	if _, describe := n.(*plan.DescribeQuery); replaced || describe || len(decisions) == 0 {
		return n
	}
	return &engineNote{Node: n, note: gmsReasons(decisions)}
}

func (n *vectorNode) explainDuckDB(ctx *sql.Context) string {
	sources, err := n.sources(ctx)
	if err == nil {
		var text string
		if text, err = n.backend.opts.Executor.Explain(ctx, n.query, sources); err == nil {
			return text
		}
	}
	return "(DuckDB's plan is unavailable: " + err.Error() + ")"
}

// gmsReasons says why no read of a statement runs on DuckDB.
func gmsReasons(decisions []duckplan.Decision) string {
	var reasons []string
	for _, d := range decisions {
		if d.Reason != "" && !slices.Contains(reasons, d.Reason) {
			reasons = append(reasons, d.Reason)
		}
	}
	if len(reasons) == 0 {
		return "engine: gms (no lakesql table read to hand over)"
	}
	return "engine: gms (" + strings.Join(reasons, "; ") + ")"
}

// engineNote is a plan EXPLAIN prints with a line above it.
type engineNote struct {
	sql.Node
	note string
}

func (e *engineNote) String() string { return e.note + "\n" + e.Node.String() }

// WithChildren keeps the note on the plan the rules after this one
// (explainInputRows) rebuild.
func (e *engineNote) WithChildren(children ...sql.Node) (sql.Node, error) {
	n, err := e.Node.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &engineNote{Node: n, note: e.note}, nil
}

// Describe implements sql.Describable, which EXPLAIN prints through when
// the plan's root implements it (Project does).
func (e *engineNote) Describe(options sql.DescribeOptions) string {
	return e.note + "\n" + sql.Describe(e.Node, options)
}
