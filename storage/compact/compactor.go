package compact

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/internal/ids"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/rowdelete"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// unknownOutcomeRetries is how often a commit whose outcome is unknown is
// retried with the same identifier, which tells whether it landed.
const unknownOutcomeRetries = 3

// Result says what a compaction did.
type Result struct {
	// Snapshot is the COMPACT snapshot the compaction committed, 0 when
	// there was nothing to compact.
	Snapshot int64
	// Attempts counts plans: more than one when a commit lost to a
	// concurrent one and the compaction planned again.
	Attempts int
	// Buckets counts the buckets the snapshot changed.
	Buckets int
	// FilesRewritten were read and replaced by FilesWritten new files;
	// FilesUpgraded moved to a higher level without being rewritten.
	FilesRewritten int
	FilesUpgraded  int
	FilesWritten   int
	BytesRead      int64
	BytesWritten   int64
}

func (r Result) String() string {
	if r.Snapshot == 0 {
		return "nothing to compact"
	}
	return fmt.Sprintf("snapshot %d: %d buckets, %d files rewritten into %d (%d bytes read, %d written), %d upgraded",
		r.Snapshot, r.Buckets, r.FilesRewritten, r.FilesWritten, r.BytesRead, r.BytesWritten, r.FilesUpgraded)
}

// Table compacts one table: it plans every selected bucket against the
// latest snapshot, rewrites them, and commits one COMPACT snapshot. When
// the commit loses to a concurrent commit that removed some of its inputs,
// the files it wrote are deleted and it plans again, up to
// Options.MaxAttempts times; the error then wraps the conflict class
// (lakeerr.ErrTerminalConflict or ErrRetryableConflict). Tables lakesql
// cannot compact are refused with errors wrapping lakeerr.ErrUnsupported.
func Table(ctx context.Context, opts Options) (Result, error) {
	if opts.FileIO == nil {
		return Result{}, errors.New("compact: Options.FileIO is nil")
	}
	withDefaults(&opts)
	held, err := acquireLease(ctx, &opts)
	if err != nil {
		return Result{}, err
	}
	defer held.Release(ctx)
	t, err := table.OpenBranch(ctx, opts.FileIO, opts.TableDir, opts.Branch)
	if err != nil {
		return Result{}, err
	}
	c := &compaction{opts: &opts, table: t, lease: held}
	for attempt := 1; ; attempt++ {
		res, err := c.attempt(ctx, attempt)
		res.Attempts = attempt
		if err == nil || !lostToConcurrentCommit(err) {
			return res, err
		}
		if attempt >= opts.MaxAttempts {
			// Each attempt lost to commits that changed its inputs; a later
			// run plans on what they left, so the compaction as a whole is
			// worth retrying, whatever the last conflict's own class.
			return res, fmt.Errorf("compact %s: lost to concurrent commits %d times; run it again: %w: %w",
				opts.TableDir, attempt, lakeerr.ErrRetryableConflict, err)
		}
		opts.Logf("compact %s: lost to a concurrent commit, planning again (attempt %d of %d): %v",
			opts.TableDir, attempt+1, opts.MaxAttempts, err)
	}
}

func withDefaults(o *Options) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.NewUUID == nil {
		o.NewUUID = ids.NewUUID
	}
	if o.Identity == nil {
		o.Identity = NewCompactionIdentity(o.NewUUID)
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = defaultMaxAttempts
	}
	if o.Parallelism <= 0 {
		o.Parallelism = defaultParallelism
	}
	if o.ProgressInterval <= 0 {
		o.ProgressInterval = defaultProgressInterval
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
}

// lostToConcurrentCommit tells an attempt that failed because of
// concurrent commits from other failures: only those are worth planning
// again. Its commit conflicted, or lost publish races until the retries
// ran out; or an input file was gone, because another compaction replaced
// it and snapshot expiry deleted it while this one read the older plan.
// A lost lease is not: the compaction stalled, and its next attempt would
// hold the same lease.
func lostToConcurrentCommit(err error) bool {
	if errors.Is(err, lease.ErrExpired) {
		return false
	}
	return errors.Is(err, lakeerr.ErrTerminalConflict) || errors.Is(err, lakeerr.ErrRetryableConflict) ||
		errors.Is(err, fileio.ErrNotExist)
}

// compaction is one Table call.
type compaction struct {
	opts  *Options
	table *table.Table
	// committer commits every attempt made under one schema. Committers
	// of one FileIO share a cache of manifests only while one of them is
	// alive, so a committer per attempt would make what the next attempt
	// reads depend on when the garbage collector dropped the last one.
	committer       *commit.Committer
	committerSchema int64
	// lease protects the files of every attempt until its commit returns.
	lease *lease.Handle
}

// attempt plans, rewrites and commits once.
func (c *compaction) attempt(ctx context.Context, attempt int) (Result, error) {
	s, err := c.table.LatestSchema(ctx)
	if err != nil {
		return Result{}, err
	}
	cfg, err := newTableConfig(withDynamicOptions(s, c.opts.DynamicOptions), c.opts.Now())
	if err != nil {
		return Result{}, fmt.Errorf("compact %s: %w", c.opts.TableDir, err)
	}
	filter, err := newPartitionFilter(cfg.schema, c.opts.Partitions)
	if err != nil {
		return Result{}, err
	}
	snap, err := c.table.Snapshots().Latest(ctx)
	if err != nil || snap == nil {
		return Result{}, err
	}
	jobs, err := c.plan(ctx, cfg, snap, filter)
	if err != nil || len(jobs) == 0 {
		return Result{}, err
	}
	rw, err := c.newRewriter(cfg, jobs)
	if err != nil {
		return Result{}, err
	}
	rw.progress.start(jobs)
	if c.opts.hooks.beforeRewrite != nil {
		c.opts.hooks.beforeRewrite(attempt)
	}
	outs, err := runJobs(ctx, rw, jobs, c.opts.Parallelism)
	if err != nil {
		return Result{}, err
	}
	if c.opts.hooks.beforeCommit != nil {
		c.opts.hooks.beforeCommit(attempt)
	}
	return c.commit(ctx, s, snap.ID, outs)
}

func (c *compaction) plan(ctx context.Context, cfg *tableConfig, snap *spec.Snapshot, filter *partitionFilter) ([]*job, error) {
	entries, err := c.table.LiveFiles(ctx, snap)
	if err != nil {
		return nil, err
	}
	buckets, err := groupBuckets(entries, cfg.schema, c.table.Dir(), filter)
	if err != nil {
		return nil, err
	}
	if cfg.deletionVectors {
		if err := c.attachVectors(ctx, cfg.schema, snap, buckets); err != nil {
			return nil, err
		}
	}
	p := &planner{cfg: cfg, mode: c.opts.Mode, schemaOf: func(id int64) (*spec.TableSchema, error) {
		return c.table.Schemas().Schema(ctx, id)
	}}
	var jobs []*job
	for _, b := range buckets {
		j, err := p.planBucket(b)
		if err != nil {
			return nil, fmt.Errorf("compact %s: %w", c.opts.TableDir, err)
		}
		if j != nil {
			jobs = append(jobs, j)
		}
	}
	return jobs, nil
}

// attachVectors gives each bucket its deletion vectors in snap.
func (c *compaction) attachVectors(ctx context.Context, s *spec.TableSchema, snap *spec.Snapshot, buckets []*bucket) error {
	index, err := c.table.IndexFiles(ctx, snap)
	if err != nil {
		return err
	}
	for _, b := range buckets {
		b.attachVectors(c.table, s, rowdelete.VectorFiles(index, &b.plan))
	}
	return nil
}

// attachVectors gives b the deletion-vector index files vectors, and its
// plan where each data file's vector is.
func (b *bucket) attachVectors(t *table.Table, s *spec.TableSchema, vectors []spec.IndexFileMeta) {
	b.vectors = vectors
	for i := range b.vectors {
		f := &b.vectors[i]
		p := t.BucketIndexFilePath(s, b.plan.Dir, f)
		for _, r := range f.DeletionVectorRanges {
			if b.plan.DeletionFiles == nil {
				b.plan.DeletionFiles = map[string]table.DeletionFile{}
			}
			b.plan.DeletionFiles[r.DataFileName] = table.DeletionFile{Path: p, Meta: r}
		}
	}
}

func (c *compaction) newRewriter(cfg *tableConfig, jobs []*job) (*rewriter, error) {
	rw, err := newRewriter(c.opts, c.table.Schemas(), cfg, jobs)
	if rw != nil {
		rw.lease = c.lease
		rw.table = c.table
	}
	return rw, err
}

// newRewriter returns the rewriter of the jobs of one attempt. Jobs that
// would read a file the reader cannot (see fileReader.open) are refused
// before anything is written.
func newRewriter(opts *Options, schemas *schema.Manager, cfg *tableConfig, jobs []*job) (*rewriter, error) {
	for _, j := range jobs {
		for _, f := range j.inputs() {
			if _, err := readableFormat(f.FileName); err != nil {
				return nil, err
			}
		}
	}
	rw := &rewriter{io: opts.FileIO, cfg: cfg, reader: newFileReader(opts.FileIO, schemas, cfg.schema),
		progress: newProgress(opts, opts.TableDir, jobs), now: opts.Now, newUUID: opts.NewUUID}
	if cfg.primaryKey {
		var err error
		if rw.engine, err = lsm.NewEngine(cfg.schema, spec.CompareValues); err != nil {
			return nil, err
		}
		rw.compareKeys = scan.KeyComparator(cfg.schema)
	}
	return rw, nil
}

// runJobs runs the jobs on parallelism workers. If one fails, the others
// are cancelled and everything written is deleted.
func runJobs(ctx context.Context, rw *rewriter, jobs []*job, parallelism int) ([]*output, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	outs := make([]*output, len(jobs))
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	next := make(chan int)
	for range min(parallelism, len(jobs)) {
		wg.Go(func() {
			for i := range next {
				out, err := rw.run(ctx, jobs[i])
				if err != nil {
					mu.Lock()
					firstErr = cmp.Or(firstErr, err)
					mu.Unlock()
					cancel()
					continue
				}
				outs[i] = out
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, errors.Join(firstErr, deleteFiles(ctx, rw.io, writtenBy(outs)))
	}
	return outs, nil
}

func writtenBy(outs []*output) []string {
	var paths []string
	for _, o := range outs {
		if o != nil {
			paths = append(paths, o.written...)
		}
	}
	return paths
}

// commit publishes the outputs as one COMPACT snapshot. A commit that did
// not land deletes the written files; one whose outcome stays unknown
// leaves them, since the snapshot may reference them. read is the
// snapshot the compaction planned on.
func (c *compaction) commit(ctx context.Context, s *spec.TableSchema, read int64, outs []*output) (Result, error) {
	res := Result{}
	req := commit.Request{CommitUser: c.opts.Identity.User(), Identifier: c.opts.Identity.next(), ReadSnapshotID: read}
	for _, o := range outs {
		if len(o.message.CompactBefore) == 0 && len(o.message.CompactAfter) == 0 {
			continue
		}
		req.Messages = append(req.Messages, o.message)
		res.Buckets++
		res.FilesRewritten += o.rewrote
		res.FilesUpgraded += o.upgraded
		res.FilesWritten += len(o.written)
		res.BytesRead += o.read
		res.BytesWritten += o.wroteBytes
	}
	if len(req.Messages) == 0 {
		return Result{}, nil
	}
	committer, err := c.committerFor(s)
	if err != nil {
		return Result{}, errors.Join(err, deleteFiles(ctx, c.opts.FileIO, writtenBy(outs)))
	}
	id, err := commitOnce(ctx, committer, req)
	if err != nil {
		if errors.Is(err, lakeerr.ErrUnknownOutcome) {
			return Result{}, fmt.Errorf("compact %s: %w", c.opts.TableDir, err)
		}
		return Result{}, errors.Join(err, deleteFiles(ctx, c.opts.FileIO, writtenBy(outs)))
	}
	res.Snapshot = id
	return res, nil
}

// committerFor returns the committer of attempts planned under schema s,
// made anew when the schema changed, since the committer follows its
// options.
func (c *compaction) committerFor(s *spec.TableSchema) (*commit.Committer, error) {
	if c.committer != nil && c.committerSchema == s.ID {
		return c.committer, nil
	}
	committer, err := commit.New(commit.Options{FileIO: c.opts.FileIO, TableDir: c.table.Dir(), Branch: c.opts.Branch,
		Core: s.CoreOptions(), Now: c.opts.Now, NewUUID: c.opts.NewUUID, Leases: c.opts.Leases})
	if err != nil {
		return nil, err
	}
	c.committer, c.committerSchema = committer, s.ID
	return committer, nil
}

// commitOnce commits req, retrying it with the same identifier while its
// outcome is unknown, and returns the snapshot it landed in.
func commitOnce(ctx context.Context, committer *commit.Committer, req commit.Request) (int64, error) {
	var err error
	for range unknownOutcomeRetries {
		var res commit.Result
		res, err = committer.Commit(ctx, req)
		if err == nil {
			if len(res.Snapshots) > 0 {
				return res.Snapshots[len(res.Snapshots)-1], nil
			}
			return res.AlreadyCommittedIn, nil
		}
		if !errors.Is(err, lakeerr.ErrUnknownOutcome) || ctx.Err() != nil {
			return 0, err
		}
	}
	return 0, err
}

// withDynamicOptions is s with options set over its own, for this
// compaction only: the schema keeps its id, so the commit is checked
// against the table's schema as it is.
func withDynamicOptions(s *spec.TableSchema, options map[string]string) *spec.TableSchema {
	if len(options) == 0 {
		return s
	}
	c := *s
	c.Options = maps.Clone(s.Options)
	if c.Options == nil {
		c.Options = map[string]string{}
	}
	maps.Copy(c.Options, options)
	return &c
}
