package commit

import (
	"context"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// tableView is what a reader reopening the table sees.
type tableView struct {
	latest *spec.Snapshot
	// live names the live data files of the latest snapshot, sorted.
	live []string
	// referenced holds every file some snapshot references.
	referenced map[string]bool
}

// inspect reopens the table on fsys as a reader would, and fails the test
// unless every snapshot is complete: each file it references (manifest
// lists, manifests, index manifest, data files) exists and decodes.
func inspect(t testing.TB, fsys fileio.FileIO) tableView {
	t.Helper()
	ctx := context.Background()
	snaps := snapshot.NewManager(fsys, tableDir, "")
	reader := manifest.NewReader(fsys, tableDir)
	ids, err := snaps.IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	view := tableView{referenced: map[string]bool{}}
	for _, id := range ids {
		s, err := snaps.Snapshot(ctx, id)
		if err != nil {
			t.Fatalf("snapshot %d: %v", id, err)
		}
		view.referenced[snaps.SnapshotPath(id)] = true
		referenceSnapshot(t, reader, s, view.referenced)
		view.latest = s
	}
	for p := range view.referenced {
		if ok, err := fileio.Exists(ctx, fsys, p); err != nil || !ok {
			t.Errorf("referenced file %s is missing (err %v)", p, err)
		}
	}
	if view.latest != nil {
		live, err := reader.LiveEntries(ctx, view.latest)
		if err != nil {
			t.Fatalf("live entries of snapshot %d: %v", view.latest.ID, err)
		}
		for _, e := range live {
			view.live = append(view.live, e.File.FileName)
		}
		slices.Sort(view.live)
	}
	return view
}

func referenceSnapshot(t testing.TB, reader *manifest.Reader, s *spec.Snapshot, refs map[string]bool) {
	t.Helper()
	ctx := context.Background()
	lists := []string{s.BaseManifestList, s.DeltaManifestList}
	if s.ChangelogManifestList != nil {
		lists = append(lists, *s.ChangelogManifestList)
	}
	for _, list := range lists {
		refs[reader.Path(list)] = true
		metas, err := reader.ManifestList(ctx, list)
		if err != nil {
			t.Fatalf("snapshot %d: %v", s.ID, err)
		}
		for _, meta := range metas {
			refs[reader.Path(meta.FileName)] = true
			entries, err := reader.Entries(ctx, meta.FileName)
			if err != nil {
				t.Fatalf("snapshot %d: %v", s.ID, err)
			}
			for _, e := range entries {
				refs[dataPath(dtOf(e.Partition), e.Bucket, e.File.FileName)] = true
			}
		}
	}
	if s.IndexManifest != nil {
		refs[reader.Path(*s.IndexManifest)] = true
		if _, err := reader.IndexEntries(ctx, *s.IndexManifest); err != nil {
			t.Fatalf("snapshot %d: %v", s.ID, err)
		}
	}
}

// leftovers returns the files of the table no snapshot references, other
// than schemas, hints and receipts: what orphan cleanup may delete.
func leftovers(mem *memio.FS, view tableView) []string {
	var out []string
	for _, p := range mem.Files() {
		rel := strings.TrimPrefix(p, tableDir+"/")
		switch {
		case view.referenced[p], strings.HasPrefix(rel, "schema/"), strings.HasPrefix(rel, "commit-user/"),
			rel == "snapshot/LATEST":
			continue
		}
		out = append(out, rel)
	}
	return out
}

// manifestFiles lists the file names in the manifest directory.
func manifestFiles(mem *memio.FS) []string {
	var out []string
	for _, p := range mem.Files() {
		if strings.HasPrefix(p, tableDir+"/manifest/") {
			out = append(out, path.Base(p))
		}
	}
	return out
}
