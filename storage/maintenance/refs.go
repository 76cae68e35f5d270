package maintenance

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
)

// FileKind classifies the files of a table that maintenance deletes.
type FileKind int

// The kinds, in the order expiry deletes them: a file of a later kind
// indexes files of earlier kinds, so a crash never leaves a file that only
// a deleted index could find (a re-run finds everything it missed).
const (
	FileKindData FileKind = iota + 1
	FileKindChangelog
	FileKindManifest
	FileKindIndexFile
	FileKindStatistics
	FileKindManifestList
	FileKindIndexManifest
	FileKindSnapshot
)

func (k FileKind) String() string {
	switch k {
	case FileKindData:
		return "data"
	case FileKindChangelog:
		return "changelog"
	case FileKindManifest:
		return "manifest"
	case FileKindIndexFile:
		return "index"
	case FileKindStatistics:
		return "statistics"
	case FileKindManifestList:
		return "manifest-list"
	case FileKindIndexManifest:
		return "index-manifest"
	case FileKindSnapshot:
		return "snapshot"
	}
	return fmt.Sprintf("FileKind(%d)", int(k))
}

// refSet maps the path of every file some snapshot or tag needs to its
// kind.
type refSet map[string]FileKind

func (s refSet) add(p string, k FileKind) { s[p] = k }

// missing says what a reference walk does with a metadata file that is not
// there or cannot be decoded. Protecting files needs every reference
// (strict: a gap would let a needed file be deleted); finding candidates
// may skip what an earlier or concurrent run already deleted, and what is
// damaged in a snapshot or tag that is going anyway (lenient: a gap only
// leaks files, which orphan removal reclaims, where stopping would keep
// every later expiry from running). A read that fails for another reason
// fails the walk either way: it may work next time.
type missing bool

const (
	strict  missing = false
	lenient missing = true
)

func (m missing) tolerate(err error) error {
	if m == lenient && (errors.Is(err, fileio.ErrNotExist) || errors.Is(err, lakeerr.ErrCorruption)) {
		return nil
	}
	return err
}

// refReader walks snapshots to the files they reference, caching the
// manifest lists and manifests it decodes: they are immutable and shared
// by consecutive snapshots.
type refReader struct {
	t       *tableCtx
	lists   map[string][]spec.ManifestFileMeta
	entries map[string][]spec.ManifestEntry
	indexes map[string][]spec.IndexManifestEntry
	// last is the last snapshot snapshotRange read.
	last *spec.Snapshot
	// ownExpiry is the end of the intent of the expiry reading, 0 for
	// other readers: that expiry deletes only after it has read the tags,
	// so its intent puts no tag it reads in doubt (see tagInDoubt).
	ownExpiry int64
}

func newRefReader(t *tableCtx) *refReader {
	return &refReader{t: t, lists: map[string][]spec.ManifestFileMeta{},
		entries: map[string][]spec.ManifestEntry{}, indexes: map[string][]spec.IndexManifestEntry{}}
}

func (r *refReader) list(ctx context.Context, name string) ([]spec.ManifestFileMeta, error) {
	if l, ok := r.lists[name]; ok {
		return l, nil
	}
	l, err := r.t.manifests.ManifestList(ctx, name)
	if err == nil {
		r.lists[name] = l
	}
	return l, err
}

func (r *refReader) manifest(ctx context.Context, name string) ([]spec.ManifestEntry, error) {
	if e, ok := r.entries[name]; ok {
		return e, nil
	}
	e, err := r.t.manifests.Entries(ctx, name)
	if err == nil {
		r.entries[name] = e
	}
	return e, err
}

func (r *refReader) indexManifest(ctx context.Context, name string) ([]spec.IndexManifestEntry, error) {
	if e, ok := r.indexes[name]; ok {
		return e, nil
	}
	e, err := r.t.manifests.IndexEntries(ctx, name)
	if err == nil {
		r.indexes[name] = e
	}
	return e, err
}

func manifestLists(s *spec.Snapshot) []string {
	lists := []string{s.BaseManifestList, s.DeltaManifestList}
	if s.ChangelogManifestList != nil {
		lists = append(lists, *s.ChangelogManifestList)
	}
	return lists
}

// metadata adds the metadata files of s: its manifest lists and their
// manifests, its index manifest and the index files it lists, and its
// statistics file.
func (r *refReader) metadata(ctx context.Context, s *spec.Snapshot, out refSet, m missing) error {
	for _, name := range manifestLists(s) {
		out.add(r.t.manifests.Path(name), FileKindManifestList)
		metas, err := r.list(ctx, name)
		if err != nil {
			if err := m.tolerate(err); err != nil {
				return fmt.Errorf("snapshot %d: %w", s.ID, err)
			}
			continue
		}
		for _, meta := range metas {
			out.add(r.t.manifests.Path(meta.FileName), FileKindManifest)
		}
	}
	if s.IndexManifest != nil {
		if err := r.indexFiles(ctx, s, *s.IndexManifest, out, m); err != nil {
			return err
		}
	}
	if s.Statistics != nil {
		out.add(r.t.paths.statistics(*s.Statistics), FileKindStatistics)
	}
	return nil
}

func (r *refReader) indexFiles(ctx context.Context, s *spec.Snapshot, name string, out refSet, m missing) error {
	out.add(r.t.manifests.Path(name), FileKindIndexManifest)
	entries, err := r.indexManifest(ctx, name)
	if err != nil {
		if err := m.tolerate(err); err != nil {
			return fmt.Errorf("snapshot %d: %w", s.ID, err)
		}
		return nil
	}
	for i := range entries {
		p, ok, err := r.t.paths.indexFile(ctx, &entries[i])
		if err != nil {
			return err
		}
		if ok {
			out.add(p, FileKindIndexFile)
		}
	}
	return nil
}

// entriesOf adds, as kind as, the files of the entries of kind in the
// manifests of one manifest list of s.
func (r *refReader) entriesOf(ctx context.Context, s *spec.Snapshot, list string, kind spec.FileKind, as FileKind, out refSet, m missing) error {
	metas, err := r.list(ctx, list)
	if err != nil {
		if err := m.tolerate(err); err != nil {
			return fmt.Errorf("snapshot %d: %w", s.ID, err)
		}
		return nil
	}
	for _, meta := range metas {
		entries, err := r.manifest(ctx, meta.FileName)
		if err != nil {
			if err := m.tolerate(err); err != nil {
				return fmt.Errorf("snapshot %d: %w", s.ID, err)
			}
			continue
		}
		for i := range entries {
			if entries[i].Kind == kind {
				if err := r.addEntry(ctx, &entries[i], as, out); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (r *refReader) addEntry(ctx context.Context, e *spec.ManifestEntry, as FileKind, out refSet) error {
	paths, err := r.t.paths.dataFiles(ctx, e)
	if err != nil {
		return err
	}
	for _, p := range paths {
		out.add(p, as)
	}
	return nil
}

// added adds the data files s's delta adds.
func (r *refReader) added(ctx context.Context, s *spec.Snapshot, out refSet, m missing) error {
	return r.entriesOf(ctx, s, s.DeltaManifestList, spec.FileKindAdd, FileKindData, out, m)
}

// removed adds the data files s's delta deletes: the files that stopped
// being live at s.
func (r *refReader) removed(ctx context.Context, s *spec.Snapshot, out refSet, m missing) error {
	return r.entriesOf(ctx, s, s.DeltaManifestList, spec.FileKindDelete, FileKindData, out, m)
}

// changelog adds the changelog files s produced.
func (r *refReader) changelog(ctx context.Context, s *spec.Snapshot, out refSet, m missing) error {
	if s.ChangelogManifestList == nil {
		return nil
	}
	return r.entriesOf(ctx, s, *s.ChangelogManifestList, spec.FileKindAdd, FileKindChangelog, out, m)
}

// live adds the data files live in s. Missing metadata is always an error:
// only protection needs the live set.
func (r *refReader) live(ctx context.Context, s *spec.Snapshot, out refSet) error {
	merger := manifest.NewMerger()
	for _, list := range []string{s.BaseManifestList, s.DeltaManifestList} {
		metas, err := r.list(ctx, list)
		if err != nil {
			return fmt.Errorf("snapshot %d: %w", s.ID, err)
		}
		for _, meta := range metas {
			entries, err := r.manifest(ctx, meta.FileName)
			if err != nil {
				return fmt.Errorf("snapshot %d: %w", s.ID, err)
			}
			if err := merger.Add(entries); err != nil {
				return fmt.Errorf("snapshot %d, manifest %s: %w", s.ID, meta.FileName, err)
			}
		}
	}
	live := merger.Live()
	for i := range live {
		if err := r.addEntry(ctx, &live[i], FileKindData, out); err != nil {
			return err
		}
	}
	return nil
}

// everything adds every file reachable from s: metadata, live data files
// and changelog files. It is what a tag needs, and what a snapshot needs
// when no neighbouring snapshot lets its data files be derived from a
// delta.
func (r *refReader) everything(ctx context.Context, s *spec.Snapshot, out refSet) error {
	if err := r.metadata(ctx, s, out, strict); err != nil {
		return err
	}
	if err := r.live(ctx, s, out); err != nil {
		return err
	}
	return r.changelog(ctx, s, out, strict)
}

// named adds every file any entry of any manifest of s names, ADD or
// DELETE: a superset of what s needs, computed without merging, for the
// long-lived changelogs Java writes, whose lists need not form a live set.
func (r *refReader) named(ctx context.Context, s *spec.Snapshot, out refSet) error {
	if err := r.metadata(ctx, s, out, strict); err != nil {
		return err
	}
	for _, list := range manifestLists(s) {
		for _, kind := range []spec.FileKind{spec.FileKindAdd, spec.FileKindDelete} {
			if err := r.entriesOf(ctx, s, list, kind, FileKindData, out, strict); err != nil {
				return err
			}
		}
	}
	return nil
}
