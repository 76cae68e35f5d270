package integration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

// The parent hands a writer process its job through the environment.
const (
	envTable    = "LAKESQL_IT_TABLE"
	envWriter   = "LAKESQL_IT_WRITER"
	envBatches  = "LAKESQL_IT_BATCHES"
	envRows     = "LAKESQL_IT_ROWS"
	envRecommit = "LAKESQL_IT_RECOMMIT_EVERY"
	envSpill    = "LAKESQL_IT_SPILL"
	// envDieAfterPut makes the process kill itself with SIGKILL right
	// after the snapshot of this batch is published: the commit landed,
	// but neither the LATEST hint nor the receipt was written, and the
	// writer never learned of it.
	envDieAfterPut = "LAKESQL_IT_DIE_AFTER_PUT"
)

// linePrefix marks the lines a writer process reports on, since the test
// framework writes to the same stdout.
const linePrefix = "it: "

// writerJob is what one writer process does: commit batches 1..batches of
// rows rows each as user w<writer>, and commit again every recommitEvery-th
// batch it committed, as a job retrying after a timeout would.
type writerJob struct {
	writer        int
	batches, rows int
	recommitEvery int
	// dieAfterPut, if not 0, is the batch after whose snapshot put the
	// process kills itself.
	dieAfterPut int
}

func (j writerJob) user() string { return fmt.Sprintf("w%d", j.writer) }

func (j writerJob) env(tableDir, spillDir string) []string {
	return []string{
		envTable + "=" + tableDir, envSpill + "=" + spillDir,
		envWriter + "=" + strconv.Itoa(j.writer), envBatches + "=" + strconv.Itoa(j.batches),
		envRows + "=" + strconv.Itoa(j.rows), envRecommit + "=" + strconv.Itoa(j.recommitEvery),
		envDieAfterPut + "=" + strconv.Itoa(j.dieAfterPut),
	}
}

func jobFromEnv() (writerJob, error) {
	var j writerJob
	var errs []error
	atoi := func(key string) int {
		n, err := strconv.Atoi(os.Getenv(key))
		errs = append(errs, err)
		return n
	}
	j.writer, j.batches, j.rows, j.recommitEvery = atoi(envWriter), atoi(envBatches), atoi(envRows), atoi(envRecommit)
	j.dieAfterPut = atoi(envDieAfterPut)
	return j, errors.Join(errs...)
}

// TestWriterProcess is the body of a writer process. Run directly, as
// part of the package's tests, it skips.
func TestWriterProcess(t *testing.T) {
	location, ok := os.LookupEnv(envTable)
	if !ok {
		t.Skip("helper process of the multi-process tests")
	}
	job, err := jobFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	fsys, tableDir, err := openLocation(ctx, location)
	if err != nil {
		t.Fatal(err)
	}
	p := &writerProcess{job: job, tableDir: tableDir, spillDir: os.Getenv(envSpill)}
	p.fs.FileIO = fsys
	if err := p.run(ctx); err != nil {
		t.Fatal(err)
	}
	report("done")
}

func report(format string, args ...any) {
	fmt.Printf(linePrefix+format+"\n", args...)
}

type writerProcess struct {
	job      writerJob
	tableDir string
	spillDir string
	// fs is the Committers' view of the table.
	fs dyingFS
}

// dyingFS kills the process right after a snapshot put succeeds, while
// armed.
type dyingFS struct {
	fileio.FileIO
	armed atomic.Bool
}

func (f *dyingFS) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	err := f.FileIO.PutIfAbsent(ctx, p, data)
	if err == nil && f.armed.Load() && strings.Contains(p, "/snapshot/snapshot-") {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
	return err
}

// run commits every batch. Batches are rewritten from scratch on each
// run, so a restarted process re-commits the batches its killed
// predecessor committed: the commits must find them landed.
func (p *writerProcess) run(ctx context.Context) error {
	c, err := p.committer(ctx)
	if err != nil {
		return err
	}
	for id := int64(1); id <= int64(p.job.batches); id++ {
		req, tw, err := p.prepare(ctx, id)
		if err != nil {
			return err
		}
		report("committing id=%d", id)
		p.fs.armed.Store(id == int64(p.job.dieAfterPut))
		res, err := commitUntilDone(ctx, c, req)
		if err != nil {
			return fmt.Errorf("commit %d: %w", id, err)
		}
		if err := p.settle(ctx, tw, res); err != nil {
			return err
		}
		report("committed id=%d snapshots=%v already=%d", id, res.Snapshots, res.AlreadyCommittedIn)
		if p.job.recommitEvery > 0 && id%int64(p.job.recommitEvery) == 0 {
			if err := p.recommit(ctx, req); err != nil {
				return err
			}
		}
	}
	return nil
}

// settle releases the writer of a committed batch. A batch found already
// committed was written again for nothing: its new files are deleted.
func (p *writerProcess) settle(ctx context.Context, tw *write.TableWriter, res commit.Result) error {
	if res.AlreadyCommitted() {
		return tw.Abort(ctx)
	}
	return tw.Close()
}

// recommit commits a committed request again on a new Committer, as a job
// whose commit call timed out after it landed would on restart.
func (p *writerProcess) recommit(ctx context.Context, req commit.Request) error {
	c, err := p.committer(ctx)
	if err != nil {
		return err
	}
	res, err := c.Commit(ctx, req)
	if err != nil || !res.AlreadyCommitted() {
		return fmt.Errorf("recommit of %d: %s, %v; want already committed", req.Identifier, res, err)
	}
	report("recommitted id=%d already=%d", req.Identifier, res.AlreadyCommittedIn)
	return nil
}

func (p *writerProcess) committer(ctx context.Context) (*commit.Committer, error) {
	tbl, err := table.Open(ctx, p.fs.FileIO, p.tableDir)
	if err != nil {
		return nil, err
	}
	s, err := tbl.LatestSchema(ctx)
	if err != nil {
		return nil, err
	}
	return commit.New(commit.Options{FileIO: &p.fs, TableDir: p.tableDir, Core: s.CoreOptions()})
}

// prepare writes batch id and returns its request and the writer holding
// its files.
func (p *writerProcess) prepare(ctx context.Context, id int64) (commit.Request, *write.TableWriter, error) {
	tw, err := write.Open(ctx, write.Options{FileIO: p.fs.FileIO, TableDir: p.tableDir, SpillDir: p.spillDir})
	if err != nil {
		return commit.Request{}, nil, err
	}
	for _, row := range batchRows(p.job.writer, id, p.job.rows) {
		if err := tw.Write(ctx, row, spec.RowKindInsert); err != nil {
			return commit.Request{}, nil, err
		}
	}
	msgs, err := tw.PrepareCommit(ctx)
	if err != nil {
		return commit.Request{}, nil, err
	}
	return commit.Request{CommitUser: p.job.user(), Identifier: id, Messages: msgs}, tw, nil
}

// commitUntilDone retries the same request, with the same identifier,
// while the commit keeps losing races or ends with an unknown outcome: the
// landed check makes the retry safe. Plain appends conflict with nothing
// else.
func commitUntilDone(ctx context.Context, c *commit.Committer, req commit.Request) (commit.Result, error) {
	const maxCalls = 10
	for call := 1; ; call++ {
		res, err := c.Commit(ctx, req)
		retry := errors.Is(err, lakeerr.ErrRetryableConflict) || errors.Is(err, lakeerr.ErrUnknownOutcome)
		if !retry || call == maxCalls {
			return res, err
		}
		report("retrying id=%d after: %v", req.Identifier, err)
	}
}
