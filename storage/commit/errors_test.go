package commit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

func TestConflictErrorClass(t *testing.T) {
	retryable, terminal := lakeerr.ErrRetryableConflict, lakeerr.ErrTerminalConflict
	cases := []struct {
		kind       ConflictKind
		commitKind spec.CommitKind
		want       error
	}{
		{BucketCountChanged, spec.CommitKindAppend, terminal},
		{InvalidDelta, spec.CommitKindOverwrite, terminal},
		{FileAddedTwice, spec.CommitKindAppend, terminal},
		{OverwriteTargetChanged, spec.CommitKindOverwrite, retryable},
		{DeletedFileNotLive, spec.CommitKindCompact, terminal},
		{DeletedFileNotLive, spec.CommitKindOverwrite, retryable},
		{DeletedFileNotLive, spec.CommitKindAppend, retryable},
		{KeyRangeOverlap, spec.CommitKindCompact, terminal},
		{KeyRangeOverlap, spec.CommitKindOverwrite, retryable},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s", c.kind, c.commitKind), func(t *testing.T) {
			var err error = &ConflictError{Kind: c.kind, CommitKind: c.commitKind}
			other := retryable
			if c.want == retryable {
				other = terminal
			}
			if !errors.Is(err, c.want) || errors.Is(err, other) {
				t.Fatalf("errors.Is(%v, %v) = false or also matches %v", err, c.want, other)
			}
			wrapped := fmt.Errorf("commit snapshot 6: %w", err)
			var ce *ConflictError
			if !errors.Is(wrapped, c.want) || !errors.As(wrapped, &ce) || ce.Kind != c.kind {
				t.Fatalf("class or kind lost when wrapped: %v", wrapped)
			}
		})
	}
}

func TestConflictErrorMessage(t *testing.T) {
	full := &ConflictError{
		Kind: DeletedFileNotLive, CommitKind: spec.CommitKindCompact,
		CommitUser: "writer-a", CommitIdentifier: 42, Attempt: 2, BaseSnapshotID: 3,
		Conflicting: SnapshotRef{ID: 5, CommitUser: "writer-b", CommitIdentifier: 7, CommitKind: spec.CommitKindCompact},
		Locations:   []Location{{Partition: "dt=2024-01-01", Bucket: 0}, {Bucket: 3}},
		Files:       []string{"data-1.parquet", "data-2.parquet"}, OmittedFiles: 4,
	}
	const want = "terminal commit conflict (deleted file no longer live): " +
		"commit user=writer-a identifier=42 kind=COMPACT attempt=2 read snapshot 3, " +
		"conflicts with snapshot 5 (user=writer-b identifier=7 kind=COMPACT); " +
		"in dt=2024-01-01/bucket-0, bucket-3; files data-1.parquet, data-2.parquet and 4 more"
	if got := full.Error(); got != want {
		t.Fatalf("Error() =\n%s\nwant\n%s", got, want)
	}

	firstCommit := &ConflictError{Kind: BucketCountChanged, CommitKind: spec.CommitKindAppend,
		CommitUser: "writer-a", CommitIdentifier: 1, Attempt: 1, Detail: "total buckets of partition p=1 changed from 2 to 4 without overwrite"}
	const wantFirst = "terminal commit conflict (bucket count changed): " +
		"commit user=writer-a identifier=1 kind=APPEND attempt=1 read no snapshot, conflicts with no snapshot; " +
		"total buckets of partition p=1 changed from 2 to 4 without overwrite"
	if got := firstCommit.Error(); got != wantFirst {
		t.Fatalf("Error() =\n%s\nwant\n%s", got, wantFirst)
	}
}

// TestCheckConflictsReportsTheFacts checks that the facts of the input reach
// the message, and that long file lists are cut.
func TestCheckConflictsReportsTheFacts(t *testing.T) {
	var deletes []spec.ManifestEntry
	for i := range 12 {
		deletes = append(deletes, spec.ManifestEntry{Kind: spec.FileKindDelete, Partition: []byte("p=1"), Bucket: 2,
			File: spec.DataFileMeta{FileName: fmt.Sprintf("f%02d", i)}})
	}
	err := CheckConflicts(ConflictInput{
		CommitKind: spec.CommitKindCompact, CommitUser: "compactor", CommitIdentifier: 11, Attempt: 3,
		BaseSnapshotID: 20, Latest: SnapshotRef{ID: 23, CommitUser: "job-b", CommitIdentifier: 99, CommitKind: spec.CommitKindCompact},
		Delta: deletes, PrimaryKey: true, CompareKeys: bytes.Compare,
		FormatPartition: func(p []byte) string { return string(p) },
	})
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want a *ConflictError", err)
	}
	for _, fact := range []string{"read snapshot 20", "conflicts with snapshot 23", "user=compactor identifier=11",
		"user=job-b identifier=99", "attempt=3", "in p=1/bucket-2", "f00, f01", "f09 and 2 more"} {
		if !strings.Contains(err.Error(), fact) {
			t.Errorf("message lacks %q: %s", fact, err)
		}
	}
	if strings.Contains(err.Error(), "\n") || len(ce.Files) != maxReportedFiles || ce.OmittedFiles != 2 {
		t.Errorf("want one line and %d files plus 2 omitted, got %d plus %d: %s", maxReportedFiles, len(ce.Files), ce.OmittedFiles, err)
	}
}

// TestCheckConflictsRejectsInvalidInput checks that caller bugs are not
// reported as conflicts, which would send them into a retry.
func TestCheckConflictsRejectsInvalidInput(t *testing.T) {
	live := spec.ManifestEntry{Kind: spec.FileKindAdd, File: spec.DataFileMeta{FileName: "f1"}}
	deleted := live
	deleted.Kind = spec.FileKindDelete
	odd := live
	odd.Kind = 7
	cases := []struct {
		name string
		in   ConflictInput
	}{
		{"primary key without comparator", ConflictInput{PrimaryKey: true}},
		{"delete entry among live entries", ConflictInput{Base: []spec.ManifestEntry{live, deleted}}},
		{"unknown delta kind", ConflictInput{Delta: []spec.ManifestEntry{odd}}},
		{"file live twice", ConflictInput{Base: []spec.ManifestEntry{live, live}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckConflicts(c.in)
			var ce *ConflictError
			if err == nil || errors.As(err, &ce) {
				t.Fatalf("got %v, want a non-conflict error", err)
			}
		})
	}
}
