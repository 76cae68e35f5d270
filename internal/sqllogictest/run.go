package sqllogictest

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// SlowRecord is the acceptance limit for one record: a record that takes
// longer is counted as slow.
const SlowRecord = 10 * time.Second

// DefaultHashThreshold is the harness's threshold before a script sets one.
const DefaultHashThreshold = 8

// Outcome is what happened to one record.
type Outcome int

const (
	// Passed records gave the expected answer.
	Passed Outcome = iota + 1
	// Failed records gave a wrong answer, an unexpected error or success.
	Failed
	// Skipped records did not apply to the engine, or were refused by
	// design.
	Skipped
)

// Result is the outcome of one statement or query record.
type Result struct {
	Line    int
	SQL     string
	Outcome Outcome
	// Reason says why the record failed or was skipped.
	Reason   string
	Duration time.Duration
	// Disconnected is set when the connection dropped during the record.
	Disconnected bool
}

// Engine is the database a script runs against.
type Engine struct {
	// Name is matched against skipif and onlyif ("mysql" for lakesql and
	// MariaDB).
	Name string
	// Dial returns a connection with the script's database selected; it is
	// called at the start and again after the connection drops.
	Dial func(ctx context.Context) (*sql.Conn, error)
	// Refusals are the statements the engine refuses by design.
	Refusals []Refusal
	// RecordTimeout, when positive, abandons a record that runs longer (it
	// fails, and the connection is replaced) so that one runaway query
	// cannot use up the whole run.
	RecordTimeout time.Duration
}

// Run executes the records in order on one connection and returns the
// outcome of every statement and query record. It stops at a halt record
// that applies to the engine. The error is set when no connection can be
// had, or when ctx ends; the results are then those of the records run
// so far.
func Run(ctx context.Context, engine Engine, records []Record) ([]Result, error) {
	conn, err := engine.Dial(ctx)
	if err != nil {
		return nil, err
	}
	s := &session{engine: engine, conn: conn, threshold: DefaultHashThreshold}
	defer func() { s.conn.Close() }()
	var results []Result
	for i := range records {
		if err := ctx.Err(); err != nil {
			return results, err
		}
		rec := &records[i]
		if rec.Kind == Statement || rec.Kind == Query {
			res, err := s.run(ctx, rec)
			if err != nil {
				return results, err
			}
			results = append(results, res)
			continue
		}
		if !rec.RunsOn(engine.Name) {
			continue
		}
		if rec.Kind == Halt {
			break
		}
		s.threshold = rec.Threshold
	}
	return results, nil
}

// session is the state of one script run: the connection and the hash
// threshold in force.
type session struct {
	engine    Engine
	conn      *sql.Conn
	threshold int
	deps      dependencies
}

// run executes one record. The error is set when ctx ended during the
// record, which then has no outcome, or when the connection was lost and
// no new one can be had.
func (s *session) run(ctx context.Context, rec *Record) (Result, error) {
	res := Result{Line: rec.Line, SQL: rec.SQL}
	if !rec.RunsOn(s.engine.Name) {
		res.Outcome, res.Reason = Skipped, "skipif/onlyif"
		return res, nil
	}
	rctx, cancel := ctx, context.CancelFunc(func() {})
	if s.engine.RecordTimeout > 0 {
		rctx, cancel = context.WithTimeout(ctx, s.engine.RecordTimeout)
	}
	defer cancel()
	start := time.Now()
	var err error
	if rec.Kind == Statement {
		err = s.statement(rctx, rec, &res)
	} else {
		err = s.query(rctx, rec, &res)
	}
	res.Duration = time.Since(start)
	s.deps.judge(rec, &res, err)
	switch {
	case ctx.Err() != nil:
		return res, ctx.Err()
	case err != nil && rctx.Err() != nil:
		// The driver gives up the connection when a query's context ends.
		res.Outcome, res.Reason = Failed, fmt.Sprintf("abandoned after %s", s.engine.RecordTimeout)
		return res, s.redial(ctx)
	case isDisconnect(err):
		// Even where an error was expected: a lost connection is not an
		// answer.
		res.Outcome, res.Reason, res.Disconnected = Failed, "connection lost: "+err.Error(), true
		return res, s.redial(ctx)
	}
	return res, nil
}

func (s *session) redial(ctx context.Context) error {
	s.conn.Close()
	conn, err := s.engine.Dial(ctx)
	if err != nil {
		return fmt.Errorf("reconnecting: %w", err)
	}
	s.conn = conn
	return nil
}

// statement fills res and returns the execution error, if any.
func (s *session) statement(ctx context.Context, rec *Record, res *Result) error {
	_, err := s.conn.ExecContext(ctx, rec.SQL)
	switch {
	case rec.ExpectError && err != nil, !rec.ExpectError && err == nil:
		res.Outcome = Passed
	case rec.ExpectError:
		res.Outcome, res.Reason = Failed, "statement succeeded, expected an error"
	default:
		res.Outcome, res.Reason = Failed, "statement error: "+err.Error()
		if r := refusedBy(s.engine.Refusals, rec.SQL, err); r != nil {
			res.Outcome, res.Reason = Skipped, "refused by design: "+r.Why
			s.deps.refused(rec)
		}
	}
	return err
}

// query fills res and returns the error that ended the query, if any.
func (s *session) query(ctx context.Context, rec *Record, res *Result) error {
	values, err := s.fetch(ctx, rec.SQL, rec.Types)
	if err != nil {
		res.Outcome, res.Reason = Failed, err.Error()
		return err
	}
	SortValues(values, len(rec.Types), rec.Sort)
	if reason := compare(rec.Expected, values, s.threshold); reason != "" {
		res.Outcome, res.Reason = Failed, reason
		return nil
	}
	res.Outcome = Passed
	return nil
}

// errColumnCount is a query result with a different number of columns
// than the record's type string.
var errColumnCount = errors.New("wrong column count")

// fetch runs a query and returns its values formatted by types, row after
// row.
func (s *session) fetch(ctx context.Context, query, types string) ([]string, error) {
	rows, err := s.conn.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("query error: %w", err)
	}
	defer rows.Close()
	columns, err := rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("query error: %w", err)
	}
	if len(columns) != len(types) {
		return nil, fmt.Errorf("%w: got %d, expected %d", errColumnCount, len(columns), len(types))
	}
	var values []string
	raw := make([]any, len(columns))
	dest := make([]any, len(columns))
	for i := range raw {
		dest[i] = &raw[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("query error: %w", err)
		}
		for i, v := range raw {
			values = append(values, FormatValue(v, types[i]))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("query error: %w", err)
	}
	return values, nil
}

// compare returns why values do not match the expected lines, or "" when
// they do. As in the harness, a result of more values than the threshold
// is compared by its hash line, a smaller one value by value.
func compare(expected, values []string, threshold int) string {
	if threshold > 0 && len(values) > threshold {
		got := HashLine(values)
		if len(expected) == 0 || expected[0] != got {
			return fmt.Sprintf("wrong result: got %q, expected %s", got, brief(expected))
		}
		return ""
	}
	if slices.Equal(values, expected) {
		return ""
	}
	return fmt.Sprintf("wrong result: got %s, expected %s", brief(values), brief(expected))
}

// brief shows the first values of a result for a failure message.
func brief(values []string) string {
	const shown = 12
	if len(values) > shown {
		return fmt.Sprintf("%q… (%d values)", values[:shown], len(values))
	}
	return fmt.Sprintf("%q", values)
}

// isDisconnect reports whether err means the connection to the server was
// lost rather than that the server answered with an error.
func isDisconnect(err error) bool {
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysql.ErrInvalidConn) ||
		errors.Is(err, sql.ErrConnDone) || (err != nil && strings.Contains(err.Error(), "invalid connection"))
}
