package sysprocs

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/sirupsen/logrus"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/maintenance"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/sysprocs/reconcile"
)

// Options are the dependencies of the procedures. Every source of
// nondeterminism is here.
type Options struct {
	// Catalog resolves 'db.t' to a table directory.
	Catalog *catalog.Catalog
	// FileIO reaches the warehouse.
	FileIO fileio.FileIO
	// Now is the clock of commits, tags, retention and waits; default
	// time.Now.
	Now func() time.Time
	// NewUUID names the files and commit users the procedures create;
	// default random version-4 UUIDs.
	NewUUID func() string
	// Sleep waits between two looks at a table in wait_watermark, returning
	// early with the context's error; default a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// WaitPollInterval is the time between those looks; 0 is
	// maintenance.DefaultWaitPollInterval.
	WaitPollInterval time.Duration
	// Logger receives one line per procedure run and compaction progress;
	// default the standard logrus logger.
	Logger logrus.FieldLogger
	// Observer is told what the maintenance procedures did, for metrics;
	// nil tells no one.
	Observer Observer
	// Sources are the source databases sys.reconcile compares tables
	// with, by the name a CALL gives.
	Sources map[string]reconcile.SourceConfig
}

// Observer is told what the maintenance procedures did to a table, named
// by database and table as stored. The server's metrics implement it
// (sqlbackend/metrics); procedures call it after their work is done, and
// Compacted also after a compaction failed.
type Observer interface {
	// Compacted reports a run of sys.compact, err its failure.
	Compacted(db, table string, res compact.Result, err error)
	// CompactionBacklog reports the sorted runs of the latest snapshot
	// after a compaction.
	CompactionBacklog(db, table string, b table.Backlog)
	// SnapshotsExpired reports what sys.expire_snapshots deleted.
	SnapshotsExpired(db, table string, res maintenance.ExpireResult)
	// FilesDeleted reports the files sys.delete_tag or sys.expire_tags
	// (procedure) deleted with the tags, by kind.
	FilesDeleted(db, table, procedure string, deleted map[maintenance.FileKind]int)
	// OrphanFilesDeleted reports what sys.remove_orphan_files deleted.
	OrphanFilesDeleted(db, table string, res maintenance.OrphanResult)
	// PartitionsExpired reports what sys.expire_partitions dropped.
	PartitionsExpired(db, table string, res maintenance.PartitionExpireResult)
	// Reconciled reports a run of sys.reconcile: the rows it compared on
	// both sides and the keys that differ.
	Reconciled(db, table string, rowsCompared, mismatches int64)
}

// Procedures answers CALL sys.<name>(…). It is safe for concurrent use.
type Procedures struct {
	opts Options
	// compaction is the commit user of every sys.compact of this process,
	// so that its commit identifiers keep increasing across calls.
	compaction *compact.Identity
	registry   sql.ExternalStoredProcedureRegistry
}

var _ sql.ExternalStoredProcedureProvider = (*Procedures)(nil)

// New returns the procedures over a warehouse.
func New(opts Options) *Procedures {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = logrus.StandardLogger()
	}
	p := &Procedures{
		opts:       opts,
		compaction: compact.NewCompactionIdentity(opts.NewUUID),
		registry:   sql.NewExternalStoredProcedureRegistry(),
	}
	for _, group := range [][]sql.ExternalStoredProcedureDetails{
		p.compactProcedures(),
		p.expireSnapshotsProcedures(),
		p.tagProcedures(),
		p.rollbackProcedures(),
		p.orphanProcedures(),
		p.expirePartitionsProcedures(),
		p.waitWatermarkProcedures(),
		p.reconcileProcedures(),
	} {
		for _, d := range group {
			p.registry.Register(d)
		}
	}
	return p
}

// ExternalStoredProcedure implements sql.ExternalStoredProcedureProvider:
// the variant of name taking numOfParams arguments. A call with a count no
// variant takes gets MySQL's ER_SP_WRONG_NO_OF_ARGS naming the counts the
// procedure takes; go-mysql-server would run the longest variant into its
// own error, which names only that variant's count. numOfParams -1 asks
// for any variant (GRANT … ON PROCEDURE resolves the name that way), which
// is the longest.
func (p *Procedures) ExternalStoredProcedure(_ *sql.Context, name string, numOfParams int) (*sql.ExternalStoredProcedureDetails, error) {
	d, err := p.registry.LookupByNameAndParamCount(name, numOfParams)
	if d == nil || err != nil || numOfParams < 0 || paramCount(*d) == numOfParams {
		return d, err
	}
	all, err := p.registry.LookupByName(name)
	if err != nil {
		return nil, err
	}
	return nil, wrongArgumentCount(d.Name, all, numOfParams)
}

// wrongArgumentCount is MySQL's error for a CALL with an argument count no
// variant takes. The variants of a procedure take prefixes of one
// argument list (see variants), so their counts form a range.
func wrongArgumentCount(name string, variants []sql.ExternalStoredProcedureDetails, got int) error {
	least, most := math.MaxInt, 0
	for _, v := range variants {
		n := paramCount(v)
		least, most = min(least, n), max(most, n)
	}
	expected := strconv.Itoa(most)
	if least < most {
		expected = fmt.Sprintf("%d to %d", least, most)
	}
	return mysql.NewSQLError(erSPWrongNoOfArgs, mysql.SSClientError,
		"Incorrect number of arguments for PROCEDURE sys.%s; expected %s, got %d", name, expected, got)
}

// paramCount is the number of SQL arguments a variant takes: its Go
// parameters after the context.
func paramCount(d sql.ExternalStoredProcedureDetails) int {
	return reflect.TypeOf(d.Function).NumIn() - 1
}

// ExternalStoredProcedures implements sql.ExternalStoredProcedureProvider.
func (p *Procedures) ExternalStoredProcedures(_ *sql.Context, name string) ([]sql.ExternalStoredProcedureDetails, error) {
	return p.registry.LookupByName(name)
}

// variants registers one procedure under several argument counts: each
// function takes a prefix of the full argument list, and go-mysql-server
// picks the variant by the number of arguments a CALL gives.
func variants(name string, schema sql.Schema, readOnly bool, functions ...any) []sql.ExternalStoredProcedureDetails {
	out := make([]sql.ExternalStoredProcedureDetails, len(functions))
	for i, f := range functions {
		out[i] = sql.ExternalStoredProcedureDetails{Name: name, Schema: schema, Function: f, ReadOnly: readOnly}
	}
	return out
}

// observe tells the observer, if there is one, what a procedure did.
func (p *Procedures) observe(report func(Observer)) {
	if p.opts.Observer != nil {
		report(p.opts.Observer)
	}
}

// logRun records what a procedure did on a table.
func (p *Procedures) logRun(ctx *sql.Context, proc string, t tableRef, what string) {
	p.opts.Logger.WithFields(logrus.Fields{
		"procedure":    "sys." + proc,
		"table":        t.String(),
		"connectionID": ctx.Session.ID(),
	}).Info(what)
}
