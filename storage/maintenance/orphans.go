package maintenance

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// DefaultOrphanAge is how old a file must be before RemoveOrphanFiles
// deletes it, unless told otherwise: Java's default older_than is one day
// before now.
const DefaultOrphanAge = 24 * time.Hour

// OrphanOptions configures RemoveOrphanFiles.
type OrphanOptions struct {
	// OlderThan: only files last modified more than this long ago are
	// removed; nil means DefaultOrphanAge. It is what protects the files
	// of a writer that has not committed yet, so it must exceed the longest
	// write-and-commit of any writer.
	OlderThan *time.Duration
	// DryRun lists the orphans without deleting them.
	DryRun bool
	// Now is the clock the age is measured with; default time.Now.
	Now func() time.Time
}

// OrphanFile is a file no snapshot, tag or branch references.
type OrphanFile struct {
	Path    string
	Size    int64
	ModTime time.Time
}

// OrphanResult says what RemoveOrphanFiles found and did.
type OrphanResult struct {
	// Candidates are the orphans old enough to remove, by path.
	Candidates []OrphanFile
	// Deleted lists the paths this call deleted (none on a dry run).
	Deleted      []string
	BytesDeleted int64
}

// RemoveOrphanFiles deletes the files of a table that nothing references:
// data and changelog files in the bucket directories, manifests, manifest
// lists, index manifests, index and statistics files, and temp files
// left in snapshot/ and tag/ by crashed writers. Mirrors
// LocalOrphanFilesClean, fixing two ways it deletes live files:
//
//   - apache/paimon#3074 (files committed during the scan): candidates are
//     listed before the used set is computed, so a file committed after
//     the listing is not a candidate;
//   - apache/paimon#7710 (snapshots expired during the scan): the run first
//     takes a fence (the ids of every snapshot and long-lived changelog, and
//     every tag, of every branch), computes the used set from exactly the
//     fenced snapshots and tags, failing if any of them cannot be read, and
//     takes the fence again before deleting. If anything changed, it
//     deletes nothing and fails with lakeerr.ErrRetryableConflict.
//
// A table without any snapshot, tag or branch is left alone: there is nothing to
// tell a crashed first commit's files from a running one's.
//
// The fence cannot see a writer that has written files but not yet
// committed; only the age threshold protects those (a publish after the
// second fence, of files older than the threshold, loses them, as in
// Java). Empty directories are left in place.
func RemoveOrphanFiles(ctx context.Context, fio fileio.FileIO, tableDir string, opts OrphanOptions) (OrphanResult, error) {
	var res OrphanResult
	age := DefaultOrphanAge
	if opts.OlderThan != nil {
		age = *opts.OlderThan
	}
	if age < 0 {
		return res, fmt.Errorf("remove orphan files: older_than %v is in the future: %w", age, ErrInvalidArgument)
	}
	t, err := openTable(ctx, fio, tableDir)
	if err != nil {
		return res, err
	}
	before, err := takeFence(ctx, t)
	if err != nil {
		return res, err
	}
	if before.empty() {
		return res, nil
	}
	listed, err := listCandidates(ctx, t)
	if err != nil {
		return res, err
	}
	used, err := usedNames(ctx, t, before)
	if err != nil {
		return res, err
	}
	after, err := takeFence(ctx, t)
	if err != nil {
		return res, err
	}
	if diff := before.diff(after); diff != "" {
		return res, fmt.Errorf("%w: the table changed during the orphan scan (%s); nothing was deleted, run again",
			lakeerr.ErrRetryableConflict, diff)
	}
	res.Candidates = orphans(listed, used, nowOrDefault(opts.Now)().Add(-age))
	if opts.DryRun {
		return res, nil
	}
	for _, f := range res.Candidates {
		removed, err := deleteIfExists(ctx, fio, f.Path)
		if err != nil {
			return res, err
		}
		if removed {
			res.Deleted = append(res.Deleted, f.Path)
			res.BytesDeleted += f.Size
		}
	}
	return res, nil
}

// orphans returns the listed files that no used name matches and that were
// last modified before cutoff, sorted by path. Names carry a UUID, so a
// name identifies a file wherever a manifest places it.
func orphans(listed []fileio.FileInfo, used map[string]bool, cutoff time.Time) []OrphanFile {
	var out []OrphanFile
	for _, fi := range listed {
		if used[path.Base(fi.Path)] || !fi.ModTime.Before(cutoff) {
			continue
		}
		out = append(out, OrphanFile{Path: fi.Path, Size: fi.Size, ModTime: fi.ModTime})
	}
	slices.SortFunc(out, func(a, b OrphanFile) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// fence is the set of snapshots, long-lived changelogs and tags of every
// branch at one instant. Files are immutable, so an unchanged fence means
// an unchanged used set.
type fence map[string]string

func (f fence) empty() bool {
	for _, value := range f {
		if value != "" {
			return false
		}
	}
	return true
}

// diff describes how other differs from f, or returns "" if it does not.
func (f fence) diff(other fence) string {
	var changes []string
	for _, key := range slices.Sorted(maps.Keys(f)) {
		if f[key] != other[key] {
			changes = append(changes, fmt.Sprintf("%s: [%s] -> [%s]", key, f[key], other[key]))
		}
	}
	for _, key := range slices.Sorted(maps.Keys(other)) {
		if _, ok := f[key]; !ok {
			changes = append(changes, fmt.Sprintf("%s: new [%s]", key, other[key]))
		}
	}
	return strings.Join(changes, "; ")
}

// takeFence records, per branch, the snapshot ids, the long-lived
// changelog ids, and each tag with its size and modification time (a tag
// deleted and re-created under the same name shows as a change). The main
// branch's snapshots are listed last: a commit that lands after that
// listing is outside what the second fence can see, so nothing else may
// come between it and the deletions.
func takeFence(ctx context.Context, t *tableCtx) (fence, error) {
	branches, err := branchNames(ctx, t)
	if err != nil {
		return nil, err
	}
	f := fence{"branches": strings.Join(branches, ",")}
	all := append(branches, "")
	for _, b := range all {
		if err := fenceTagsAndChangelogs(ctx, t, b, f); err != nil {
			return nil, err
		}
	}
	for _, b := range all {
		ids, err := snapshot.NewManager(t.io, t.dir, b).IDs(ctx)
		if err != nil {
			return nil, err
		}
		f[b+"/snapshot"] = joinIDs(ids)
	}
	return f, nil
}

func fenceTagsAndChangelogs(ctx context.Context, t *tableCtx, branch string, f fence) error {
	mgr := snapshot.NewManager(t.io, t.dir, branch)
	changelogs, err := changelogIDs(ctx, t, mgr.BranchDir())
	if err != nil {
		return err
	}
	f[branch+"/changelog"] = joinIDs(changelogs)
	infos, err := t.io.List(ctx, path.Join(mgr.BranchDir(), "tag"))
	if err != nil {
		return fmt.Errorf("list tags: %w", err)
	}
	var tags []string
	for _, fi := range infos {
		name := path.Base(fi.Path)
		if strings.HasPrefix(name, "tag-") && !fi.IsDir && !fileio.IsTempName(name) {
			tags = append(tags, fmt.Sprintf("%s@%d/%d", name, fi.Size, fi.ModTime.UnixNano()))
		}
	}
	f[branch+"/tag"] = strings.Join(tags, ",")
	return nil
}

func joinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}

func splitIDs(s string) []int64 {
	var ids []int64
	for _, part := range strings.Split(s, ",") {
		if id, err := strconv.ParseInt(part, 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// changelogIDs lists the long-lived changelogs of a branch (changelog/
// changelog-<id>, Java's decoupled changelog), ascending.
func changelogIDs(ctx context.Context, t *tableCtx, branchDir string) ([]int64, error) {
	infos, err := t.io.List(ctx, path.Join(branchDir, "changelog"))
	if err != nil {
		return nil, fmt.Errorf("list changelogs: %w", err)
	}
	var ids []int64
	for _, fi := range infos {
		digits, ok := strings.CutPrefix(path.Base(fi.Path), "changelog-")
		if id, err := strconv.ParseInt(digits, 10, 64); ok && err == nil && !fi.IsDir {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// usedNames returns the name of every file the fenced snapshots,
// changelogs and tags need: their metadata, their live data files and
// their changelog files. Unlike Java, a data file that a retained manifest
// names only in a DELETE entry is not used: it is live nowhere, and only
// orphan removal can reclaim it once the tag that held it is gone. Any
// snapshot or tag that cannot be read fails the run.
func usedNames(ctx context.Context, t *tableCtx, f fence) (map[string]bool, error) {
	branches := append([]string{""}, splitNames(f["branches"])...)
	refs := refSet{}
	for _, b := range branches {
		bt := t
		if b != "" {
			var err error
			if bt, err = t.branch(ctx, b); err != nil {
				return nil, err
			}
		}
		if err := namedByBranch(ctx, bt, f, b, refs); err != nil {
			return nil, err
		}
	}
	used := make(map[string]bool, len(refs))
	for p := range refs {
		used[path.Base(p)] = true
	}
	return used, nil
}

func splitNames(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func namedByBranch(ctx context.Context, t *tableCtx, f fence, branch string, out refSet) error {
	r := newRefReader(t)
	if err := r.snapshotRange(ctx, t.snapshots, splitIDs(f[branch+"/snapshot"]), out); err != nil {
		return err
	}
	for _, id := range splitIDs(f[branch+"/changelog"]) {
		s, err := readChangelog(ctx, t, id)
		if err != nil {
			return err
		}
		if err := r.named(ctx, s, out); err != nil {
			return vanishedFile(err)
		}
	}
	tags, err := readTags(ctx, t.snapshots)
	if err != nil {
		return err
	}
	return r.tagRefs(ctx, tags, out)
}

// readChangelog reads a long-lived changelog, which Java writes in the
// snapshot layout.
func readChangelog(ctx context.Context, t *tableCtx, id int64) (*spec.Snapshot, error) {
	p := path.Join(t.snapshots.BranchDir(), "changelog", "changelog-"+strconv.FormatInt(id, 10))
	data, err := t.io.ReadFile(ctx, p)
	if errors.Is(err, fileio.ErrNotExist) {
		return nil, fmt.Errorf("%w: changelog %d disappeared during the orphan scan; run again", lakeerr.ErrRetryableConflict, id)
	}
	if err != nil {
		return nil, fmt.Errorf("read changelog %d: %w", id, err)
	}
	s, err := spec.DecodeSnapshot(data)
	if err != nil {
		return nil, fmt.Errorf("changelog file %s: %w", p, err)
	}
	return s, nil
}

// listCandidates lists every file orphan removal may delete: all files of
// manifest/, index/ and statistics/, all files of the bucket directories
// (under partition directories, whose names hold "="), and the temp files
// of snapshot/ and tag/. Schema, snapshot, tag, consumer, branch and
// receipt files are never candidates.
func listCandidates(ctx context.Context, t *tableCtx) ([]fileio.FileInfo, error) {
	var out []fileio.FileInfo
	for _, dir := range []string{"manifest", "index", "statistics"} {
		files, err := listFiles(ctx, t.io, path.Join(t.dir, dir), func(string) bool { return true })
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	for _, dir := range []string{"snapshot", "tag"} {
		files, err := listFiles(ctx, t.io, path.Join(t.dir, dir), fileio.IsTempName)
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	data, err := listDataFiles(ctx, t.io, t.dir, len(t.schema.PartitionKeys))
	if err != nil {
		return nil, err
	}
	return append(out, data...), nil
}

// listDataFiles lists the files of the bucket directories under dir, which
// is partitionLevels partition directories above them.
func listDataFiles(ctx context.Context, fio fileio.FileIO, dir string, partitionLevels int) ([]fileio.FileInfo, error) {
	infos, err := fio.List(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []fileio.FileInfo
	for _, fi := range infos {
		name := path.Base(fi.Path)
		switch {
		case !fi.IsDir:
		case partitionLevels == 0 && strings.HasPrefix(name, "bucket-"):
			files, err := listFiles(ctx, fio, fi.Path, func(string) bool { return true })
			if err != nil {
				return nil, err
			}
			out = append(out, files...)
		case partitionLevels > 0 && strings.Contains(name, "="):
			files, err := listDataFiles(ctx, fio, fi.Path, partitionLevels-1)
			if err != nil {
				return nil, err
			}
			out = append(out, files...)
		}
	}
	return out, nil
}

// listFiles lists the files (not directories) of dir whose name keep
// accepts.
func listFiles(ctx context.Context, fio fileio.FileIO, dir string, keep func(string) bool) ([]fileio.FileInfo, error) {
	infos, err := fio.List(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []fileio.FileInfo
	for _, fi := range infos {
		if !fi.IsDir && keep(path.Base(fi.Path)) {
			out = append(out, fi)
		}
	}
	return out, nil
}
