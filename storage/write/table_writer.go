package write

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/internal/ids"
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// Options configures a TableWriter. Every source of nondeterminism of the
// write path is here.
type Options struct {
	// FileIO reaches the table; data files are stored with PutIfAbsent.
	FileIO fileio.FileIO
	// TableDir is the table directory; Branch names the branch ("" is main).
	TableDir string
	Branch   string
	// Now stamps _CREATION_TIME (as Java's local wall clock). Default time.Now.
	Now func() time.Time
	// NewUUID names the files of each bucket writer. Default: random
	// version-4 UUIDs.
	NewUUID func() string
	// SpillDir is the local directory for the write buffer's spill files;
	// "" is os.TempDir(). Each TableWriter works in a private
	// sub-directory it removes on Close and Abort.
	SpillDir string
	// MemoryBudget, when positive, replaces the table's write-buffer-size as
	// the memory all buffers and open files of the TableWriter may hold.
	MemoryBudget int64
	// MaxMemoryBudget, when positive, bounds the budget (the table's
	// write-buffer-size or MemoryBudget) from above: a server caps every
	// writer, whatever its tables ask.
	MaxMemoryBudget int64
	// IgnorePreviousFiles starts every bucket from sequence number 0
	// without looking at the table's files, as Java does for a static
	// INSERT OVERWRITE, whose commit replaces them.
	IgnorePreviousFiles bool
	// Compactor, when set, compacts the buckets of primary-key tables
	// inline: after PrepareCommit's flush, as the table's compaction
	// strategy asks, and after any flush that leaves a bucket with
	// num-sorted-run.stop-trigger sorted runs. Its changes go in the
	// messages' CompactBefore/CompactAfter. Tables with write-only = true,
	// and writers with IgnorePreviousFiles, never compact. A compaction
	// may rewrite files of earlier PrepareCommits of this TableWriter, so
	// every message it returned must be committed, in order, or the
	// TableWriter aborted. PrepareCommit compacts several buckets at once.
	// nil: no compaction (a compaction service does it, as with
	// write-only).
	Compactor BucketCompactor
	// Leases hands out the write lease the TableWriter holds from Open to
	// Close or Abort (see package lease): it keeps orphan removal from
	// deleting the writer's files before they are committed, so close the
	// writer only after the commit of its messages returned. A writer that
	// goes without writing for most of the lease TTL loses the lease, and
	// its next call fails with lease.ErrExpired. Default: lease.Default().
	Leases *lease.Registry
}

// TableWriter writes rows of one table branch into new data files and
// turns them into commit messages. Mirrors Java's TableWriteImpl over
// AbstractFileStoreWrite. It is not safe for concurrent use.
//
// After an error other than ErrInvalidRow the TableWriter is broken: every
// later Write and PrepareCommit returns that error, and only Abort and
// Close remain useful.
type TableWriter struct {
	env      *writerEnv
	settings *tableSettings
	router   *router
	restorer *restorer
	// ignorePreviousFiles skips restoring from the table's files.
	ignorePreviousFiles bool
	// compactor is Options.Compactor when this writer compacts, else nil.
	compactor   BucketCompactor
	stopTrigger int
	budget      int64
	used        int64
	writers     map[string]*partitionWriters
	// prepared are the files of the last PrepareCommit, which Abort deletes.
	prepared []commit.Message
	// lease keeps orphan removal off the writer's files (Options.Leases).
	lease *lease.Handle
	// digestBuf is reused to encode each row for its digest.
	digestBuf []byte
	err       error
}

// partitionWriters are the bucket writers of one partition.
type partitionWriters struct {
	partition []byte
	dir       string
	buckets   map[int]*bucketEntry
}

type bucketEntry struct {
	bucket int
	writer bucketWriter
	// digest sums the digests of the rows written since the last hand-over
	// (commit.Message.ContentDigest).
	digest commit.Digest
}

// bucketWriter is the writer of one (partition, bucket).
type bucketWriter interface {
	// write takes a validated row and returns the change in the memory it
	// holds.
	write(ctx context.Context, row []any, kind spec.RowKind) (int64, error)
	memory() int64
	// release gives memory back (spill, flush or roll) and returns how much.
	release(ctx context.Context) (int64, error)
	// prepare flushes: afterwards every row written is in a file.
	prepare(ctx context.Context) error
	// drain hands over the files written since the last call.
	drain() []spec.DataFileMeta
	// discard drops buffered rows and deletes files not handed over,
	// including those whose put failed but may have landed.
	discard(ctx context.Context) error
}

// Open opens a TableWriter on the latest schema of the table. Tables whose
// files lakesql cannot write the way Java would are refused with an error
// wrapping lakeerr.ErrUnsupported.
func Open(ctx context.Context, opts Options) (*TableWriter, error) {
	if opts.FileIO == nil {
		return nil, errors.New("write: Options.FileIO is nil")
	}
	t, err := table.OpenBranch(ctx, opts.FileIO, opts.TableDir, opts.Branch)
	if err != nil {
		return nil, err
	}
	s, err := t.LatestSchema(ctx)
	if err != nil {
		return nil, err
	}
	settings, err := parseSettings(s)
	if err != nil {
		return nil, fmt.Errorf("open writer on %s: %w", opts.TableDir, err)
	}
	withDefaults(&opts)
	held, err := acquireLease(ctx, opts, t.Dir())
	if err != nil {
		return nil, err
	}
	budget := settings.bufferSize
	if opts.MemoryBudget > 0 {
		budget = opts.MemoryBudget
	}
	if opts.MaxMemoryBudget > 0 {
		budget = min(budget, opts.MaxMemoryBudget)
	}
	w := &TableWriter{
		env: &writerEnv{io: opts.FileIO, tableDir: t.Dir(), settings: settings, now: opts.Now,
			newUUID: opts.NewUUID, spills: &spillDir{parent: opts.SpillDir}},
		settings:            settings,
		router:              newRouter(settings),
		restorer:            &restorer{table: t},
		ignorePreviousFiles: opts.IgnorePreviousFiles,
		budget:              budget,
		writers:             map[string]*partitionWriters{},
		lease:               held,
	}
	if err := w.enableCompaction(opts); err != nil {
		held.Release(ctx)
		return nil, fmt.Errorf("open writer on %s: %w", opts.TableDir, err)
	}
	return w, nil
}

// enableCompaction turns inline compaction on when the options and the
// table allow it. An overwrite writer does not compact: it does not see the
// files its commit replaces.
func (w *TableWriter) enableCompaction(opts Options) error {
	if opts.Compactor == nil || !w.settings.primaryKey || opts.IgnorePreviousFiles {
		return nil
	}
	o := w.settings.schema.CoreOptions()
	writeOnly, err := o.WriteOnly()
	if err != nil || writeOnly {
		return err
	}
	if w.stopTrigger, err = o.NumSortedRunStopTrigger(); err != nil {
		return err
	}
	w.compactor = opts.Compactor
	w.restorer.keepFiles = true
	return nil
}

func withDefaults(o *Options) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.NewUUID == nil {
		o.NewUUID = ids.NewUUID
	}
}

// Schema is the schema rows are written with.
func (w *TableWriter) Schema() *spec.TableSchema { return w.settings.schema }

// Lease is the write lease the writer holds until Close or Abort: other
// files written for the same commit, which its messages carry, are
// covered by it too.
func (w *TableWriter) Lease() *lease.Handle { return w.lease }

// Write adds one row with its change kind. The row holds one value per
// column, in the Go types of spec/values.go; the writer copies the slice
// but keeps the values, so byte slices and composite values must not be
// modified afterwards. A row the table cannot take fails with an error
// wrapping ErrInvalidRow and changes nothing. Rows of a kind the table
// ignores (ignore-delete, ignore-update-before) are dropped, as in Java.
func (w *TableWriter) Write(ctx context.Context, row []any, kind spec.RowKind) error {
	if w.err != nil {
		return w.err
	}
	if err := w.checkLease(ctx); err != nil {
		return err
	}
	if !w.settings.acceptsKind(kind) {
		return nil
	}
	own, err := w.accept(row, kind)
	if err != nil {
		return err
	}
	if err := w.route(ctx, own, kind); err != nil {
		w.err = err
		return err
	}
	return nil
}

// accept copies and validates a row. The copy reserves room for the key
// columns, which primary-key writers store next to the values.
func (w *TableWriter) accept(row []any, kind spec.RowKind) ([]any, error) {
	if kind < spec.RowKindInsert || kind > spec.RowKindDelete {
		return nil, fmt.Errorf("%w: unknown row kind %d", ErrInvalidRow, kind)
	}
	if !w.settings.primaryKey && kind.IsRetract() {
		return nil, fmt.Errorf("%w: an append table cannot take %s rows", ErrInvalidRow, kind)
	}
	if err := w.settings.checkKind(kind); err != nil {
		return nil, err
	}
	own := make([]any, len(row), len(row)+len(w.settings.key.indexes))
	copy(own, row)
	if err := w.settings.checkRow(own); err != nil {
		return nil, err
	}
	return own, nil
}

func (w *TableWriter) route(ctx context.Context, row []any, kind spec.RowKind) error {
	partition, err := w.router.partition(row)
	if err != nil {
		return err
	}
	bucket, err := w.router.bucket(row)
	if err != nil {
		return err
	}
	b, err := w.writerFor(ctx, partition, bucket)
	if err != nil {
		return err
	}
	digest, err := w.rowDigest(row, kind)
	if err != nil {
		return err
	}
	delta, err := b.writer.write(ctx, row, kind)
	if err != nil {
		return err
	}
	b.digest.Add(digest)
	w.used += delta
	return w.enforceBudget(ctx)
}

// rowDigest is the commit.RowDigest of a row: of its BinaryRow with the
// row kind in the header, the same encoding for a row however it arrives.
func (w *TableWriter) rowDigest(row []any, kind spec.RowKind) (commit.Digest, error) {
	encoded, err := spec.AppendBinaryRow(w.digestBuf, w.settings.valueTypes, row, kind)
	if err != nil {
		return commit.Digest{}, fmt.Errorf("%w: %w", ErrInvalidRow, err)
	}
	w.digestBuf = encoded
	return commit.RowDigest(encoded), nil
}

// enforceBudget releases the largest holders of memory until the writer is
// within its budget again (MemoryPoolFactory#preemptMemory).
func (w *TableWriter) enforceBudget(ctx context.Context) error {
	for w.used > w.budget {
		largest := w.largestWriter()
		if largest == nil {
			return nil
		}
		freed, err := largest.release(ctx)
		if err != nil {
			return err
		}
		w.used -= freed
	}
	return nil
}

func (w *TableWriter) largestWriter() bucketWriter {
	var largest bucketWriter
	var size int64
	for _, p := range w.writers {
		for _, b := range p.buckets {
			if m := b.writer.memory(); m > size {
				largest, size = b.writer, m
			}
		}
	}
	return largest
}

// writerFor returns the writer of (partition, bucket), creating it and
// restoring its starting sequence number on first use.
func (w *TableWriter) writerFor(ctx context.Context, partition []byte, bucket int) (*bucketEntry, error) {
	p, ok := w.writers[string(partition)]
	if ok {
		if b, ok := p.buckets[bucket]; ok {
			return b, nil
		}
	} else {
		dir, err := w.partitionDir(partition)
		if err != nil {
			return nil, err
		}
		p = &partitionWriters{partition: bytes.Clone(partition), dir: dir, buckets: map[int]*bucketEntry{}}
		w.writers[string(p.partition)] = p
	}
	bw, err := w.newBucketWriter(ctx, p, bucket)
	if err != nil {
		return nil, err
	}
	b := &bucketEntry{bucket: bucket, writer: bw}
	p.buckets[bucket] = b
	return b, nil
}

func (w *TableWriter) newBucketWriter(ctx context.Context, p *partitionWriters, bucket int) (bucketWriter, error) {
	nextSeq := int64(0)
	if !w.ignorePreviousFiles {
		var err error
		if nextSeq, err = w.restorer.nextSequence(ctx, w.settings, p.partition, bucket); err != nil {
			return nil, err
		}
	}
	dir := path.Join(p.dir, fmt.Sprintf("bucket-%d", bucket))
	if !w.settings.primaryKey {
		return newAppendWriter(w.env, dir, nextSeq), nil
	}
	mw := newMergeTreeWriter(w.env, dir, nextSeq)
	if w.compactor != nil {
		mw.inline = w.newInlineCompaction(p.partition, bucket, dir)
	}
	return mw, nil
}

func (w *TableWriter) newInlineCompaction(partition []byte, bucket int, dir string) *inlineCompaction {
	return &inlineCompaction{
		env:       w.env,
		compactor: w.compactor,
		request: BucketCompaction{FileIO: w.env.io, Table: w.restorer.table, Schema: w.settings.schema,
			Partition: partition, Bucket: int32(bucket), TotalBuckets: w.settings.totalBuckets(), Dir: dir,
			Now: w.env.now, NewUUID: w.env.newUUID},
		stopTrigger: w.stopTrigger,
		live:        w.restorer.liveFiles(partition, bucket),
		vectors:     w.restorer.liveVectors(partition, bucket),
	}
}

// compactingWriter is a bucket writer whose compactions change files.
type compactingWriter interface {
	drainCompaction() CompactedFiles
}

// partitionDir is <table>/<k1=v1/...>, formatted with the table's
// partition.default-name and partition.legacy-name.
func (w *TableWriter) partitionDir(partition []byte) (string, error) {
	cols := w.settings.partition
	if len(cols.names) == 0 {
		return w.env.tableDir, nil
	}
	values, err := spec.DeserializeBinaryRow(cols.types, partition)
	if err != nil {
		return "", err
	}
	rel, err := spec.PartitionPath(cols.names, cols.types, values, w.settings.defaultPartition, w.settings.legacyPartition)
	if err != nil {
		return "", err
	}
	return path.Join(w.env.tableDir, rel), nil
}

// PrepareCommit flushes every writer and returns one message per
// (partition, bucket) that has new files, ordered by partition bytes and
// bucket. The files then belong to the messages: commit them, or call Abort
// to delete them if they will not be committed.
func (w *TableWriter) PrepareCommit(ctx context.Context) ([]commit.Message, error) {
	if w.err != nil {
		return nil, w.err
	}
	if err := w.checkLease(ctx); err != nil {
		return nil, err
	}
	partitions := w.sortedPartitions()
	if err := w.prepareAhead(ctx, partitions); err != nil {
		w.err = err
		return nil, err
	}
	// Every bucket flushes before any hands its files over, so that after a
	// failed flush all files stay with their writers, which Abort and Close
	// delete, rather than in messages nobody receives.
	for _, p := range partitions {
		for _, b := range sortedBuckets(p) {
			if err := b.writer.prepare(ctx); err != nil {
				w.err = err
				return nil, err
			}
		}
	}
	var msgs []commit.Message
	for _, p := range partitions {
		for _, b := range sortedBuckets(p) {
			if m := w.handOver(p, b); !m.IsEmpty() {
				msgs = append(msgs, m)
			}
		}
	}
	w.used = 0
	w.prepared = msgs
	return msgs, nil
}

// prepareAhead flushes the merge-tree buckets that hold rows and runs
// their inline compactions, up to GOMAXPROCS buckets at a time: at the end
// of a large load, or of an INSERT that wrote every bucket, flushing and
// compacting are most of the work, and each bucket's is its own. Each
// bucket's compaction names its files from one draw of the shared
// generator, made in bucket order before any starts.
func (w *TableWriter) prepareAhead(ctx context.Context, partitions []*partitionWriters) error {
	var ahead []*mergeTreeWriter
	for _, p := range partitions {
		for _, b := range sortedBuckets(p) {
			if m, ok := b.writer.(*mergeTreeWriter); ok && m.buffer.len()+len(m.spills) > 0 {
				ahead = append(ahead, m)
			}
		}
	}
	if len(ahead) < 2 {
		return nil
	}
	seeds := make([]string, len(ahead))
	for i := range seeds {
		seeds[i] = w.env.newUUID()
	}
	return runEach(runtime.GOMAXPROCS(0), len(ahead), func(i int) error {
		if err := ahead[i].flushAhead(ctx); err != nil {
			return err
		}
		return ahead[i].compactAhead(ctx, seeds[i])
	})
}

// runEach runs do(0) … do(n-1), at most parallelism at a time, and
// returns their errors joined.
func runEach(parallelism, n int, do func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	slots := make(chan struct{}, parallelism)
	for i := range n {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			errs[i] = do(i)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// handOver drains a flushed bucket writer into its commit message.
func (w *TableWriter) handOver(p *partitionWriters, b *bucketEntry) commit.Message {
	m := commit.Message{Partition: bytes.Clone(p.partition), Bucket: int32(b.bucket),
		TotalBuckets: w.settings.totalBuckets(), NewFiles: b.writer.drain(), ContentDigest: b.digest, Lease: w.lease}
	b.digest = commit.Digest{}
	if c, ok := b.writer.(compactingWriter); ok {
		inc := c.drainCompaction()
		m.CompactBefore, m.CompactAfter = inc.Before, inc.After
		m.CompactDeletedIndexFiles, m.CompactNewIndexFiles = inc.IndexBefore, inc.IndexAfter
	}
	return m
}

func (w *TableWriter) sortedPartitions() []*partitionWriters {
	out := make([]*partitionWriters, 0, len(w.writers))
	for _, p := range w.writers {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return bytes.Compare(out[i].partition, out[j].partition) < 0 })
	return out
}

func sortedBuckets(p *partitionWriters) []*bucketEntry {
	out := make([]*bucketEntry, 0, len(p.buckets))
	for _, b := range p.buckets {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].bucket < out[j].bucket })
	return out
}

// Abort deletes the data files this TableWriter wrote that are not
// committed: those written since the last PrepareCommit, those whose put
// failed but may have landed (never one whose put failed because the path
// existed: that file is another writer's), and those of the messages the
// last PrepareCommit returned. Call it only when those messages were not,
// and will not be, committed: after a commit whose outcome is unknown,
// call Close and leave the files to orphan cleanup. Abort also releases
// what Close releases; the TableWriter cannot be used afterwards.
//
// The deletes run even when ctx is cancelled: a cancelled statement is a
// common reason to abort, and its last put may have landed.
func (w *TableWriter) Abort(ctx context.Context) error {
	ctx = context.WithoutCancel(ctx)
	var errs []error
	for _, m := range w.prepared {
		dir, err := w.bucketDir(m.Partition, int(m.Bucket))
		if err == nil {
			err = w.env.deleteFiles(ctx, dir, append(slices.Clone(m.NewFiles), compactionOutputs(m.CompactBefore, m.CompactAfter)...))
		}
		errs = append(errs, err)
	}
	w.prepared = nil
	errs = append(errs, w.discardAll(ctx), w.env.spills.remove())
	w.lease.Release(ctx)
	w.err = errClosed
	return errors.Join(errs...)
}

func (w *TableWriter) bucketDir(partition []byte, bucket int) (string, error) {
	p, ok := w.writers[string(partition)]
	if !ok {
		return "", fmt.Errorf("write: no writer for a prepared partition")
	}
	return path.Join(p.dir, fmt.Sprintf("bucket-%d", bucket)), nil
}

// Close releases the write buffers, spill files and write lease. Data
// files written since the last PrepareCommit can never be committed, so
// they are deleted, as Java's writers do on close, with those whose put
// failed but may have landed; files of prepared messages are left alone.
func (w *TableWriter) Close() error {
	err := errors.Join(w.discardAll(context.Background()), w.env.spills.remove())
	w.lease.Release(context.Background())
	w.err = errClosed
	return err
}

var errClosed = errors.New("write: TableWriter is closed")

func (w *TableWriter) discardAll(ctx context.Context) error {
	var errs []error
	for _, p := range w.writers {
		for _, b := range p.buckets {
			errs = append(errs, b.writer.discard(ctx))
			b.digest = commit.Digest{}
		}
	}
	w.used = 0
	return errors.Join(errs...)
}
