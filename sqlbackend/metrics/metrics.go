// Package metrics is the Prometheus instrumentation of a lakesql server:
// commits and their conflicts, scans and what they pruned, statements and
// their re-runs, and the compaction backlog and deletions that the
// maintenance procedures report. The SQL backend records into it, the
// server serves it on /metrics; a nil *Metrics records nothing, so a
// backend without metrics needs no checks.
package metrics

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/lakesql/lakesql/planner/rewrite"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// Metrics is the Prometheus instrumentation of one server: what the
// multi-writer runbook watches (who commits, how often commits conflict
// and retry, how far LATEST has advanced, how much scans prune, how far
// compaction is behind, what maintenance deleted). One registry holds it,
// served by Handler on the server's /metrics endpoint; other layers
// register their collectors on Registry. The maintenance procedures report
// through its Compacted, CompactionBacklog, SnapshotsExpired,
// FilesDeleted, OrphanFilesDeleted and PartitionsExpired methods
// (sysprocs.Observer). A nil *Metrics records nothing.
type Metrics struct {
	registry *prometheus.Registry

	commits          *prometheus.CounterVec
	commitSeconds    *prometheus.HistogramVec
	commitConflicts  *prometheus.CounterVec
	commitAttempts   *prometheus.CounterVec
	snapshotsCreated *prometheus.CounterVec
	rowsWritten      *prometheus.CounterVec
	latestSnapshot   *prometheus.GaugeVec
	scans            *prometheus.CounterVec
	scanSplits       *prometheus.CounterVec
	scanFiles        *prometheus.CounterVec
	scanBytes        *prometheus.CounterVec
	scanManifests    *prometheus.CounterVec
	statements       *prometheus.CounterVec
	statementReruns  *prometheus.CounterVec
	engineStatements *prometheus.CounterVec
	keySelectPlans   *prometheus.CounterVec
	engineSeconds    *prometheus.CounterVec

	compactions       *prometheus.CounterVec
	compactionBytes   *prometheus.CounterVec
	compactionFiles   *prometheus.CounterVec
	maxSortedRuns     *prometheus.GaugeVec
	backlogBuckets    *prometheus.GaugeVec
	backlogSnapshot   *prometheus.GaugeVec
	snapshotsExpired  *prometheus.CounterVec
	filesDeleted      *prometheus.CounterVec
	partitionsExpired *prometheus.CounterVec
	reconciledRows    *prometheus.CounterVec
	reconcileMismatch *prometheus.CounterVec

	mu sync.Mutex
	// latest is the highest snapshot id seen per table: a gauge must not
	// go back when a reader pinned earlier reports after a newer commit.
	latest map[tableKey]int64
	// backlogAt is the snapshot each table's backlog gauges were counted
	// from, which only moves forward for the same reason.
	backlogAt map[tableKey]int64
}

type tableKey struct{ db, table string }

// Commit outcomes, the outcome label of lakesql_commits_total.
const (
	outcomeCommitted         = "committed"
	outcomeAlreadyCommitted  = "already-committed"
	outcomeConflictRetryable = "conflict-retryable"
	outcomeConflictTerminal  = "conflict-terminal"
	outcomeUnknown           = "unknown-outcome"
	outcomeError             = "error"
	// outcomeCompactionDropped counts, under kind COMPACT, the inline
	// compaction of a commit whose data part landed and whose compact
	// part failed (commit.CompactPartError): the statement succeeded with
	// a warning, and the data part counts as committed under its kind.
	outcomeCompactionDropped = "dropped"
)

// commitSecondsBuckets span a local commit (a few ms) to one that retried
// against an object store until commit.timeout.
var commitSecondsBuckets = prometheus.ExponentialBuckets(0.002, 2, 16)

// New returns the metrics of a server, with Go runtime and process
// collectors registered next to lakesql's own.
func New() *Metrics {
	m := &Metrics{registry: prometheus.NewRegistry(), latest: map[tableKey]int64{}, backlogAt: map[tableKey]int64{}}
	perTable := []string{"db", "table"}
	m.commits = m.counter("lakesql_commits_total",
		"Commits by table, commit kind (APPEND, OVERWRITE, COMPACT) and outcome (committed, already-committed, conflict-retryable, conflict-terminal, unknown-outcome, error). "+
			"A commit whose rows landed but whose inline compaction part failed, typically lost to a concurrent compaction, succeeds with a warning: it counts as committed under its data kind, and the compaction as kind COMPACT, outcome dropped (after an unknown outcome of that part, it may have landed all the same).",
		append(perTable, "kind", "outcome")...)
	m.commitSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "lakesql_commit_duration_seconds",
		Help:    "Time a commit took, conflict checks and publish retries included, by outcome.",
		Buckets: commitSecondsBuckets,
	}, append(perTable, "outcome"))
	m.registry.MustRegister(m.commitSeconds)
	m.commitConflicts = m.counter("lakesql_commit_conflicts_total",
		"Commits, and dropped inline compaction parts of commits, that failed on a concurrent commit, by conflict kind (retries-exhausted: the publish race was lost until commit.max-retries or commit.timeout).",
		append(perTable, "conflict")...)
	m.commitAttempts = m.counter("lakesql_commit_attempts_total",
		"Publish attempts of failed commits that report them (conflicts and exhausted retries).", perTable...)
	m.snapshotsCreated = m.counter("lakesql_snapshots_created_total", "Snapshots this server published.", perTable...)
	m.rowsWritten = m.counter("lakesql_rows_written_total",
		"Records in the data files of published commits; a row-level delete is a record too.", perTable...)
	m.latestSnapshot = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "lakesql_latest_snapshot_id",
		Help: "Highest snapshot id of the table this server has committed or read.",
	}, perTable)
	m.registry.MustRegister(m.latestSnapshot)
	m.scans = m.counter("lakesql_scans_total", "Planned table scans.", perTable...)
	m.scanSplits = m.counter("lakesql_scan_splits_total", "Splits of planned scans.", perTable...)
	m.scanFiles = m.counter("lakesql_scan_files_total",
		"Data files of the manifests scans read, by decision: kept, or the reason it was pruned.", append(perTable, "decision")...)
	m.scanBytes = m.counter("lakesql_scan_bytes_total",
		"Bytes of the data files of the manifests scans read, by decision.", append(perTable, "decision")...)
	m.scanManifests = m.counter("lakesql_scan_manifests_total",
		"Manifests of scanned snapshots, by decision: kept (read), or pruned unread.", append(perTable, "decision")...)
	m.statements = m.counter("lakesql_statements_total",
		"Statements by kind (first keyword) and outcome (ok, error).", "kind", "outcome")
	m.statementReruns = m.counter("lakesql_statement_reruns_total",
		"Autocommit statements run again on a newer snapshot because their commit lost a write-write conflict, by kind (first keyword); each run counts once.", "kind")
	m.engineStatements = m.counter("lakesql_executor_statements_total",
		"Statements that read tables on a server with the vectorized executor, by the engine their reads ran on: duckdb, gms (not translated, or tables under lakesql_executor_min_rows), gms-fallback (refused by the executor at run time).", "engine")
	m.engineSeconds = m.counter("lakesql_executor_seconds_total",
		"Seconds the statements of lakesql_executor_statements_total took, from receipt to the last row sent, by the same engine.", "engine")
	m.keySelectPlans = m.counter("lakesql_key_select_plans_total",
		"Key selects (point and range selects of one table) by what the server's plan cache did: cached (ran from a cached plan, without analysis), learned (analyzed, and its plan cached), stale (a cached plan whose table changed, run through analysis).", "outcome")
	m.registerMaintenance(perTable)
	m.registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *Metrics) counter(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	m.registry.MustRegister(c)
	return c
}

func (m *Metrics) gauge(name, help string, labels ...string) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, labels)
	m.registry.MustRegister(g)
	return g
}

// Registry is where other layers register their collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.registry }

// Handler serves the registry in the Prometheus exposition formats.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry})
}

// CommitEvent is one call of Committer.Commit as the SQL layer made it.
type CommitEvent struct {
	DB, Table string
	Request   commit.Request
	Result    commit.Result
	Err       error
	// Duration is how long Commit took.
	Duration time.Duration
}

// RecordCommit counts a commit: its outcome and latency, the conflict
// and attempts its error reports, the snapshots it published (raising the
// latest-snapshot gauge) and the rows it wrote. A failed compact part
// (commit.CompactPartError) does not fail the commit: its data part
// counts as committed, and the compaction as dropped.
func (m *Metrics) RecordCommit(e CommitEvent) {
	if m == nil {
		return
	}
	dataErr := e.Err
	var cpe *commit.CompactPartError
	if errors.As(e.Err, &cpe) {
		dataErr = nil
		m.commits.WithLabelValues(e.DB, e.Table, string(spec.CommitKindCompact), outcomeCompactionDropped).Inc()
	}
	outcome := commitOutcome(e.Result, dataErr)
	m.commits.WithLabelValues(e.DB, e.Table, string(requestKind(e.Request)), outcome).Inc()
	m.commitSeconds.WithLabelValues(e.DB, e.Table, outcome).Observe(e.Duration.Seconds())
	if conflict, attempts := conflictOf(e.Err); conflict != "" {
		m.commitConflicts.WithLabelValues(e.DB, e.Table, conflict).Inc()
		m.commitAttempts.WithLabelValues(e.DB, e.Table).Add(float64(attempts))
	}
	if n := len(e.Result.Snapshots); n > 0 {
		m.snapshotsCreated.WithLabelValues(e.DB, e.Table).Add(float64(n))
		m.ObserveSnapshot(e.DB, e.Table, e.Result.Snapshots[n-1])
		// With AlreadyCommittedIn set, the data part landed earlier and
		// only the compact part was published now.
		if e.Result.AlreadyCommittedIn == 0 {
			m.rowsWritten.WithLabelValues(e.DB, e.Table).Add(float64(newRecords(e.Request)))
		}
	}
}

// commitOutcome classifies a commit by the lakeerr class of its error.
func commitOutcome(res commit.Result, err error) string {
	switch {
	case err == nil && res.AlreadyCommitted():
		return outcomeAlreadyCommitted
	case err == nil:
		return outcomeCommitted
	case errors.Is(err, lakeerr.ErrRetryableConflict):
		return outcomeConflictRetryable
	case errors.Is(err, lakeerr.ErrTerminalConflict):
		return outcomeConflictTerminal
	case errors.Is(err, lakeerr.ErrUnknownOutcome):
		return outcomeUnknown
	}
	return outcomeError
}

// conflictLabels name the conflict kinds as label values.
var conflictLabels = map[commit.ConflictKind]string{
	commit.BucketCountChanged:     "bucket-count-changed",
	commit.InvalidDelta:           "invalid-delta",
	commit.OverwriteTargetChanged: "overwrite-target-changed",
	commit.FileAddedTwice:         "file-added-twice",
	commit.DeletedFileNotLive:     "deleted-file-not-live",
	commit.KeyRangeOverlap:        "key-range-overlap",
	commit.WriteWriteConflict:     "write-write",
}

// conflictOf names the conflict a commit error reports and the publish
// attempts it made; "" when the error is not a conflict.
func conflictOf(err error) (conflict string, attempts int) {
	var ce *commit.ConflictError
	var re *commit.RetryExhaustedError
	var su *commit.SharedUserError
	var ie *commit.IdentityError
	switch {
	case errors.As(err, &ce):
		if label, ok := conflictLabels[ce.Kind]; ok {
			return label, ce.Attempt
		}
		return "other", ce.Attempt
	case errors.As(err, &re):
		return "retries-exhausted", re.Attempts
	case errors.As(err, &su):
		return "shared-user", 0
	case errors.As(err, &ie):
		return "identity", 0
	}
	return "", 0
}

// requestKind is the kind of the first snapshot a request publishes: its
// data part (APPEND or OVERWRITE), or COMPACT when it only compacts.
func requestKind(req commit.Request) spec.CommitKind {
	if req.Overwrite != nil {
		return spec.CommitKindOverwrite
	}
	compacts := false
	for i := range req.Messages {
		msg := &req.Messages[i]
		if len(msg.NewFiles)+len(msg.DeletedFiles)+len(msg.ChangelogFiles)+len(msg.NewIndexFiles)+len(msg.DeletedIndexFiles) > 0 {
			return spec.CommitKindAppend
		}
		if len(msg.CompactBefore)+len(msg.CompactAfter)+len(msg.CompactNewIndexFiles)+len(msg.CompactDeletedIndexFiles) > 0 {
			compacts = true
		}
	}
	if compacts {
		return spec.CommitKindCompact
	}
	return spec.CommitKindAppend
}

// newRecords counts the records of the data files a request adds.
func newRecords(req commit.Request) int64 {
	var n int64
	for _, msg := range req.Messages {
		for _, f := range msg.NewFiles {
			n += f.RowCount
		}
	}
	return n
}

// ObserveSnapshot raises the table's latest-snapshot gauge to id; an
// older id (a reader pinned before a newer commit) leaves it.
func (m *Metrics) ObserveSnapshot(db, tableName string, id int64) {
	if m == nil || id <= 0 {
		return
	}
	key := tableKey{db, tableName}
	m.mu.Lock()
	defer m.mu.Unlock()
	if id <= m.latest[key] {
		return
	}
	m.latest[key] = id
	m.latestSnapshot.WithLabelValues(db, tableName).Set(float64(id))
}

// RecordScan counts a planned scan: its splits, and what planning kept
// and pruned of the snapshot's manifests and data files. The fallback
// branch's part counts for the same table. A plan that lists every file
// of a snapshot newer than the backlog gauges show sets them.
func (m *Metrics) RecordScan(db, tableName string, plan *table.Plan) {
	if m == nil || plan == nil {
		return
	}
	m.recordPlanBacklog(db, tableName, plan)
	m.countScan(db, tableName, plan)
}

// countScan counts a plan and its fallback branch's part.
func (m *Metrics) countScan(db, tableName string, plan *table.Plan) {
	m.scans.WithLabelValues(db, tableName).Inc()
	m.scanSplits.WithLabelValues(db, tableName).Add(float64(len(plan.Splits)))
	if plan.Snapshot != nil {
		m.ObserveSnapshot(db, tableName, plan.Snapshot.ID)
	}
	if plan.Scan != nil {
		for _, md := range plan.Scan.Explain.Manifests {
			m.scanManifests.WithLabelValues(db, tableName, decisionLabel(md.Reason)).Inc()
		}
		for _, fd := range plan.Scan.Explain.Files {
			decision := decisionLabel(fd.Reason)
			m.scanFiles.WithLabelValues(db, tableName, decision).Inc()
			m.scanBytes.WithLabelValues(db, tableName, decision).Add(float64(fd.FileSize))
		}
	}
	if plan.Fallback != nil && plan.Fallback.Plan != nil {
		m.countScan(db, tableName, plan.Fallback.Plan)
	}
}

// decisionLabels name the planner's decisions as label values.
var decisionLabels = map[scan.Reason]string{
	scan.Kept:                     "kept",
	scan.PrunedByPartition:        "pruned-partition",
	scan.PrunedByBucket:           "pruned-bucket",
	scan.InvisibleLevel0:          "invisible-level0",
	scan.PostponeBucket:           "postpone-bucket",
	scan.PrunedByKeyStats:         "pruned-key-stats",
	scan.PrunedByValueStats:       "pruned-value-stats",
	scan.PrunedByBucketValueStats: "pruned-bucket-value-stats",
}

func decisionLabel(r scan.Reason) string {
	if label, ok := decisionLabels[r]; ok {
		return label
	}
	return "pruned-other"
}

// RecordStatement counts a statement by its kind and whether it failed.
func (m *Metrics) RecordStatement(query string, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.statements.WithLabelValues(statementKind(query), outcome).Inc()
}

// RecordEngineChoice counts a statement by the engine its reads run on.
func (m *Metrics) RecordEngineChoice(engine string) {
	if m == nil {
		return
	}
	m.engineStatements.WithLabelValues(engine).Inc()
}

// RecordEngineTime adds the time of one statement whose reads ran on the
// engine.
func (m *Metrics) RecordEngineTime(engine string, d time.Duration) {
	if m == nil {
		return
	}
	m.engineSeconds.WithLabelValues(engine).Add(d.Seconds())
}

// RecordKeySelectPlan counts a key select by what the plan cache did:
// cached, learned or stale.
func (m *Metrics) RecordKeySelectPlan(outcome string) {
	if m == nil {
		return
	}
	m.keySelectPlans.WithLabelValues(outcome).Inc()
}

// RecordRerun counts one more run of an autocommit statement after a lost
// write-write conflict.
func (m *Metrics) RecordRerun(query string) {
	if m == nil {
		return
	}
	m.statementReruns.WithLabelValues(statementKind(query)).Inc()
}

// statementKinds are the first keywords counted by name; synonyms map to
// one kind. Anything else is OTHER, which keeps the label set bounded
// whatever clients send.
var statementKinds = map[string]string{
	"SELECT": "SELECT", "WITH": "SELECT", "TABLE": "SELECT", "VALUES": "SELECT",
	"INSERT": "INSERT", "REPLACE": "REPLACE", "UPDATE": "UPDATE", "DELETE": "DELETE",
	"CALL": "CALL", "SHOW": "SHOW", "DESCRIBE": "DESCRIBE", "DESC": "DESCRIBE", "EXPLAIN": "EXPLAIN",
	"SET": "SET", "USE": "USE",
	"BEGIN": "BEGIN", "START": "BEGIN", "COMMIT": "COMMIT", "ROLLBACK": "ROLLBACK",
	"CREATE": "CREATE", "ALTER": "ALTER", "DROP": "DROP", "TRUNCATE": "TRUNCATE", "RENAME": "RENAME",
	"ANALYZE": "ANALYZE", "KILL": "KILL", "PREPARE": "PREPARE", "EXECUTE": "EXECUTE", "DEALLOCATE": "DEALLOCATE",
	"GRANT": "GRANT", "REVOKE": "REVOKE",
}

// statementKind is the kind a statement is counted under: its first
// keyword after comments and opening parentheses, upper-cased, or OTHER.
func statementKind(query string) string {
	rest := rewrite.StatementStart(query)
	end := strings.IndexFunc(rest, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
	if end >= 0 {
		rest = rest[:end]
	}
	if kind, ok := statementKinds[strings.ToUpper(rest)]; ok {
		return kind
	}
	return "OTHER"
}
