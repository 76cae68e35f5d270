package commit

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// vectorsOf is a deletion-vectors index file holding a vector for each
// data file named.
func vectorsOf(name string, dataFiles ...string) spec.IndexFileMeta {
	meta := spec.IndexFileMeta{IndexType: spec.IndexTypeDeletionVectors, FileName: name, FileSize: 10, RowCount: int64(len(dataFiles))}
	for i, f := range dataFiles {
		meta.DeletionVectorRanges = append(meta.DeletionVectorRanges, spec.DeletionVectorMeta{DataFileName: f, Offset: int32(1 + 10*i), Length: 10})
	}
	return meta
}

// A deletion vector names rows of a data file by position: one whose
// file another commit replaced, or beside another live vector of the
// same file, would delete nothing or hide a concurrent deletion. Both
// fail the commit as a retryable DeletedFileNotLive.
func TestDeletionVectorsMustTargetLiveFilesOnce(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, true)
	h.commitFiles("w", 1, h.appendMsg("2024-01-01", fileSpec{name: "f1", rows: 5, minK: 1, maxK: 5}, fileSpec{name: "f2", rows: 5, minK: 6, maxK: 9}))
	vectors := func(added, deleted []spec.IndexFileMeta) Message {
		return Message{Partition: partition("2024-01-01"), TotalBuckets: h.totalBuckets(), NewIndexFiles: added, DeletedIndexFiles: deleted}
	}
	h.commitFiles("w", 2, vectors([]spec.IndexFileMeta{vectorsOf("index-1", "f1")}, nil))
	c := h.committer(nil)
	for _, tc := range []struct {
		name     string
		msg      Message
		conflict string
	}{
		{"a vector of a file never added", vectors([]spec.IndexFileMeta{vectorsOf("index-2", "f9")}, nil), "[f9]"},
		{"a second vector of f1", vectors([]spec.IndexFileMeta{vectorsOf("index-3", "f1")}, nil), "[index-3]"},
	} {
		_, err := c.Commit(ctx, Request{CommitUser: "deleter", Identifier: 1, Messages: []Message{tc.msg}})
		var ce *ConflictError
		if !errors.As(err, &ce) || ce.Kind != DeletedFileNotLive || fmt.Sprint(ce.Files) != tc.conflict {
			t.Fatalf("%s: %v; want DeletedFileNotLive naming %s", tc.name, err, tc.conflict)
		}
	}
	// Replacing index-1 with vectors of both files is the change a
	// deletion makes.
	h.commitFiles("w", 3, vectors([]spec.IndexFileMeta{vectorsOf("index-4", "f1", "f2")}, []spec.IndexFileMeta{vectorsOf("index-1", "f1")}))
	// A compaction replaced f2 meanwhile: a deletion that read it loses.
	compacted := Message{Partition: partition("2024-01-01"), TotalBuckets: h.totalBuckets(),
		CompactBefore: []spec.DataFileMeta{h.file(fileSpec{name: "f2", rows: 5, minK: 6, maxK: 9})},
		CompactAfter:  []spec.DataFileMeta{h.file(fileSpec{name: "f3", rows: 4, minK: 6, maxK: 9, compacted: true})}}
	h.commitFiles("compactor", 1, compacted)
	_, err := c.Commit(ctx, Request{CommitUser: "deleter", Identifier: 1, Messages: []Message{
		vectors([]spec.IndexFileMeta{vectorsOf("index-5", "f1", "f2")}, []spec.IndexFileMeta{vectorsOf("index-4", "f1", "f2")})}})
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Kind != DeletedFileNotLive || fmt.Sprint(ce.Files) != "[f2]" {
		t.Fatalf("a vector of the compacted f2: %v; want DeletedFileNotLive naming f2", err)
	}
}
