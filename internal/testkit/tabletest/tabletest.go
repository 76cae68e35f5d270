// Package tabletest creates the tables storage tests write and read: a
// table made through the catalog, with a clock, uuids and commit
// identifiers that every writer, committer and compaction of the test
// shares, so that two tables built by the same steps hold identical files.
//
// It imports storage/catalog, commit and table but not storage/write, so
// that storage/write's own tests can use it; writetest adds writing rows
// through storage/write. The in-package tests of storage/catalog, commit
// and table, which it imports, cannot use it (Go refuses the import cycle)
// and use scantest or their own harnesses.
package tabletest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// Epoch is the time on a table's clock unless its test gives a clock.
var Epoch = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// Config says where a table is created. Its zero value creates db.t in the
// warehouse "wh" of a fresh memio store, on a clock stopped at Epoch.
type Config struct {
	FS        fileio.FileIO
	Warehouse string
	Database  string
	Name      string
	Now       func() time.Time
}

// Table is a table of a test. Its methods fail the test on an error.
type Table struct {
	T   testing.TB
	FS  fileio.FileIO
	Dir string
	// Now is the clock of the table's catalog, writers and committers.
	Now func() time.Time

	mu     sync.Mutex
	uuids  int
	idents map[string]int64
}

// New creates def as db.t in a fresh memio warehouse.
func New(t testing.TB, def catalog.TableDefinition) *Table { return Create(t, Config{}, def) }

// NewLocal creates def as db.t in a warehouse on the local disk, in a
// temporary directory of the test.
func NewLocal(t testing.TB, def catalog.TableDefinition) *Table {
	return Create(t, Config{FS: localio.New(), Warehouse: t.TempDir()}, def)
}

// Create creates def where cfg says.
func Create(t testing.TB, cfg Config, def catalog.TableDefinition) *Table {
	t.Helper()
	cfg = cfg.withDefaults()
	ctx := context.Background()
	c := catalog.New(cfg.FS, cfg.Warehouse, cfg.Now)
	if err := c.CreateDatabase(ctx, cfg.Database, true); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTable(ctx, cfg.Database, cfg.Name, def, false); err != nil {
		t.Fatal(err)
	}
	dir, err := c.TablePath(cfg.Database, cfg.Name)
	if err != nil {
		t.Fatal(err)
	}
	return &Table{T: t, FS: cfg.FS, Dir: dir, Now: cfg.Now, idents: map[string]int64{}}
}

func (c Config) withDefaults() Config {
	if c.FS == nil {
		c.FS = memio.New()
	}
	if c.Now == nil {
		c.Now = func() time.Time { return Epoch }
	}
	c.Warehouse = cmp.Or(c.Warehouse, "wh")
	c.Database = cmp.Or(c.Database, "db")
	c.Name = cmp.Or(c.Name, "t")
	return c
}

// On returns the table in fsys, a copy of t's store such as a crash clone,
// for the test tb on the clock now. It goes on from t's uuids and commit
// identifiers, so that the names it writes never repeat t's.
func (t *Table) On(tb testing.TB, fsys fileio.FileIO, now func() time.Time) *Table {
	t.mu.Lock()
	defer t.mu.Unlock()
	return &Table{T: tb, FS: fsys, Dir: t.Dir, Now: now, uuids: t.uuids, idents: maps.Clone(t.idents)}
}

// NewUUID returns the table's next uuid: 00000000-0000-4000-8000-000000000001
// and so on. It is safe for concurrent use.
func (t *Table) NewUUID() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.uuids++
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", t.uuids)
}

// NextIdentifier returns user's next commit identifier: 1, 2, … per user,
// as a job numbers its commits.
func (t *Table) NextIdentifier(user string) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.idents[user]++
	return t.idents[user]
}

// Committer opens a Committer on the table through fsys (t.FS if nil),
// on its clock and uuids, with a seeded jitter and retries that do not
// wait.
func (t *Table) Committer(fsys fileio.FileIO) *commit.Committer {
	t.T.Helper()
	if fsys == nil {
		fsys = t.FS
	}
	c, err := commit.New(commit.Options{FileIO: fsys, TableDir: t.Dir, Core: t.schemaOn(fsys).CoreOptions(),
		Now: t.Now, NewUUID: t.NewUUID, Rand: rand.New(rand.NewPCG(1, 2)),
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.T.Fatal(err)
	}
	return c
}

// Commit commits req as user's next identifier with a new Committer.
func (t *Table) Commit(user string, req commit.Request) commit.Result {
	t.T.Helper()
	res, err := t.TryCommit(user, req)
	if err != nil {
		t.T.Fatalf("commit of %s: %v", user, err)
	}
	return res
}

// TryCommit is Commit returning the error.
func (t *Table) TryCommit(user string, req commit.Request) (commit.Result, error) {
	t.T.Helper()
	c := t.Committer(nil)
	req.CommitUser, req.Identifier = user, t.NextIdentifier(user)
	return c.Commit(context.Background(), req)
}

// Open opens the table for reading.
func (t *Table) Open() *table.Table {
	t.T.Helper()
	tbl, err := table.Open(context.Background(), t.FS, t.Dir)
	if err != nil {
		t.T.Fatal(err)
	}
	return tbl
}

// Schema is the latest schema.
func (t *Table) Schema() *spec.TableSchema {
	t.T.Helper()
	return t.schemaOn(t.FS)
}

func (t *Table) schemaOn(fsys fileio.FileIO) *spec.TableSchema {
	t.T.Helper()
	tbl, err := table.Open(context.Background(), fsys, t.Dir)
	if err != nil {
		t.T.Fatal(err)
	}
	s, err := tbl.LatestSchema(context.Background())
	if err != nil {
		t.T.Fatal(err)
	}
	return s
}

// LatestID is the id of the latest snapshot, 0 before the first.
func (t *Table) LatestID() int64 {
	t.T.Helper()
	id, _, err := snapshot.NewManager(t.FS, t.Dir, "").LatestID(context.Background())
	if err != nil {
		t.T.Fatal(err)
	}
	return id
}

// Latest is the latest snapshot.
func (t *Table) Latest() *spec.Snapshot {
	t.T.Helper()
	snap, err := t.Open().Snapshots().Latest(context.Background())
	if err != nil {
		t.T.Fatal(err)
	}
	return snap
}

// LiveFiles are the live entries of the latest snapshot.
func (t *Table) LiveFiles() []spec.ManifestEntry {
	t.T.Helper()
	tbl := t.Open()
	snap, err := tbl.Snapshots().Latest(context.Background())
	if err != nil {
		t.T.Fatal(err)
	}
	entries, err := tbl.LiveFiles(context.Background(), snap)
	if err != nil {
		t.T.Fatal(err)
	}
	return entries
}

// AlterOptions publishes the next schema version with options changed, as
// a Java ALTER TABLE would, bypassing the catalog's checks of which options
// may change.
func (t *Table) AlterOptions(changes map[string]string) {
	t.T.Helper()
	next := *t.Schema()
	next.ID++
	next.Options = maps.Clone(next.Options)
	maps.Copy(next.Options, changes)
	data, err := spec.EncodeSchema(&next)
	if err != nil {
		t.T.Fatal(err)
	}
	p := fmt.Sprintf("%s/schema/schema-%d", t.Dir, next.ID)
	if err := t.FS.PutIfAbsent(context.Background(), p, data); err != nil {
		t.T.Fatal(err)
	}
}

// RowsDeletedByVectors counts the rows the live deletion vectors of tbl
// delete at snap.
func RowsDeletedByVectors(tb testing.TB, tbl *table.Table, snap *spec.Snapshot) int64 {
	tb.Helper()
	index, err := tbl.IndexFiles(context.Background(), snap)
	if err != nil {
		tb.Fatal(err)
	}
	var n int64
	for _, e := range index {
		for _, r := range e.IndexFile.DeletionVectorRanges {
			n += *r.Cardinality
		}
	}
	return n
}
