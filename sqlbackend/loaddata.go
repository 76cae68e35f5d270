package sqlbackend

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/planner/ingest"
	"github.com/lakesql/lakesql/storage/spec"
)

// ruleLoadData is the analyzer rule id of loadDataRule.
const ruleLoadData analyzer.RuleId = 10_019

// erLocalFilesDisabled is ER_CLIENT_LOCAL_FILES_DISABLED.
const erLocalFilesDisabled = 3948

// loadDataRule runs LOAD DATA into a lakesql table as a loadDataNode: the
// input is read as MySQL reads it (planner/ingest) and each line goes
// into the table's writer as Paimon values, without a SQL row, a
// conversion through GMS's types or a per-row checkpoint. GMS v0.20's own
// LOAD DATA also misreads MySQL's input: it drops every escape character
// instead of resolving \t, \n and \\, reads the unquoted word NULL as NULL,
// and cannot read a quoted field holding a separator. Statements the node
// does not cover (user variables, SET, a column list that leaves columns
// to their defaults, CHECK constraints, types without a converter) stay
// on GMS.
func loadDataRule(ctx *sql.Context, _ *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !wholeStatement(scope, sel) {
		return n, transform.SameTree, nil
	}
	if insert, ok := n.(*plan.InsertInto); ok {
		if node, ok := newLoadDataNode(insert); ok {
			return node, transform.NewTree, nil
		}
	}
	// GMS checks a server file's path by its prefix only.
	if load, ok := loadUnder(n); ok && !load.Local {
		if _, err := underSecureFilePriv(load.File); err != nil {
			return nil, transform.SameTree, err
		}
	}
	return n, transform.SameTree, nil
}

// loadUnder finds the LOAD DATA of a statement.
func loadUnder(n sql.Node) (*plan.LoadData, bool) {
	var load *plan.LoadData
	transform.Inspect(n, func(n sql.Node) bool {
		load, _ = n.(*plan.LoadData)
		return load == nil
	})
	return load, load != nil
}

// loadDataNode is a LOAD DATA statement into a lakesql table.
type loadDataNode struct {
	load   *plan.LoadData
	table  *Table
	target *ingest.Target
	format ingest.Format
}

var _ sql.ExecSourceRel = (*loadDataNode)(nil)

// newLoadDataNode is the node that runs insert, when it is a LOAD DATA
// the node covers.
func newLoadDataNode(insert *plan.InsertInto) (*loadDataNode, bool) {
	if len(insert.OnDupExprs) > 0 || len(insert.Checks()) > 0 || len(insert.Returning) > 0 {
		return nil, false
	}
	table, ok := destinationTable(insert.Destination)
	if !ok || table.timeTravel {
		return nil, false
	}
	load, columnOf, ok := loadSource(insert.Source, len(table.schema.Fields))
	if !ok {
		return nil, false
	}
	format, ok := loadFormat(load)
	if !ok {
		return nil, false
	}
	target, ok := ingest.NewTarget(table.schema.Fields, columnOf)
	if !ok {
		return nil, false
	}
	return &loadDataNode{load: load, table: table, target: target, format: format}, true
}

// destinationTable is the lakesql table an INSERT writes.
func destinationTable(dest sql.Node) (*Table, bool) {
	var table *Table
	transform.Inspect(dest, func(n sql.Node) bool {
		if rt, ok := n.(*plan.ResolvedTable); ok {
			table, _ = sql.GetUnderlyingTable(rt.Table).(*Table)
		}
		return table == nil
	})
	return table, table != nil
}

// loadSource is the LOAD DATA under an INSERT's source and the table
// column of each input field, when every column comes from a field.
func loadSource(source sql.Node, columns int) (*plan.LoadData, []int, bool) {
	child, columnOf, ok := projectedSource(source, columns)
	if !ok {
		return nil, nil, false
	}
	load, ok := child.(*plan.LoadData)
	if !ok {
		return nil, nil, false
	}
	for _, e := range slices.Concat(load.SetExprs, load.UserVars) {
		if e != nil {
			return nil, nil, false
		}
	}
	charset := strings.ToLower(load.Charset)
	return load, columnOf, charset == "" || charset == "utf8mb4" || charset == "utf8" || charset == "utf8mb3" || charset == "binary"
}

// projectedSource is the row source under an INSERT's source and the table
// column of each of its columns. GMS puts the source under a projection of
// the destination's columns from the source's (in the column list's
// order), with defaults for columns the list leaves out: the source fills
// the table itself when every column comes from one of its columns.
func projectedSource(source sql.Node, columns int) (sql.Node, []int, bool) {
	p, ok := source.(*plan.Project)
	if !ok || len(p.Projections) != columns {
		return nil, nil, false
	}
	columnOf := make([]int, columns)
	filled := make([]bool, columns)
	for i, e := range p.Projections {
		f, ok := e.(*expression.GetField)
		if !ok || f.Index() < 0 || f.Index() >= columns || filled[f.Index()] {
			return nil, nil, false
		}
		filled[f.Index()] = true
		columnOf[f.Index()] = i
	}
	return p.Child, columnOf, true
}

// loadFormat is the statement's input format, when the reader follows it.
func loadFormat(load *plan.LoadData) (ingest.Format, bool) {
	f := ingest.Format{
		FieldsTerminatedBy: load.FieldsTerminatedBy,
		LinesStartingBy:    load.LinesStartingBy,
		LinesTerminatedBy:  load.LinesTerminatedBy,
		IgnoreLines:        load.IgnoreNum,
	}
	if len(load.FieldsEnclosedBy) > 1 || len(load.FieldsEscapedBy) > 1 || f.FieldsTerminatedBy == "" || f.LinesTerminatedBy == "" {
		return f, false
	}
	if load.FieldsEnclosedBy != "" {
		f.EnclosedBy = load.FieldsEnclosedBy[0]
	}
	if load.FieldsEscapedBy != "" {
		f.EscapedBy = load.FieldsEscapedBy[0]
	}
	// MySQL reads an escape character equal to the quote as a quote.
	return f, f.EscapedBy == 0 || f.EscapedBy != f.EnclosedBy
}

func (n *loadDataNode) Resolved() bool       { return true }
func (n *loadDataNode) Schema() sql.Schema   { return types.OkResultSchema }
func (n *loadDataNode) Children() []sql.Node { return nil }
func (n *loadDataNode) IsReadOnly() bool     { return false }
func (n *loadDataNode) String() string {
	return fmt.Sprintf("LoadData(%s into %s.%s)", n.load.File, n.table.db.name, n.table.name)
}

func (n *loadDataNode) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 0)
	}
	return n, nil
}

// RowIter implements sql.ExecSourceRel: the whole load runs on the first
// Next, which returns its OK result.
func (n *loadDataNode) RowIter(*sql.Context, sql.Row) (sql.RowIter, error) {
	return &writeOnceIter{write: n.run}, nil
}

// writeOnceIter runs a statement that writes rows on its first Next,
// which returns the statement's OK result.
type writeOnceIter struct {
	write func(*sql.Context) (rows int64, err error)
	done  bool
}

func (it *writeOnceIter) Next(ctx *sql.Context) (sql.Row, error) {
	if it.done {
		return nil, io.EOF
	}
	it.done = true
	rows, err := it.write(ctx)
	if err != nil {
		return nil, err
	}
	// ROW_COUNT() returns it next, as GMS's accumulator sets it.
	ctx.SetLastQueryInfoInt(sql.RowCount, rows)
	return sql.NewRow(types.NewOkResult(int(rows))), nil
}

func (it *writeOnceIter) Close(*sql.Context) error { return nil }

// run loads the input into the statement's table writer and returns the
// rows it loaded. Its rows commit with the statement's transaction; a
// failure leaves none of them.
func (n *loadDataNode) run(ctx *sql.Context) (int64, error) {
	e := n.table.editor(ctx, false)
	if e.err != nil {
		return 0, e.err
	}
	rows, err := n.stream(ctx, e)
	return rows, e.finishStatement(ctx, err)
}

// loadBatchRows is the number of rows the reading goroutine of a load
// hands its writer at a time; two batches at most wait between them.
const loadBatchRows = 1024

// loadProgressRows is how often a load logs how far it got.
const loadProgressRows = 1 << 20

// stream reads and converts the input on a goroutine of its own and
// writes its rows into e's writer on this one, so that on two cores
// parsing and writing overlap.
func (n *loadDataNode) stream(ctx *sql.Context, e *editor) (int64, error) {
	in, err := n.open(ctx)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	r, err := ingest.NewReader(in, n.format)
	if err != nil {
		return 0, err
	}
	batches, stop := make(chan [][]any, 2), make(chan struct{})
	var readErr error
	go func() {
		defer close(batches)
		defer func() {
			if p := recover(); p != nil {
				readErr = fmt.Errorf("LOAD DATA reader panicked: %v", p)
			}
		}()
		readErr = n.read(ctx, r, batches, stop)
	}()
	var rows int64
	var writeErr error
	for batch := range batches {
		if writeErr == nil {
			writeErr = n.write(ctx, e, batch, rows)
			if writeErr != nil {
				close(stop)
			}
		}
		rows += int64(len(batch))
	}
	if writeErr != nil {
		return rows, writeErr
	}
	return rows, readErr
}

// write writes a batch of rows; before is the number of rows the load
// wrote before it.
func (n *loadDataNode) write(ctx *sql.Context, e *editor, batch [][]any, before int64) error {
	for _, row := range batch {
		if err := e.w.writer.Write(ctx, row, spec.RowKindInsert); err != nil {
			return err
		}
	}
	if after := before + int64(len(batch)); after/loadProgressRows > before/loadProgressRows {
		ctx.GetLogger().Infof("LOAD DATA into %s.%s: %d rows so far", n.table.db.name, n.table.name, after)
	}
	return nil
}

// read converts the input's lines into rows and sends them in batches,
// until the input ends, a line fails, the statement is cancelled or the
// writer stops.
func (n *loadDataNode) read(ctx *sql.Context, r *ingest.Reader, out chan<- [][]any, stop <-chan struct{}) error {
	batch := make([][]any, 0, loadBatchRows)
	send := func() bool {
		select {
		case out <- batch:
			batch = make([][]any, 0, loadBatchRows)
			return true
		case <-stop:
			return false
		}
	}
	for number := int64(1); ; number++ {
		line, err := r.Next()
		if err == io.EOF {
			if len(batch) > 0 {
				send()
			}
			return nil
		}
		if err != nil {
			return err
		}
		if number%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		row, err := n.target.Row(line, number)
		if err != nil {
			return valueError(err)
		}
		if batch = append(batch, row); len(batch) == loadBatchRows && !send() {
			return nil
		}
	}
}

// valueError is a refused field as its MySQL error.
func valueError(err error) error {
	var ve *ingest.ValueError
	if !errors.As(err, &ve) {
		return err
	}
	state := mysql.SSUnknownSQLState
	switch ve.Code {
	case ingest.ErrBadNull:
		state = mysql.SSConstraintViolation
	case ingest.ErrOutOfRange:
		state = "22003"
	case ingest.ErrTooLong:
		state = mysql.SSDataTooLong
	case ingest.ErrWrongValue:
		state = "22007"
	}
	return mysql.NewSQLError(ve.Code, state, "%s", ve.Message)
}

// open opens the statement's input: the client's file under LOCAL, which
// local_infile must allow, else the server's, which must lie under
// secure_file_priv.
func (n *loadDataNode) open(ctx *sql.Context) (io.ReadCloser, error) {
	if n.load.Local {
		if !globalOn("local_infile") {
			return nil, mysql.NewSQLError(erLocalFilesDisabled, mysql.SSUnknownSQLState,
				"Loading local data is disabled; this must be enabled on both the client and server sides")
		}
		return ctx.LoadInfile(n.load.File)
	}
	name, err := underSecureFilePriv(n.load.File)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, sql.ErrLoadDataCannotOpen.New(err.Error())
	}
	return f, nil
}

// underSecureFilePriv resolves name and refuses it unless it lies inside
// the secure_file_priv directory (when one is set), before and after
// symbolic links are followed, so that "..", a sibling directory sharing
// its prefix or a link cannot leave it, and a refused path says nothing
// of whether the file exists.
func underSecureFilePriv(name string) (string, error) {
	_, dir, _ := sql.SystemVariables.GetGlobal("secure_file_priv")
	d, _ := dir.(string)
	if d != "" && !inside(d, name) {
		return "", sql.ErrSecureFilePriv.New()
	}
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return "", sql.ErrLoadDataCannotOpen.New(err.Error())
	}
	if d == "" {
		return real, nil
	}
	realDir, err := filepath.EvalSymlinks(d)
	if err != nil || !inside(realDir, real) {
		return "", sql.ErrSecureFilePriv.New()
	}
	return real, nil
}

// inside reports whether path lies inside dir, both made absolute.
func inside(dir, path string) bool {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(absDir, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// globalOn reads a boolean global variable, which GMS keeps as an int8.
func globalOn(name string) bool {
	_, v, _ := sql.SystemVariables.GetGlobal(name)
	return isOn(v)
}

// isOn reads a boolean variable's value, which GMS keeps as an int8.
func isOn(v any) bool {
	switch x := v.(type) {
	case int8:
		return x != 0
	case int64:
		return x != 0
	case bool:
		return x
	}
	return false
}
