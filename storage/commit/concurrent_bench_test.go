package commit_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/internal/testkit/writetest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// BenchmarkConcurrentCommits measures commit throughput of 1, 4 and 8
// writers committing to one primary-key table on the local disk (real
// fsyncs), each commit adding one small data file: the shape of many
// small streaming jobs on one table. Each writer has its own Committer and
// commit user, and retries a commit that ran out of retries with the same
// request, as a job would. The writers share one FileIO, as the sessions of
// one server do, so their commits are grouped (see doc.go, Group commit).
//
// The table grows by b.N files during the run, and every commit reads the
// live files of its partition for the conflict check, so the rate depends
// on b.N: compare runs with the same -benchtime=Nx.
//
// Metrics: commits/s in total; retries/commit (lost publish races, which
// only writers outside the group cause);
// exhausted/commit (commits that ran out of commit.max-retries);
// writes/commit (puts and overwrites: localio fsyncs each file, and its
// directory once it is in place); hint-writes/commit (advisory files
// written through fileio.HintWriter: the file is fsynced, its directory is
// not); reads/commit (files read); and where the
// writers' time goes, summed over writers: backoff-ms/commit (waiting
// before a retry), write-ms/commit and read-ms/commit (in FileIO); and
// cpu-ms/commit, the process's CPU time (user and system).
func BenchmarkConcurrentCommits(b *testing.B) {
	for _, writers := range []int{1, 4, 8} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) { benchConcurrentCommits(b, writers) })
	}
}

func benchConcurrentCommits(b *testing.B, writers int) {
	ctx := context.Background()
	tt := createBenchTable(b)
	dir := tt.Dir
	tmpl := writeKeysFile(tt, 0, 1, 2)
	reqs := benchRequests(b, dir, tmpl, writers)
	fs := &countingFS{FileIO: localio.New()}
	var slept sleepMeter
	committers := make([]*commit.Committer, writers)
	for w := range committers {
		committers[w] = newBenchCommitter(b, fs, dir, slept.sleep)
	}
	var exhausted atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	b.ResetTimer()
	cpuStart, cpuOK := processCPUTime()
	for w := range writers {
		wg.Go(func() {
			for _, req := range reqs[w] {
				if err := commitRetrying(ctx, committers[w], req, &exhausted); err != nil {
					failed.Store(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	cpuEnd, cpuEndOK := processCPUTime()
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
	n := float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "commits/s")
	b.ReportMetric(float64(fs.lostRaces.Load())/n, "retries/commit")
	b.ReportMetric(float64(exhausted.Load())/n, "exhausted/commit")
	b.ReportMetric(float64(fs.syncedWrites.Load())/n, "writes/commit")
	b.ReportMetric(float64(fs.hintWrites.Load())/n, "hint-writes/commit")
	b.ReportMetric(float64(fs.reads.Load())/n, "reads/commit")
	ms := func(total *atomic.Int64) float64 { return float64(total.Load()) / 1e6 / n }
	b.ReportMetric(ms(&slept.total), "backoff-ms/commit")
	b.ReportMetric(ms(&fs.writeTime), "write-ms/commit")
	b.ReportMetric(ms(&fs.readTime), "read-ms/commit")
	if cpuOK && cpuEndOK {
		b.ReportMetric(float64(cpuEnd-cpuStart)/1e6/n, "cpu-ms/commit")
	}
}

// commitRetrying commits req, committing it again while it runs out of
// retries: the landed check makes that safe.
func commitRetrying(ctx context.Context, c *commit.Committer, req commit.Request, exhausted *atomic.Int64) error {
	for {
		_, err := c.Commit(ctx, req)
		var re *commit.RetryExhaustedError
		if !errors.As(err, &re) {
			return err
		}
		exhausted.Add(1)
	}
}

// createBenchTable creates db.payments on the local disk and returns it.
func createBenchTable(b *testing.B) *tabletest.Table {
	b.Helper()
	str := spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
	bigint := spec.DataType{Root: spec.BigInt, Nullable: true}
	def := catalog.TableDefinition{
		Fields: []spec.DataField{
			{Name: "dt", Type: str}, {Name: "pay_id", Type: bigint}, {Name: "amount", Type: bigint},
		},
		PartitionKeys: []string{"dt"}, PrimaryKeys: []string{"dt", "pay_id"},
		Options: map[string]string{"bucket": "1"},
	}
	return tabletest.Create(b, tabletest.Config{FS: localio.New(), Warehouse: b.TempDir(), Name: "payments"}, def)
}

// template is one real data file written by storage/write (writetest),
// never committed itself.
type template struct {
	msg  commit.Message
	path string
}

// benchRequests builds b.N requests, split among the writers, each adding
// a hard link of the template under a new name: the table stays readable,
// and the data files cost the timed loop nothing.
func benchRequests(b *testing.B, dir string, tmpl template, writers int) [][]commit.Request {
	b.Helper()
	reqs := make([][]commit.Request, writers)
	for i := range b.N {
		w := i % writers
		m := linkOf(b, tmpl, fmt.Sprintf("data-bench-%d-%d.parquet", w, i))
		reqs[w] = append(reqs[w], commit.Request{
			CommitUser: fmt.Sprintf("bench-%d", w), Identifier: int64(len(reqs[w]) + 1), Messages: []commit.Message{m}})
	}
	return reqs
}

func newBenchCommitter(b *testing.B, fs fileio.FileIO, dir string, sleep func(context.Context, time.Duration) error) *commit.Committer {
	b.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, fs, dir)
	if err != nil {
		b.Fatal(err)
	}
	s, err := tbl.LatestSchema(ctx)
	if err != nil {
		b.Fatal(err)
	}
	c, err := commit.New(commit.Options{FileIO: fs, TableDir: dir, Core: s.CoreOptions(), Sleep: sleep})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// countingFS counts what commits cost the storage, and the time the
// writers spend in it (summed over writers: with 8 writers, 8 seconds per
// second of wall time).
type countingFS struct {
	fileio.FileIO
	lostRaces    atomic.Int64
	syncedWrites atomic.Int64
	hintWrites   atomic.Int64
	reads        atomic.Int64
	writeTime    atomic.Int64
	readTime     atomic.Int64
}

func (f *countingFS) timed(total *atomic.Int64) func() {
	start := time.Now()
	return func() { total.Add(int64(time.Since(start))) }
}

func (f *countingFS) PutIfAbsent(ctx context.Context, p string, data []byte) error {
	defer f.timed(&f.writeTime)()
	f.syncedWrites.Add(1)
	err := f.FileIO.PutIfAbsent(ctx, p, data)
	if errors.Is(err, fileio.ErrExist) && strings.Contains(p, "/snapshot/snapshot-") {
		f.lostRaces.Add(1)
	}
	return err
}

// StagePut forwards the capability the embedded FileIO would hide, so
// that the writers stage snapshots as they would on localio. The put is
// counted when it is made.
func (f *countingFS) StagePut(ctx context.Context, p string, data []byte) (fileio.Staged, error) {
	defer f.timed(&f.writeTime)()
	s, err := fileio.StagePut(ctx, f.FileIO, p, data)
	if err != nil {
		return nil, err
	}
	return &countedStage{Staged: s, fs: f, path: p}, nil
}

type countedStage struct {
	fileio.Staged
	fs   *countingFS
	path string
}

func (s *countedStage) Put(ctx context.Context) error {
	defer s.fs.timed(&s.fs.writeTime)()
	s.fs.syncedWrites.Add(1)
	err := s.Staged.Put(ctx)
	if errors.Is(err, fileio.ErrExist) && strings.Contains(s.path, "/snapshot/snapshot-") {
		s.fs.lostRaces.Add(1)
	}
	return err
}

func (f *countingFS) Overwrite(ctx context.Context, p string, data []byte) error {
	defer f.timed(&f.writeTime)()
	f.syncedWrites.Add(1)
	return f.FileIO.Overwrite(ctx, p, data)
}

// OverwriteHint forwards the capability the embedded FileIO would hide,
// counted apart: localio fsyncs the file but not its directory.
func (f *countingFS) OverwriteHint(ctx context.Context, p string, data []byte) error {
	defer f.timed(&f.writeTime)()
	f.hintWrites.Add(1)
	return fileio.OverwriteHint(ctx, f.FileIO, p, data)
}

func (f *countingFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	defer f.timed(&f.readTime)()
	f.reads.Add(1)
	return f.FileIO.ReadFile(ctx, p)
}

func (f *countingFS) Open(ctx context.Context, p string) (fileio.File, error) {
	defer f.timed(&f.readTime)()
	f.reads.Add(1)
	return f.FileIO.Open(ctx, p)
}

// sleepMeter is the Committers' Sleep: a real wait, measured.
type sleepMeter struct{ total atomic.Int64 }

func (m *sleepMeter) sleep(ctx context.Context, d time.Duration) error {
	m.total.Add(int64(d))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// BenchmarkKeyCheckedCommit measures the latency of a read-modify-write
// commit (commit.KeyCheck) on the local disk, with 0, 1 and 10 snapshots
// committed by other writers since its base. Their files are in its
// bucket and overlap its key range without sharing a key, the worst case
// short of a conflict: the check reads the keys of every one of them and
// of its own file. Metrics: ms/commit of the timed commit alone, and
// reads/commit (files read).
func BenchmarkKeyCheckedCommit(b *testing.B) {
	for _, concurrent := range []int{0, 1, 10} {
		b.Run(fmt.Sprintf("concurrent=%d", concurrent), func(b *testing.B) { benchKeyCheckedCommit(b, concurrent) })
	}
}

func benchKeyCheckedCommit(b *testing.B, concurrent int) {
	ctx := context.Background()
	tt := createBenchTable(b)
	dir := tt.Dir
	mine, theirs := writeKeysFile(tt, 1, 3, 5), writeKeysFile(tt, 2, 4, 6)
	fs := &countingFS{FileIO: localio.New()}
	c := newBenchCommitter(b, fs, dir, nil)
	other := newBenchCommitter(b, localio.New(), dir, nil)
	tbl, err := table.Open(ctx, fs, dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	reads := int64(0)
	for i := range b.N {
		b.StopTimer()
		base, _, err := tbl.Snapshots().LatestID(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for j := range concurrent {
			req := commit.Request{CommitUser: "other", Identifier: int64(i*concurrent + j + 1),
				Messages: []commit.Message{linkOf(b, theirs, fmt.Sprintf("data-other-%d-%d.parquet", i, j))}}
			if _, err := other.Commit(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
		req := commit.Request{CommitUser: "rmw", Identifier: int64(i + 1), KeyCheck: &commit.KeyCheck{BaseSnapshotID: base},
			Messages: []commit.Message{linkOf(b, mine, fmt.Sprintf("data-mine-%d.parquet", i))}}
		before := fs.reads.Load()
		b.StartTimer()
		if _, err := c.Commit(ctx, req); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		reads += fs.reads.Load() - before
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/commit")
	b.ReportMetric(float64(reads)/float64(b.N), "reads/commit")
}

// writeKeysFile writes a data file of partition 2024-06-01 holding the
// given keys, never committed itself.
func writeKeysFile(tt *tabletest.Table, keys ...int64) template {
	tt.T.Helper()
	var rows []tabletest.Record
	for _, k := range keys {
		rows = append(rows, tabletest.Insert("2024-06-01", k, k*100))
	}
	msgs := writetest.Prepare(tt, writetest.Options(tt), rows...)
	if len(msgs) != 1 || len(msgs[0].NewFiles) != 1 {
		tt.T.Fatalf("keys file: %d messages", len(msgs))
	}
	m := msgs[0]
	return template{msg: m, path: filepath.Join(tt.Dir, "dt=2024-06-01", fmt.Sprintf("bucket-%d", m.Bucket), m.NewFiles[0].FileName)}
}

// linkOf is a message adding a hard link of the template's file under name.
func linkOf(b *testing.B, tmpl template, name string) commit.Message {
	b.Helper()
	meta := tmpl.msg.NewFiles[0]
	meta.FileName = name
	if err := os.Link(tmpl.path, filepath.Join(filepath.Dir(tmpl.path), name)); err != nil {
		b.Fatal(err)
	}
	m := tmpl.msg
	m.NewFiles = []spec.DataFileMeta{meta}
	return m
}
