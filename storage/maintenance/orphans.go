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
	"github.com/lakesql/lakesql/storage/lease"
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
	// removed; nil means DefaultOrphanAge. The files lakesql writers have
	// not committed yet are protected by their write leases at any age;
	// those of Flink or Spark writers only by this threshold, which must
	// then exceed their longest write-and-commit.
	OlderThan *time.Duration
	// DryRun lists the orphans without deleting them.
	DryRun bool
	// Now is the clock the age of files and leases is measured with;
	// default time.Now.
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
	// Protected counts the unreferenced files old enough to remove that
	// were kept because a live write lease covers them: files of lakesql
	// writers that have not committed yet (see package lease).
	Protected int
	// SnapshotsDuringScan counts the snapshots published during the scan,
	// whose files were added to what is kept.
	SnapshotsDuringScan int
	// StaleLeases lists the write leases of writers that died or stalled,
	// which protect nothing any more; they are deleted with the orphans
	// (not on a dry run).
	StaleLeases []string
}

// RemoveOrphanFiles deletes the files of a table that nothing references:
// data and changelog files in the bucket directories, manifests, manifest
// lists, index manifests, index and statistics files, and temp files
// left in snapshot/ and tag/ by crashed writers. Mirrors
// LocalOrphanFilesClean, fixing the ways it deletes live files:
//
//   - apache/paimon#3074 (files committed during the scan): candidates are
//     listed before the used set is computed, so a file committed after
//     the listing is not a candidate;
//   - apache/paimon#7710 (snapshots expired during the scan): the run first
//     takes a fence (the ids of every snapshot and long-lived changelog, and
//     every tag, of every branch), computes the used set from exactly the
//     fenced snapshots and tags, failing if any of them cannot be read, and
//     takes the fence again before deleting. If a snapshot, changelog, tag
//     or branch went or changed, it deletes nothing and fails with
//     lakeerr.ErrRetryableConflict. Snapshots appended after the fenced
//     latest one (plain commits) do not stop it: their files are added to
//     the used set, after checking that the fenced latest snapshot is
//     still the same (a rollback replaces it);
//   - files written but not yet committed: after listing the candidates,
//     the run lists the write leases of the table (see package lease) and
//     keeps every candidate a live lease covers. A lakesql writer (a
//     TableWriter until it is closed, a Commit call, a compaction) holds a
//     lease from before its first file until its commit returned, so a
//     listed file of a writer is either covered by a lease listed after it,
//     or its writer released the lease after publishing the snapshot naming
//     it, which the second fence sees.
//
// Writers that take no lakesql lease, Flink and Spark jobs, are protected
// by OlderThan alone, as in Java: a file of theirs older than the
// threshold whose commit lands after the second fence is lost. So is a
// file of a TableWriter closed before its messages were committed.
//
// A table without any snapshot, tag or branch is left alone: there is
// nothing to tell a crashed first commit's files from a running one's.
// Stale leases (see lease.Lease.Stale) are deleted with the orphans.
// Empty directories are left in place.
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
	// After the candidates: a lease released before this listing was
	// released after its commit, which the second fence sees.
	leases, err := lease.List(ctx, fio, t.dir)
	if err != nil {
		return res, err
	}
	used, newest, err := usedNames(ctx, t, before)
	if err != nil {
		return res, err
	}
	after, err := takeFence(ctx, t)
	if err != nil {
		return res, err
	}
	if res.SnapshotsDuringScan, err = absorbProgress(ctx, t, before, after, newest, used); err != nil {
		return res, err
	}
	now := nowOrDefault(opts.Now)()
	live, stale := splitLeases(leases, now)
	res.Candidates, res.Protected = unprotected(orphans(listed, used, now.Add(-age)), live)
	res.StaleLeases = stale
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
	for _, p := range stale {
		if _, err := deleteIfExists(ctx, fio, p); err != nil {
			return res, err
		}
	}
	return res, nil
}

// splitLeases returns the leases live at now, and the paths of the stale
// ones.
func splitLeases(leases []lease.Lease, now time.Time) (live []lease.Lease, stale []string) {
	for _, l := range leases {
		if l.Stale(now) {
			stale = append(stale, l.Path)
		} else {
			live = append(live, l)
		}
	}
	return live, stale
}

// unprotected returns the orphans no live lease covers, and how many it
// left out.
func unprotected(orphans []OrphanFile, live []lease.Lease) ([]OrphanFile, int) {
	var out []OrphanFile
	for _, f := range orphans {
		if !slices.ContainsFunc(live, func(l lease.Lease) bool { return l.Covers(f.ModTime) }) {
			out = append(out, f)
		}
	}
	return out, len(orphans) - len(out)
}

// absorbProgress lets the scan go on when the only change from fence
// before to fence after is snapshots appended after the fenced latest
// ones: it adds the names of their files to used and returns how many
// there were. A commit appends to the snapshot it built on, so the fenced
// latest snapshot of each branch must still be the one the used set was
// computed from (newest): a rollback that deleted it and commits that
// re-used its id would otherwise go unseen. Any other change stops the
// run with lakeerr.ErrRetryableConflict.
func absorbProgress(ctx context.Context, t *tableCtx, before, after fence, newest map[string]*spec.Snapshot, used map[string]bool) (int, error) {
	diff := before.diff(after)
	if diff == "" {
		return 0, nil
	}
	appended, ok := before.appended(after)
	if !ok {
		return 0, fmt.Errorf("%w: the table changed during the orphan scan (%s); nothing was deleted, run again",
			lakeerr.ErrRetryableConflict, diff)
	}
	n := 0
	for _, branch := range slices.Sorted(maps.Keys(appended)) {
		bt := t
		if branch != "" {
			var err error
			if bt, err = t.branch(ctx, branch); err != nil {
				return 0, err
			}
		}
		if err := absorbBranch(ctx, bt, newest[branch], appended[branch], used); err != nil {
			return 0, err
		}
		n += len(appended[branch])
	}
	return n, nil
}

// absorbBranch adds to used the files of the snapshots ids, published on
// top of prev (nil: the branch had none).
func absorbBranch(ctx context.Context, t *tableCtx, prev *spec.Snapshot, ids []int64, used map[string]bool) error {
	prevID := int64(-1)
	if prev != nil {
		prevID = prev.ID
		again, err := readSnapshot(ctx, t.snapshots, prev.ID)
		if err != nil {
			return err
		}
		if !sameSnapshot(prev, again) {
			return fmt.Errorf("%w: snapshot %d was replaced during the orphan scan (a rollback?); nothing was deleted, run again",
				lakeerr.ErrRetryableConflict, prev.ID)
		}
	}
	refs := refSet{}
	if err := newRefReader(t).snapshotRangeAfter(ctx, t.snapshots, prevID, ids, refs); err != nil {
		return err
	}
	for p := range refs {
		used[path.Base(p)] = true
	}
	return nil
}

// sameSnapshot reports whether a and b are one snapshot read twice:
// manifest list names hold a uuid, so no other snapshot has both.
func sameSnapshot(a, b *spec.Snapshot) bool {
	return a.ID == b.ID && a.CommitUser == b.CommitUser && a.CommitIdentifier == b.CommitIdentifier &&
		a.BaseManifestList == b.BaseManifestList && a.DeltaManifestList == b.DeltaManifestList
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

// appended returns, per branch, the snapshot ids other lists after those
// f lists, if that is all that differs; ok is false otherwise.
func (f fence) appended(other fence) (ids map[string][]int64, ok bool) {
	ids = map[string][]int64{}
	for _, key := range slices.Sorted(maps.Keys(other)) {
		was, is := f[key], other[key]
		if was == is {
			continue
		}
		branch, isSnapshots := strings.CutSuffix(key, "/snapshot")
		if _, fenced := f[key]; !fenced || !isSnapshots {
			return nil, false
		}
		before, now := splitIDs(was), splitIDs(is)
		if len(now) <= len(before) || !slices.Equal(now[:len(before)], before) {
			return nil, false
		}
		ids[branch] = now[len(before):]
	}
	for key := range f {
		if _, ok := other[key]; !ok {
			return nil, false
		}
	}
	return ids, true
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
// their changelog files; and, per branch, the latest fenced snapshot as
// read. Unlike Java, a data file that a retained manifest names only in a
// DELETE entry is not used: it is live nowhere, and only orphan removal
// can reclaim it once the tag that held it is gone. Any snapshot or tag
// that cannot be read fails the run.
func usedNames(ctx context.Context, t *tableCtx, f fence) (map[string]bool, map[string]*spec.Snapshot, error) {
	branches := append([]string{""}, splitNames(f["branches"])...)
	refs := refSet{}
	newest := map[string]*spec.Snapshot{}
	for _, b := range branches {
		bt := t
		if b != "" {
			var err error
			if bt, err = t.branch(ctx, b); err != nil {
				return nil, nil, err
			}
		}
		last, err := namedByBranch(ctx, bt, f, b, refs)
		if err != nil {
			return nil, nil, err
		}
		newest[b] = last
	}
	used := make(map[string]bool, len(refs))
	for p := range refs {
		used[path.Base(p)] = true
	}
	return used, newest, nil
}

func splitNames(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// namedByBranch adds the files the fenced snapshots, changelogs and tags
// of one branch need, and returns its latest fenced snapshot as read.
func namedByBranch(ctx context.Context, t *tableCtx, f fence, branch string, out refSet) (*spec.Snapshot, error) {
	r := newRefReader(t)
	if err := r.snapshotRange(ctx, t.snapshots, splitIDs(f[branch+"/snapshot"]), out); err != nil {
		return nil, err
	}
	last := r.last
	for _, id := range splitIDs(f[branch+"/changelog"]) {
		s, err := readChangelog(ctx, t, id)
		if err != nil {
			return nil, err
		}
		if err := r.named(ctx, s, out); err != nil {
			return nil, vanishedFile(err)
		}
	}
	tags, err := readTags(ctx, t.snapshots)
	if err != nil {
		return nil, err
	}
	return last, r.tagRefs(ctx, tags, out)
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
// crashed writers leave in snapshot/, tag/, schema/ and commit-user/ (the
// receipts). Schema, snapshot, tag, consumer, branch and receipt files are
// never candidates.
func listCandidates(ctx context.Context, t *tableCtx) ([]fileio.FileInfo, error) {
	var out []fileio.FileInfo
	for _, dir := range []string{"manifest", "index", "statistics"} {
		files, err := listFiles(ctx, t.io, path.Join(t.dir, dir), func(string) bool { return true })
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	for _, dir := range []string{"snapshot", "tag", "schema", "commit-user"} {
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
