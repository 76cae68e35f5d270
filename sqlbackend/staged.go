package sqlbackend

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/spec"
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
	schema   *spec.TableSchema
	// base is the snapshot the transaction read the table at: overwrites
	// and deletes are computed against it.
	base   int64
	writer *write.TableWriter
	// messages are the files of completed statements; they commit together.
	messages []commit.Message
	// overwrite, when set, makes the commit an INSERT OVERWRITE or TRUNCATE.
	overwrite *commit.Overwrite
	// deleted are whole files removed by partition deletes on append
	// tables; deletedBy is the lookup of the DELETE that staged them, whose
	// later rows are in those files already.
	deleted   []commit.Message
	deletedBy *pushedLookup
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
	if t.timeTravel {
		return nil, fmt.Errorf("%s.%s: a table read AS OF a snapshot cannot be written", t.db.name, t.name)
	}
	writer, err := write.Open(ctx, write.Options{
		FileIO:   b.opts.FileIO,
		TableDir: t.t.Dir(),
		Now:      b.opts.Now,
		NewUUID:  b.opts.NewUUID,
		SpillDir: b.opts.SpillDir,
	})
	if err != nil {
		return nil, err
	}
	s.table = &tableWrite{
		db: t.db.name, name: t.name, dir: t.t.Dir(),
		schema: writer.Schema(), base: t.pin.snapshotID, writer: writer,
	}
	return s.table, nil
}

// endStatement turns what the statement wrote into messages. A failed
// statement's messages are dropped: MySQL undoes only the failed statement,
// and its files stay unreferenced until the transaction ends, when
// Rollback or Close deletes or orphans them.
func (w *tableWrite) endStatement(ctx context.Context, keep bool) error {
	msgs, err := w.writer.PrepareCommit(ctx)
	if err != nil {
		return err
	}
	if keep {
		w.messages = append(w.messages, msgs...)
	}
	return nil
}

// abort deletes every file the transaction wrote.
func (s *stagedWrites) abort(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.table != nil {
		_ = s.table.writer.Abort(ctx) // leftovers are orphans, never referenced
		s.table = nil
	}
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
// has written to the table so far: a transaction reads its own writes.
func stagedEntries(ctx *sql.Context, db, name string) []spec.ManifestEntry {
	tx, ok := ctx.GetTransaction().(*Transaction)
	if !ok {
		return nil
	}
	tx.writes.mu.Lock()
	defer tx.writes.mu.Unlock()
	w := tx.writes.table
	if w == nil || w.db != db || w.name != name {
		return nil
	}
	var entries []spec.ManifestEntry
	for _, m := range append(append([]commit.Message(nil), w.messages...), w.deleted...) {
		for _, f := range m.NewFiles {
			entries = append(entries, spec.ManifestEntry{Kind: spec.FileKindAdd, Partition: m.Partition, Bucket: m.Bucket, TotalBuckets: m.TotalBuckets, File: f})
		}
		for _, f := range m.DeletedFiles {
			entries = append(entries, spec.ManifestEntry{Kind: spec.FileKindDelete, Partition: m.Partition, Bucket: m.Bucket, TotalBuckets: m.TotalBuckets, File: f})
		}
	}
	return entries
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
