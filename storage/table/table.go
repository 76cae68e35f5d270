// Package table opens a Paimon table, pins one snapshot and reads its rows:
// the read API the CLI and the SQL layer are built on.
package table

import (
	"context"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/lakesql/lakesql/storage/fileindex"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/internal/bytelru"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/schema"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// Table is one branch of a Paimon table directory. It is safe for
// concurrent use; it caches only immutable files (schemas, manifests).
type Table struct {
	io        fileio.FileIO
	dir       string
	branch    string
	snapshots *snapshot.Manager
	schemas   *schema.Manager
	manifests *manifest.Reader
	// planner plans reads through a manifest cache shared by every read
	// of the table.
	planner *scan.Planner
	// footers keeps the decoded footers of the Parquet data files read
	// last, by path: a point read then opens its file without decoding
	// the footer again. Paimon never rewrites a data file under its name.
	footers *bytelru.Cache[string, *parquetio.Footer]
	// pages, when set, keeps the decompressed pages point reads decode.
	pages *PageCache
	// indexes keeps the decoded .index files of data files, by path.
	indexes *bytelru.Cache[string, *fileindex.Container]
	// branches holds the fallback branches opened so far, by name, so each
	// read of a table with scan.fallback-branch reuses the branch's
	// schema and manifest caches.
	branches sync.Map
}

// Open opens the main branch of the table at dir. A directory without a
// schema is not a table: the error wraps lakeerr.ErrNotFound.
func Open(ctx context.Context, io fileio.FileIO, dir string) (*Table, error) {
	return OpenBranch(ctx, io, dir, "")
}

// OpenBranch opens a branch of the table at dir ("" or "main" for the main
// branch). Branches keep their own schemas, snapshots and tags; data files
// and manifests are shared with the main branch.
func OpenBranch(ctx context.Context, io fileio.FileIO, dir, branch string) (*Table, error) {
	dir = strings.TrimSuffix(dir, "/")
	t := &Table{
		io:        io,
		dir:       dir,
		branch:    branch,
		snapshots: snapshot.NewManager(io, dir, branch),
		schemas:   schema.NewManager(io, dir, branch),
		manifests: manifest.NewReader(io, dir),
	}
	t.planner = scan.NewPlanner(t.manifests, scan.NewManifestCache(scan.DefaultCacheEntries))
	t.footers = bytelru.New[string](footerCacheBytes, (*parquetio.Footer).MemorySize)
	t.indexes = bytelru.New[string](fileIndexCacheBytes, (*fileindex.Container).MemorySize)
	ids, err := t.schemas.IDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("open table %s: %w", dir, err)
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("open table %s: no schema files in %s: %w",
			dir, path.Join(t.snapshots.BranchDir(), "schema"), lakeerr.ErrNotFound)
	}
	return t, nil
}

// Dir is the table directory.
func (t *Table) Dir() string { return t.dir }

// Snapshots gives access to the branch's snapshots and tags.
func (t *Table) Snapshots() *snapshot.Manager { return t.snapshots }

// Schemas gives access to the branch's schema versions.
func (t *Table) Schemas() *schema.Manager { return t.schemas }

// Manifests gives access to the table's manifest files.
func (t *Table) Manifests() *manifest.Reader { return t.manifests }

// Planner is the table's scan planner, whose manifest cache every read of
// the table shares.
func (t *Table) Planner() *scan.Planner { return t.planner }

// LatestSchema returns the newest schema of the branch.
func (t *Table) LatestSchema(ctx context.Context) (*spec.TableSchema, error) {
	return t.schemas.Latest(ctx)
}

// LiveFiles returns the data files live in snapshot s.
func (t *Table) LiveFiles(ctx context.Context, s *spec.Snapshot) ([]spec.ManifestEntry, error) {
	return t.manifests.LiveEntries(ctx, s)
}

// UnmergedFiles returns every ADD and DELETE entry of snapshot s's data
// manifests (see manifest.Reader.UnmergedEntries).
func (t *Table) UnmergedFiles(ctx context.Context, s *spec.Snapshot) ([]spec.ManifestEntry, error) {
	return t.manifests.UnmergedEntries(ctx, s)
}

// IndexFiles returns the index files live in snapshot s: the snapshot's
// index manifest is a full list, not a delta.
func (t *Table) IndexFiles(ctx context.Context, s *spec.Snapshot) ([]spec.IndexManifestEntry, error) {
	if s.IndexManifest == nil || *s.IndexManifest == "" {
		return nil, nil
	}
	return t.manifests.IndexEntries(ctx, *s.IndexManifest)
}
