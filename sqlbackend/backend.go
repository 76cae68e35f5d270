package sqlbackend

import (
	"context"
	"sync"
	"time"

	"github.com/lakesql/lakesql/sqlbackend/duckplan"
	"github.com/lakesql/lakesql/sqlbackend/metrics"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/table"
)

// Options configures a Backend. Every source of nondeterminism is here.
type Options struct {
	FileIO    fileio.FileIO
	Warehouse string
	// Metastore names the databases and tables when the warehouse uses
	// Paimon's JDBC catalog; nil means its directories name them.
	Metastore catalog.Metastore
	// Now stamps schemas and commits; default time.Now.
	Now func() time.Time
	// NewUUID names data and metadata files and default commit users;
	// default random version-4 UUIDs.
	NewUUID func() string
	// SpillDir is where write buffers spill; "" is os.TempDir().
	SpillDir string
	// ReadParallelism is the number of splits a scan reads at once; 0 is
	// GOMAXPROCS.
	ReadParallelism int
	// Metrics records commits, scans and statements; nil records nothing.
	Metrics *metrics.Metrics
	// PageCacheBytes bounds the decompressed pages point reads keep for
	// the next ones (table.PageCache); 0 keeps none.
	PageCacheBytes int64
	// WriteBufferBytes bounds, when positive, what each transaction's
	// table writer buffers in memory before it writes files, below the
	// table's write-buffer-size (Paimon's default is 256 MiB).
	WriteBufferBytes int64
	// BackgroundCompaction compacts primary-key tables after commits on a
	// worker of the backend's (compactionService) instead of in the
	// statements that wrote them, which then never compact.
	BackgroundCompaction bool
	// Executor runs the reads duckplan translates (package duckexec, in
	// builds with the duckdb_arrow tag); nil runs every statement on
	// go-mysql-server.
	Executor duckplan.Executor
}

// Backend is one warehouse served over SQL. It caches opened tables (their
// schema and manifest caches, which hold only immutable files) by directory;
// DROP TABLE through this backend forgets the entry.
type Backend struct {
	opts    Options
	catalog *catalog.Catalog

	// pages is the page cache every opened table shares; nil for none.
	pages *table.PageCache

	mu     sync.Mutex
	tables map[string]*table.Table
	// claims are the commit users this process's sessions claimed.
	claims processClaims
	// reruns holds, per table directory, the turn that re-runs of
	// statements that lost write-write conflicts take (SerializeRerun).
	reruns sync.Map
	// compactions is the background compaction service; nil when
	// statements compact inline.
	compactions *compactionService
}

// New returns the backend of a warehouse.
func New(opts Options) *Backend {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	var pages *table.PageCache
	if opts.PageCacheBytes > 0 {
		pages = table.NewPageCache(opts.PageCacheBytes)
		opts.Metrics.ObservePageCache(pages)
	}
	b := &Backend{
		opts:    opts,
		pages:   pages,
		catalog: catalog.NewWithMetastore(opts.FileIO, opts.Warehouse, opts.Now, opts.Metastore),
		tables:  map[string]*table.Table{},
	}
	if opts.BackgroundCompaction {
		b.compactions = newCompactionService(&b.opts)
	}
	return b
}

// Close stops the background compaction service, cutting short a
// compaction under way.
func (b *Backend) Close() {
	if b.compactions != nil {
		b.compactions.Close()
	}
}

// Metrics is where the backend records what it does; nil when disabled.
func (b *Backend) Metrics() *metrics.Metrics { return b.opts.Metrics }

// Catalog is the warehouse's catalog.
func (b *Backend) Catalog() *catalog.Catalog { return b.catalog }

// FileIO is the warehouse's file system.
func (b *Backend) FileIO() fileio.FileIO { return b.opts.FileIO }

// OpenTable opens a table of the warehouse, reusing the cached handle.
func (b *Backend) OpenTable(ctx context.Context, db, name string) (*table.Table, error) {
	dir, err := b.catalog.TablePath(db, name)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	t, ok := b.tables[dir]
	b.mu.Unlock()
	if ok {
		return t, nil
	}
	t, err = table.Open(ctx, b.opts.FileIO, dir)
	if err != nil {
		return nil, err
	}
	t.SetPageCache(b.pages)
	b.mu.Lock()
	b.tables[dir] = t
	b.mu.Unlock()
	return t, nil
}

// forget drops the cached handle of a dropped or re-created table.
func (b *Backend) forget(db, name string) {
	dir, err := b.catalog.TablePath(db, name)
	if err != nil {
		return
	}
	b.mu.Lock()
	delete(b.tables, dir)
	b.mu.Unlock()
}
