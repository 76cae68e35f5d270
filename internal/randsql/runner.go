package randsql

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Session names: lakesql with its planner rewrites and its vectorized
// executor (the defaults; the executor runs in builds with the
// duckdb_arrow tag), the same server and database with
// `SET lakesql_planner_rewrites = OFF, lakesql_executor = 'gms'` (plain
// go-mysql-server plans over full scans), and the MariaDB reference.
const (
	SessionLakeSQL     = "lakesql"
	SessionRewritesOff = "lakesql-rewrites-off"
	SessionMariaDB     = "mariadb"
)

// statementTimeout bounds one statement, so that a hang fails the run
// instead of the test binary's whole timeout.
const statementTimeout = 2 * time.Minute

// Engines are the servers a program runs on.
type Engines struct {
	LakeSQL *sql.DB
	MariaDB *sql.DB // nil: compare lakesql's two modes only
}

// Database is one program's database on every engine, with one session
// per engine mode.
type Database struct {
	name     string
	sessions []*session
}

type session struct {
	name    string
	dialect Dialect
	conn    *sql.Conn
	owner   bool // creates and writes the database; the rewrites-off session only reads lakesql's
}

// sessionSpec says how to open one session.
type sessionSpec struct {
	name    string
	dialect Dialect
	pool    *sql.DB
	owner   bool
	init    string // a statement setting the session up, if any
}

// Open creates database name on each engine (dropping a leftover of an
// earlier run) and opens the sessions.
func (e *Engines) Open(ctx context.Context, name string) (*Database, error) {
	db := &Database{name: name}
	specs := []sessionSpec{
		// Pooled connections keep session variables: set the mode
		// either way.
		{SessionLakeSQL, LakeSQL, e.LakeSQL, true, "SET lakesql_planner_rewrites = ON, lakesql_executor = 'duckdb', lakesql_executor_min_rows = 0"},
		{SessionRewritesOff, LakeSQL, e.LakeSQL, false, "SET lakesql_planner_rewrites = OFF, lakesql_executor = 'gms'"},
		// MySQL 8.0 cuts GROUP_CONCAT at 1,024 bytes, MariaDB 10.11 at
		// 1 MB (doc.go).
		{SessionMariaDB, MariaDB, e.MariaDB, true, "SET SESSION group_concat_max_len = 1024"},
	}
	for _, spec := range specs {
		if spec.pool == nil {
			continue
		}
		s, err := openSession(ctx, spec, name)
		if err != nil {
			db.Close(ctx)
			return nil, err
		}
		db.sessions = append(db.sessions, s)
	}
	return db, nil
}

// openSession opens a connection, creates the database if the session
// owns it, and uses it.
func openSession(ctx context.Context, spec sessionSpec, name string) (*session, error) {
	conn, err := spec.pool.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.name, err)
	}
	s := &session{name: spec.name, dialect: spec.dialect, conn: conn, owner: spec.owner}
	stmts := []string{"USE " + name}
	if spec.init != "" {
		stmts = append(stmts, spec.init)
	}
	if spec.owner {
		stmts = append([]string{"DROP DATABASE IF EXISTS " + name, "CREATE DATABASE " + name}, stmts...)
	}
	for _, q := range stmts {
		if err := s.exec(ctx, q); err != nil {
			conn.Close()
			return nil, fmt.Errorf("%s: %s: %w", spec.name, q, err)
		}
	}
	return s, nil
}

// Close drops the database and closes the sessions.
func (d *Database) Close(ctx context.Context) {
	for _, s := range d.sessions {
		if s.owner {
			_ = s.exec(ctx, "DROP DATABASE IF EXISTS "+d.name)
		}
		s.conn.Close()
	}
}

func (s *session) exec(ctx context.Context, q string) error {
	ctx, cancel := context.WithTimeout(ctx, statementTimeout)
	defer cancel()
	_, err := s.conn.ExecContext(ctx, q)
	return err
}

// write runs a set-up statement: the error, and the rows affected, which
// MySQL defines per statement (2 for a replaced or updated duplicate, only
// changed rows for UPDATE) and lakesql promises to follow.
func (s *session) write(ctx context.Context, q string) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, statementTimeout)
	defer cancel()
	res, err := s.conn.ExecContext(ctx, q)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s *session) query(ctx context.Context, q string) *Result {
	ctx, cancel := context.WithTimeout(ctx, statementTimeout)
	defer cancel()
	return query(ctx, s.conn, q)
}

// Finding is a disagreement: a set-up statement that failed on one engine
// only (or a lakesql procedure that failed), or a check whose answers
// differ.
type Finding struct {
	Where   string // "setup 7", "dump t1", "query 3"
	Query   int    // the index of the query in its case; -1 for others
	SQL     string
	Setup   bool // a set-up statement, not a check
	Diffs   []PairDiff
	Answers []Answer
}

// PairDiff is how the answers of two sessions differ; B is empty when A
// failed a statement that has no counterpart to compare with (a
// procedure, or a write when no MariaDB runs).
type PairDiff struct {
	A, B     string
	Mismatch *Mismatch
}

// Answer is one session's answer.
type Answer struct {
	Session string
	Result  *Result
}

// Signature names the class of a finding for deduplication and for the
// minimizer, which keeps a shrunk case only while its signature stays:
// what was compared (set-up, dump or query), how the answers differ (for
// types the two types, for rows the kind of difference, marked when
// lakesql's two modes disagree), and the errors. It leaves out which
// sessions failed, which for some lakesql bugs varies from run to run.
func (f *Finding) Signature() string {
	kind := "query"
	switch {
	case f.Setup:
		kind = "setup"
	case strings.HasPrefix(f.Where, "dump"):
		kind = "dump"
	}
	set := map[string]bool{}
	for _, d := range f.Diffs {
		part := d.Mismatch.Kind
		if d.Mismatch.class != "" {
			part += " (" + d.Mismatch.class + ")"
		}
		if d.Mismatch.Kind != "error" && d.A == SessionLakeSQL && d.B == SessionRewritesOff {
			part = "rewrites on vs off: " + part
		}
		set[part] = true
	}
	for _, a := range f.Answers {
		if a.Result.Err != nil {
			set[fmt.Sprintf("error %d: %s", errorCode(a.Result.Err), errorClass(a.Result.Err))] = true
		}
	}
	return kind + ": " + strings.Join(slices.Sorted(maps.Keys(set)), "; ")
}

var digits = regexp.MustCompile(`[0-9]+`)

// errorClass is an error message without what varies between a case and
// its minimized form: the driver's prefix, numbers (aliases, offsets) and
// the tail.
func errorClass(err error) string {
	msg := oneLine(err.Error())
	if _, rest, ok := strings.Cut(msg, "): "); ok && strings.HasPrefix(msg, "Error ") {
		msg = rest
	}
	msg = digits.ReplaceAllString(msg, "#")
	if len(msg) > 70 {
		msg = msg[:70]
	}
	return msg
}

func (f *Finding) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", f.Where, f.SQL)
	for _, d := range f.Diffs {
		fmt.Fprintf(&b, "  %s vs %s: %s\n", d.A, orNone(d.B), d.Mismatch)
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "(nothing to compare with)"
	}
	return s
}

// SetupOutcome is what running the set-up found.
type SetupOutcome struct {
	Findings []*Finding
	// Invalid are statements every engine refused: the generator wrote
	// SQL that MySQL does not accept.
	Invalid []string
	// Diverged is set when a write failed on one engine only, so the
	// engines may hold different data.
	Diverged bool
}

// Setup runs the set-up lines on the engines they are for.
func (d *Database) Setup(ctx context.Context, lines []Line) SetupOutcome {
	var out SetupOutcome
	for i, l := range lines {
		var answers []Answer
		for _, s := range d.owners() {
			if (s.dialect == LakeSQL && l.LakeSQL) || (s.dialect == MariaDB && l.MariaDB) {
				n, err := s.write(ctx, l.SQL)
				answers = append(answers, Answer{Session: s.name, Result: affected(n, err)})
			}
		}
		f, invalid, diverged := judgeSetup(i, l, answers)
		if f != nil {
			out.Findings = append(out.Findings, f)
		}
		if invalid {
			out.Invalid = append(out.Invalid, l.SQL+": "+answers[0].Result.Err.Error())
		}
		out.Diverged = out.Diverged || diverged
	}
	return out
}

// judgeSetup compares the answers of set-up line i: a statement both
// engines ran must fail on both or neither and affect as many rows; one
// that only one engine ran must not fail. invalid means MariaDB refused
// what the generator wrote; diverged that the engines may now hold
// different data.
func judgeSetup(i int, l Line, answers []Answer) (f *Finding, invalid, diverged bool) {
	if len(answers) == 0 { // a MariaDB line, and no MariaDB
		return nil, false, false
	}
	f = &Finding{Where: fmt.Sprintf("setup %d", i), Query: -1, SQL: l.SQL, Setup: true, Answers: answers}
	first := answers[0]
	switch {
	case len(answers) == 2 && first.Result.Err != nil && answers[1].Result.Err != nil:
		return nil, true, false
	case len(answers) == 2:
		m := comparison{}.compare(first.Result, answers[1].Result)
		if m == nil {
			return nil, false, false
		}
		f.Diffs = []PairDiff{{A: first.Session, B: answers[1].Session, Mismatch: m}}
		return f, false, m.Kind == "error"
	case first.Result.Err == nil:
		return nil, false, false
	case first.Session == SessionMariaDB:
		return nil, true, true
	}
	f.Diffs = []PairDiff{{A: first.Session, Mismatch: &Mismatch{Kind: "error", Detail: summary(first.Result)}}}
	// A failed procedure changes no rows; a failed write (with no
	// MariaDB to compare with) or CREATE TABLE leaves other data.
	return f, false, !strings.HasPrefix(l.SQL, "CALL ")
}

// affected is the answer of a write: its affected-row count as a
// one-cell result, which compares exactly.
func affected(n int64, err error) *Result {
	if err != nil {
		return &Result{Err: err}
	}
	return &Result{
		Columns: []ResultColumn{{Name: "rows affected", Type: "BIGINT"}},
		Rows:    [][]Cell{{{Text: fmt.Sprint(n)}}},
	}
}

func (d *Database) has(name string) bool {
	return slices.ContainsFunc(d.sessions, func(s *session) bool { return s.name == name })
}

func (d *Database) owners() []*session {
	var out []*session
	for _, s := range d.sessions {
		if s.owner {
			out = append(out, s)
		}
	}
	return out
}

// Check runs a check on every session and compares the answers pairwise:
// lakesql's two modes exactly, each with MariaDB by MySQL's rules. It
// returns the finding, or nil when all agree; invalid is set when every
// session failed.
func (d *Database) Check(ctx context.Context, c Check) (f *Finding, invalid bool) {
	f = &Finding{Where: c.Label, Query: c.Query, SQL: c.SQL}
	for _, s := range d.sessions {
		f.Answers = append(f.Answers, Answer{Session: s.name, Result: s.query(ctx, c.SQL)})
	}
	if !slices.ContainsFunc(f.Answers, func(a Answer) bool { return a.Result.Err == nil }) {
		if d.has(SessionMariaDB) {
			return nil, true
		}
		// Without the reference, lakesql refusing a query the generator
		// wrote as valid MySQL is a finding (runs with MariaDB show
		// whether MySQL accepts it).
		f.Diffs = []PairDiff{{A: SessionLakeSQL, Mismatch: &Mismatch{Kind: "error", Detail: summary(f.Answers[0].Result)}}}
		return f, false
	}
	for i := range f.Answers {
		for j := i + 1; j < len(f.Answers); j++ {
			a, b := f.Answers[i], f.Answers[j]
			cmp := comparison{plan: c.Plan, sameEngine: a.Session != SessionMariaDB && b.Session != SessionMariaDB}
			if m := cmp.compare(a.Result, b.Result); m != nil {
				f.Diffs = append(f.Diffs, PairDiff{A: a.Session, B: b.Session, Mismatch: m})
			}
		}
	}
	if len(f.Diffs) == 0 {
		return nil, false
	}
	return f, false
}

// Outcome is what running a whole program found.
type Outcome struct {
	Findings []*Finding
	Invalid  []string
}

// Run runs a program in a new database: the set-up, then, unless a write
// failed on one engine only (a finding that already says the data
// differ), the dumps, and when they agree the queries.
func (e *Engines) Run(ctx context.Context, p *Program, name string) (*Outcome, error) {
	db, err := e.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer db.Close(ctx)
	setup := db.Setup(ctx, p.Setup)
	out := &Outcome{Findings: setup.Findings, Invalid: setup.Invalid}
	if setup.Diverged {
		return out, nil
	}
	diverged := false
	for _, c := range p.Checks {
		if diverged && !c.Dump {
			break
		}
		f, invalid := db.Check(ctx, c)
		if invalid {
			out.Invalid = append(out.Invalid, c.SQL)
		}
		if f != nil {
			out.Findings = append(out.Findings, f)
			diverged = diverged || c.Dump
		}
	}
	return out, nil
}
