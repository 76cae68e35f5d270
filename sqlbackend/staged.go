package sqlbackend

import (
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

// errMultiTableWrite refuses a second table in one transaction: each table
// commits on its own, so a transaction over two tables could land half.
var errMultiTableWrite = errors.New("a transaction can write only one table: atomic commits across tables are not supported yet; COMMIT the writes to the first table before writing another")

// stagedWrites is what a transaction wrote and has not committed: at most
// one table, whose writer outlives the statements so that sequence numbers
// keep increasing across them.
type stagedWrites struct {
	mu    sync.Mutex
	table *tableWrite
}

func newStagedWrites() *stagedWrites { return &stagedWrites{} }

func (s *stagedWrites) empty() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.table == nil || !s.table.hasChanges()
}

// tableWrite is the staged state of one table in a transaction.
type tableWrite struct {
	db, name string
	dir      string
	// table locates the table's index files.
	table  *table.Table
	schema *spec.TableSchema
	// base is the snapshot the transaction read the table at: overwrites
	// and deletes are computed against it.
	base   int64
	writer *write.TableWriter
	// io reaches the table, for deleting compaction outputs no commit
	// will name.
	io fileio.FileIO
	// messages are the data files of completed statements; they commit
	// together.
	messages []commit.Message
	// compaction is the net inline compaction of completed statements,
	// one message per bucket (see stageCompaction).
	compaction []commit.Message
	// overwrite, when set, makes the commit an INSERT OVERWRITE or TRUNCATE.
	overwrite *commit.Overwrite
	// deleted are the removals of rows of append tables by DELETE and
	// UPDATE: files deleted whole, rewritten, or given deletion vectors.
	deleted []commit.Message
	// rowDeletes are the rows the running statement removes from an
	// append table (appendrows.go); its end stages their removal in
	// deleted, whose new files rowDeleteFiles lists for an abort.
	rowDeletes     *appendRowDeletes
	rowDeleteFiles []string
	// now and newUUID are the backend's, for the files of row deletes.
	now     func() time.Time
	newUUID func() string
	// checkKeys makes the commit fail on keys written by commits after
	// base (see keysChecked).
	checkKeys bool
	// unsettled says the writer holds rows of a completed statement that
	// are not messages yet (see completeStatement).
	unsettled bool
}

func (w *tableWrite) hasChanges() bool {
	return len(w.messages) > 0 || len(w.deleted) > 0 || w.overwrite != nil
}

// forTable returns the transaction's write state of t, opening its writer
// on first use.
func (s *stagedWrites) forTable(ctx *sql.Context, b *Backend, t *Table) (*tableWrite, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.table != nil {
		if s.table.db == t.db.name && s.table.name == t.name {
			return s.table, nil
		}
		return nil, errMultiTableWrite
	}
	if err := t.readOnly("written"); err != nil {
		return nil, err
	}
	writer, err := write.Open(ctx, write.Options{
		FileIO:    b.opts.FileIO,
		TableDir:  t.t.Dir(),
		Now:       b.opts.Now,
		NewUUID:   b.opts.NewUUID,
		SpillDir:  b.opts.SpillDir,
		Compactor: writerCompactor(ctx, b, t),

		MaxMemoryBudget: b.opts.WriteBufferBytes,
	})
	if err != nil {
		return nil, err
	}
	s.table = &tableWrite{
		db: t.db.name, name: t.name, dir: t.t.Dir(), table: t.t, io: b.opts.FileIO,
		schema: writer.Schema(), base: t.pin.snapshotID, writer: writer,
		now: b.opts.Now, newUUID: b.opts.NewUUID,
	}
	return s.table, nil
}

// writerCompactor is the inline compactor of a transaction's writer, so
// that tables written only through SQL stay compacted: each statement's
// end (and a flush that reaches num-sorted-run.stop-trigger) compacts the
// buckets it wrote, and the commit publishes the change as a COMPACT
// snapshot after the data (see commitStaged for when that part fails).
// The writer skips tables with write-only = true. An INSERT OVERWRITE gets
// none: its commit replaces the files a compaction would rewrite. Neither
// does a writer of a backend whose compaction service compacts after the
// commit (Options.BackgroundCompaction), unless reads of the table skip
// level 0 (first-row, deletion vectors): there rows are visible only once
// compacted, and a statement must see the rows it wrote.
func writerCompactor(ctx *sql.Context, b *Backend, t *Table) write.BucketCompactor {
	if hides, err := scan.HidesLevel0(t.schema); b.compactions != nil && (err != nil || !hides) {
		return nil
	}
	if s, ok := ctx.Session.(*Session); ok && s.overwritePending(t.db.name, t.name) {
		return nil
	}
	return compact.InlineCompactor()
}

// endStatement turns what the statement wrote into messages. A failed
// statement's messages are dropped: MySQL undoes only the failed statement,
// and its files stay unreferenced until the transaction ends, when
// Rollback or Close deletes or orphans them. So is its compaction, which
// may hold its rows; a later compaction of the transaction that read its
// output then deletes a file no snapshot has, and loses its COMPACT part
// at commit (see commitStaged), never resurrecting those rows.
func (w *tableWrite) endStatement(ctx *sql.Context, keep bool) error {
	w.unsettled = false
	if !keep {
		w.rowDeletes = nil
	}
	msgs, err := w.writer.PrepareCommit(ctx)
	if err != nil {
		return err
	}
	if !keep {
		return nil
	}
	if err := w.applyRowDeletes(ctx); err != nil {
		return err
	}
	w.stage(ctx, msgs)
	return nil
}

// completeStatement keeps the rows the statement wrote so far; settle
// turns them into messages once the statement ends. Under INSERT IGNORE
// and LOAD DATA, GMS completes the statement after every row (its
// CheckpointingTableEditorIter), and turning each row into messages wrote
// and compacted one data file per row.
func (w *tableWrite) completeStatement() { w.unsettled = true }

// settle turns the rows of a completed statement into messages. It runs
// when the statement's editors close, and, in case they did not, when the
// next statement opens an editor, reads the table or commits.
func (w *tableWrite) settle(ctx *sql.Context) error {
	if !w.unsettled {
		return nil
	}
	return w.endStatement(ctx, true)
}

// settle settles the transaction's table write, if any.
func (s *stagedWrites) settle(ctx *sql.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.table == nil {
		return nil
	}
	return s.table.settle(ctx)
}

// stage adds a completed statement's messages: their data increments as
// they are, their compaction increments folded into the transaction's.
func (w *tableWrite) stage(ctx *sql.Context, msgs []commit.Message) {
	for _, m := range msgs {
		inc := write.CompactedFiles{Before: m.CompactBefore, After: m.CompactAfter,
			IndexBefore: m.CompactDeletedIndexFiles, IndexAfter: m.CompactNewIndexFiles}
		m.CompactBefore, m.CompactAfter, m.CompactDeletedIndexFiles, m.CompactNewIndexFiles = nil, nil, nil, nil
		if !m.IsEmpty() {
			w.messages = append(w.messages, m)
		}
		if len(inc.Before)+len(inc.After)+len(inc.IndexBefore)+len(inc.IndexAfter) > 0 {
			w.stageCompaction(ctx, m, inc)
		}
	}
}

// abort deletes every file the transaction wrote.
func (s *stagedWrites) abort(ctx *sql.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.table != nil {
		s.table.abort(ctx)
		s.table = nil
	}
}

// abort deletes the files of a transaction none of whose writes will be
// committed: the writer's, and the outputs of its compactions. Leftovers
// are orphans, never referenced.
func (w *tableWrite) abort(ctx *sql.Context) {
	_ = w.writer.Abort(ctx)
	w.deleteCompactionOutputs(ctx, "rolled back")
	deleteWritten(ctx, w.io, w.rowDeleteFiles)
}

// take hands the staged table over for commit and resets the staging area.
func (s *stagedWrites) take() *tableWrite {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.table
	s.table = nil
	return w
}

// stagedEntries are the manifest entries of what the session's transaction
// has written to the table so far, data and index files (the deletion
// vectors of a row-level DELETE): a transaction reads its own writes.
//
// The inline compactions of the transaction's writer (w.compaction) are
// left out on purpose (but see stageCompactionForReads): a compaction
// rewrites rows without changing them, and the files it replaced stay on
// disk until the transaction ends (only compaction outputs that a later
// compaction rewrote are deleted, and no staged entry names those), so the
// snapshot the transaction read plus the new files of its statements merge
// to the same rows as the compacted files would. Only the commit applies
// the compaction.
func stagedEntries(ctx *sql.Context, db, name string) (table.Staged, error) {
	tx, ok := ctx.GetTransaction().(*Transaction)
	if !ok {
		return table.Staged{}, nil
	}
	tx.writes.mu.Lock()
	defer tx.writes.mu.Unlock()
	w := tx.writes.table
	if w == nil || w.db != db || w.name != name {
		return table.Staged{}, nil
	}
	if err := w.settle(ctx); err != nil {
		return table.Staged{}, err
	}
	var staged table.Staged
	for _, m := range slices.Concat(w.messages, w.deleted) {
		staged.Files = appendEntries(staged.Files, &m, spec.FileKindAdd, m.NewFiles)
		staged.Files = appendEntries(staged.Files, &m, spec.FileKindDelete, m.DeletedFiles)
		staged.Index = appendIndexEntries(staged.Index, &m, spec.FileKindDelete, m.DeletedIndexFiles)
		staged.Index = appendIndexEntries(staged.Index, &m, spec.FileKindAdd, m.NewIndexFiles)
	}
	return staged, w.stageCompactionForReads(&staged)
}

// stageCompactionForReads adds the transaction's compaction to what its
// reads see, where batch reads skip level 0 (first-row and deletion-vector
// tables): there the statements' level-0 files alone would hide the
// transaction's own rows, which the compaction at each statement's end
// moved up (and, with deletion vectors, marked the rows they replace).
func (w *tableWrite) stageCompactionForReads(staged *table.Staged) error {
	hides, err := scan.HidesLevel0(w.schema)
	if err != nil || !hides {
		return err
	}
	for _, m := range w.compaction {
		staged.Files = appendEntries(staged.Files, &m, spec.FileKindDelete, m.CompactBefore)
		staged.Files = appendEntries(staged.Files, &m, spec.FileKindAdd, m.CompactAfter)
		staged.Index = appendIndexEntries(staged.Index, &m, spec.FileKindDelete, m.CompactDeletedIndexFiles)
		staged.Index = appendIndexEntries(staged.Index, &m, spec.FileKindAdd, m.CompactNewIndexFiles)
	}
	return nil
}

func appendEntries(out []spec.ManifestEntry, m *commit.Message, kind spec.FileKind, files []spec.DataFileMeta) []spec.ManifestEntry {
	for _, f := range files {
		out = append(out, spec.ManifestEntry{Kind: kind, Partition: m.Partition, Bucket: m.Bucket, TotalBuckets: m.TotalBuckets, File: f})
	}
	return out
}

func appendIndexEntries(out []spec.IndexManifestEntry, m *commit.Message, kind spec.FileKind, files []spec.IndexFileMeta) []spec.IndexManifestEntry {
	for _, f := range files {
		out = append(out, spec.IndexManifestEntry{Kind: kind, Partition: m.Partition, Bucket: m.Bucket, IndexFile: f})
	}
	return out
}

// applyPendingOverwrite turns the transaction's write of t into the
// INSERT OVERWRITE the session is running, if any. Earlier writes of the
// transaction to the same partitions are overwritten too, as they would be
// had they committed first.
func (w *tableWrite) applyPendingOverwrite(ctx *sql.Context, t *Table) {
	s, ok := ctx.Session.(*Session)
	if !ok {
		return
	}
	if o := s.takePendingOverwrite(t.db.name, t.name); o != nil {
		w.overwrite = o.overwriteFor(w.base)
	}
}
