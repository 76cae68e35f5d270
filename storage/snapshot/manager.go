// Package snapshot finds and reads the snapshots, tags and hints of one
// table (or one branch of it). Mirrors org.apache.paimon.utils.SnapshotManager,
// TagManager and HintFileUtils.
package snapshot

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

const (
	snapshotPrefix = "snapshot-"
	tagPrefix      = "tag-"
	latestHint     = "LATEST"
	earliestHint   = "EARLIEST"
	mainBranch     = "main"
)

// Manager reads the snapshot/ and tag/ directories of one branch of a table.
// Which snapshots exist changes under concurrent commits and expiry, and a
// rollback lets a later commit write another snapshot under an old id, so
// it caches no listing and no file: only the decoding of the files it read
// last, reused when a file reads back byte for byte the same, and the id
// it last found latest, checked again before it is returned.
type Manager struct {
	io       fileio.FileIO
	tableDir string
	// branchDir is the directory holding this branch's snapshot/ and tag/:
	// the table directory for the main branch, else branch/branch-<name>.
	branchDir string
	decoded   decodedSnapshots
	// latestSeen is the id LatestID returned last, 0 before it found one.
	latestSeen atomic.Int64
}

// NewManager returns a Manager for the named branch ("" means main).
func NewManager(io fileio.FileIO, tableDir, branch string) *Manager {
	dir := tableDir
	if branch != "" && branch != mainBranch {
		dir = path.Join(tableDir, "branch", "branch-"+branch)
	}
	return &Manager{io: io, tableDir: tableDir, branchDir: dir}
}

// BranchDir is the directory that holds this branch's schema/, snapshot/
// and tag/ directories.
func (m *Manager) BranchDir() string { return m.branchDir }

// SnapshotPath is the path of snapshot-<id>.
func (m *Manager) SnapshotPath(id int64) string {
	return path.Join(m.snapshotDir(), snapshotPrefix+strconv.FormatInt(id, 10))
}

// TagPath is the path of tag-<name>.
func (m *Manager) TagPath(name string) string {
	return path.Join(m.branchDir, "tag", tagPrefix+name)
}

func (m *Manager) snapshotDir() string { return path.Join(m.branchDir, "snapshot") }

// Snapshot reads snapshot-<id>. A missing file wraps lakeerr.ErrNotFound and
// names the range of snapshots that do exist, since the usual cause is expiry.
func (m *Manager) Snapshot(ctx context.Context, id int64) (*spec.Snapshot, error) {
	p := m.SnapshotPath(id)
	data, err := m.io.ReadFile(ctx, p)
	if errors.Is(err, fileio.ErrNotExist) {
		return nil, m.notFound(ctx, id)
	}
	if err != nil {
		return nil, fmt.Errorf("read snapshot %d: %w", id, err)
	}
	if s, ok := m.decoded.get(id, data); ok {
		return s, nil
	}
	s, err := spec.DecodeSnapshot(data)
	if err != nil {
		return nil, fmt.Errorf("snapshot file %s: %w", p, err)
	}
	m.decoded.put(id, data, s)
	return s.Clone(), nil
}

func (m *Manager) notFound(ctx context.Context, id int64) error {
	ids, err := m.IDs(ctx)
	if err != nil {
		return fmt.Errorf("snapshot %d: %w (listing snapshots also failed: %v)", id, lakeerr.ErrNotFound, err)
	}
	if len(ids) == 0 {
		return fmt.Errorf("snapshot %d: %w: the table has no snapshots", id, lakeerr.ErrNotFound)
	}
	return fmt.Errorf("snapshot %d: %w: available snapshots are %d..%d (earliest %d)",
		id, lakeerr.ErrNotFound, ids[0], ids[len(ids)-1], ids[0])
}

// IDs lists the ids of all snapshot files, ascending. Temp files and hints
// are skipped.
func (m *Manager) IDs(ctx context.Context) ([]int64, error) {
	names, err := fileio.ListFileNames(ctx, m.io, m.snapshotDir())
	if err != nil {
		return nil, fmt.Errorf("list snapshots: %w", err)
	}
	var ids []int64
	for _, name := range names {
		if id, ok := parseSnapshotName(name); ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

func parseSnapshotName(name string) (int64, bool) {
	digits, ok := strings.CutPrefix(name, snapshotPrefix)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(digits, 10, 64)
	return id, err == nil && id > 0
}

// LatestID returns the id of the newest snapshot, or ok=false for a table
// with none. An id is the latest when its snapshot exists and the next
// does not, as commits write ids in order (HintFileUtils.findLatest). The
// id this Manager found last is tried first, as a hint that costs no read
// (a point select pays two stats instead of a hint read and two stats);
// then the LATEST hint; otherwise the directory is listed.
func (m *Manager) LatestID(ctx context.Context) (id int64, ok bool, err error) {
	if seen := m.latestSeen.Load(); seen > 0 {
		if latest, err := m.isLatest(ctx, seen); err != nil || latest {
			return seen, err == nil, err
		}
	}
	if id, ok, err = m.findLatest(ctx); ok && err == nil {
		m.latestSeen.Store(id)
	}
	return id, ok, err
}

func (m *Manager) findLatest(ctx context.Context) (id int64, ok bool, err error) {
	if hint, ok := m.readHint(ctx, latestHint); ok {
		if latest, err := m.isLatest(ctx, hint); err != nil || latest {
			return hint, err == nil, err
		}
	}
	ids, err := m.IDs(ctx)
	if err != nil || len(ids) == 0 {
		return 0, false, err
	}
	return ids[len(ids)-1], true, nil
}

// isLatest reports whether snapshot-<id> exists and snapshot-<id+1> does
// not.
func (m *Manager) isLatest(ctx context.Context, id int64) (bool, error) {
	next, err := fileio.Exists(ctx, m.io, m.SnapshotPath(id+1))
	if err != nil || next {
		return false, err
	}
	return fileio.Exists(ctx, m.io, m.SnapshotPath(id))
}

// EarliestID returns the id of the oldest snapshot still present, or
// ok=false for a table with none (HintFileUtils.findEarliest).
func (m *Manager) EarliestID(ctx context.Context) (id int64, ok bool, err error) {
	if hint, ok := m.readHint(ctx, earliestHint); ok {
		exists, err := fileio.Exists(ctx, m.io, m.SnapshotPath(hint))
		if err != nil {
			return 0, false, err
		}
		if exists {
			return hint, true, nil
		}
	}
	ids, err := m.IDs(ctx)
	if err != nil || len(ids) == 0 {
		return 0, false, err
	}
	return ids[0], true, nil
}

// readHint returns the id in a hint file. Hints are advisory: a missing or
// unparsable hint is reported as absent, and callers fall back to listing.
func (m *Manager) readHint(ctx context.Context, name string) (int64, bool) {
	data, err := m.io.ReadFile(ctx, path.Join(m.snapshotDir(), name))
	if err != nil {
		return 0, false
	}
	id, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return id, err == nil && id > 0
}

// Latest reads the newest snapshot, or returns nil for a table with none.
func (m *Manager) Latest(ctx context.Context) (*spec.Snapshot, error) {
	id, ok, err := m.LatestID(ctx)
	if err != nil || !ok {
		return nil, err
	}
	return m.Snapshot(ctx, id)
}

// Tag reads tag-<name>. A missing tag wraps lakeerr.ErrNotFound and lists
// the tags that exist.
func (m *Manager) Tag(ctx context.Context, name string) (*spec.Tag, error) {
	p := m.TagPath(name)
	data, err := m.io.ReadFile(ctx, p)
	if errors.Is(err, fileio.ErrNotExist) {
		names, _ := m.TagNames(ctx)
		return nil, fmt.Errorf("tag %q: %w (existing tags: %s)", name, lakeerr.ErrNotFound, strings.Join(names, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("read tag %q: %w", name, err)
	}
	tag, err := spec.DecodeTag(data)
	if err != nil {
		return nil, fmt.Errorf("tag file %s: %w", p, err)
	}
	return tag, nil
}

// TagNames lists the tags of the branch, sorted by name.
func (m *Manager) TagNames(ctx context.Context) ([]string, error) {
	infos, err := m.io.List(ctx, path.Join(m.branchDir, "tag"))
	if err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	var names []string
	for _, fi := range infos {
		if name, ok := strings.CutPrefix(path.Base(fi.Path), tagPrefix); ok && !fi.IsDir {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, nil
}
