package compact

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

func appendDefinition(options map[string]string) catalog.TableDefinition {
	return catalog.TableDefinition{
		Fields:        []spec.DataField{field("p", stringType), field("id", bigintType), field("v", stringType)},
		PartitionKeys: []string{"p"},
		Options:       options,
	}
}

// writeSmallCommits commits n batches of rows into partitions a and b; an
// append table keeps duplicates, so every batch repeats row 0.
func writeSmallCommits(tt *testTable, n int) {
	for c := range n {
		var batch []tabletest.Record
		for i := range 4 {
			batch = append(batch, tabletest.Insert("a", int64(i), fmt.Sprintf("c%d", c)), tabletest.Insert("b", int64(i), "same"))
		}
		tt.writeCommit(batch...)
	}
}

// TestBucketedAppendCompaction merges windows of consecutive small files
// of each bucket, keeping their write order in the sequence numbers.
func TestBucketedAppendCompaction(t *testing.T) {
	tt := newMemTable(t, appendDefinition(map[string]string{"bucket": "2", "bucket-key": "id", "compaction.min.file-num": "3"}))
	writeSmallCommits(tt, 7)
	before := tt.Read()
	filesBefore := len(tt.LiveFiles())
	if filesBefore != 28 {
		t.Fatalf("%d files before compaction, want 7 commits x 2 partitions x 2 buckets", filesBefore)
	}

	res := tt.compact(Minor)
	assertRows(t, "after minor compaction", tt.Read(), before)
	// Each of the 4 buckets has 7 files: two windows of 3 become 2 files,
	// the seventh stays.
	if res.Buckets != 4 || res.FilesRewritten != 24 || res.FilesWritten != 8 {
		t.Fatalf("minor compaction: %+v, want 4 buckets with 24 files rewritten into 8", res)
	}
	entries := tt.LiveFiles()
	if len(entries) != 12 {
		t.Fatalf("%d files after minor compaction, want 12", len(entries))
	}
	for _, e := range entries {
		f := e.File
		if f.Level != 0 || e.TotalBuckets != 2 {
			t.Errorf("%s: level %d, total buckets %d", f.FileName, f.Level, e.TotalBuckets)
		}
		if f.FileSource != nil && *f.FileSource == spec.FileSourceCompact && f.MaxSequenceNumber-f.MinSequenceNumber+1 != f.RowCount {
			t.Errorf("%s: sequence numbers %d..%d for %d rows", f.FileName, f.MinSequenceNumber, f.MaxSequenceNumber, f.RowCount)
		}
	}

	res = tt.compact(Full)
	assertRows(t, "after full compaction", tt.Read(), before)
	if got := len(tt.LiveFiles()); got != 4 || res.FilesRewritten != 12 {
		t.Fatalf("full compaction: %+v, %d files left, want one per bucket", res, got)
	}
	if snap := tt.Latest(); snap.CommitKind != spec.CommitKindCompact || snap.TotalRecordCount == nil || *snap.TotalRecordCount != int64(len(before)) {
		t.Fatalf("latest snapshot %s with %v records, want COMPACT with %d", snap.CommitKind, snap.TotalRecordCount, len(before))
	}
	assertNoOrphans(t, tt)
}

// TestUnawareAppendCompaction packs the small files of each partition of a
// bucket-unaware table, and compacts only the selected partitions.
func TestUnawareAppendCompaction(t *testing.T) {
	tt := newMemTable(t, appendDefinition(map[string]string{"bucket": "-1"}))
	writeSmallCommits(tt, 6)
	before := tt.Read()

	opts := tt.options(Minor)
	opts.Partitions = []map[string]string{{"p": "a"}}
	res, err := Table(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	assertRows(t, "after compacting partition a", tt.Read(), before)
	if res.FilesRewritten != 6 || res.FilesWritten != 1 {
		t.Fatalf("compaction of partition a: %+v, want its 6 files merged into 1", res)
	}
	perPartition := map[string]int{}
	for _, e := range tt.LiveFiles() {
		perPartition[fmt.Sprintf("%x", e.Partition)]++
	}
	if len(perPartition) != 2 {
		t.Fatalf("files per partition: %v", perPartition)
	}
	counts := []int{}
	for _, n := range perPartition {
		counts = append(counts, n)
	}
	if !(counts[0] == 1 && counts[1] == 6 || counts[0] == 6 && counts[1] == 1) {
		t.Fatalf("files per partition %v, want partition a merged and b untouched", perPartition)
	}

	tt.compact(Full)
	assertRows(t, "after full compaction", tt.Read(), before)
	if n := len(tt.LiveFiles()); n != 2 {
		t.Fatalf("%d files after full compaction, want one per partition", n)
	}
}

// TestPartitionFilterErrors checks that a filter naming no partition key
// or a value of the wrong type is refused before anything is rewritten.
func TestPartitionFilterErrors(t *testing.T) {
	tt := newMemTable(t, appendDefinition(map[string]string{"bucket": "-1"}))
	writeSmallCommits(tt, 2)
	for _, spec := range []string{"q=1", "p"} {
		parsed, err := ParsePartitions(spec)
		if err == nil {
			opts := tt.options(Full)
			opts.Partitions = parsed
			_, err = Table(context.Background(), opts)
		}
		if err == nil {
			t.Errorf("partition filter %q accepted", spec)
		}
	}
	if got, err := ParsePartitions("p=a,q=1;p=b"); err != nil || len(got) != 2 || got[0]["q"] != "1" || got[1]["p"] != "b" {
		t.Errorf("ParsePartitions: %v, %v", got, err)
	}
}

// TestProgressLog checks that a compaction logs files and bytes read out of
// the total: spaced by the interval, and always at the end.
func TestProgressLog(t *testing.T) {
	for _, c := range []struct {
		name     string
		tick     time.Duration
		messages int
	}{
		{"clock stands still: only the last file logs", 0, 2},
		{"every file is an interval later", time.Second, 7},
	} {
		t.Run(c.name, func(t *testing.T) {
			tt := newMemTable(t, appendDefinition(map[string]string{"bucket": "-1"}))
			writeSmallCommits(tt, 3)
			var mu sync.Mutex
			var logs []string
			clock := testNow
			opts := tt.options(Full)
			opts.ProgressInterval = time.Second
			opts.Now = func() time.Time {
				mu.Lock()
				defer mu.Unlock()
				clock = clock.Add(c.tick)
				return clock
			}
			opts.Logf = func(format string, args ...any) {
				mu.Lock()
				defer mu.Unlock()
				logs = append(logs, fmt.Sprintf(format, args...))
			}
			res, err := Table(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(logs) != c.messages {
				t.Fatalf("%d messages, want %d (the plan and the progress): %q", len(logs), c.messages, logs)
			}
			if plan := fmt.Sprintf("2 buckets: 6 files (%d bytes) to rewrite, 0 to upgrade", res.BytesRead); !strings.HasSuffix(logs[0], plan) {
				t.Fatalf("first message %q, want it to end with %q", logs[0], plan)
			}
			want := fmt.Sprintf("read 6/6 files, %d/%d bytes", res.BytesRead, res.BytesRead)
			if last := logs[len(logs)-1]; !strings.HasSuffix(last, want) {
				t.Fatalf("last message %q, want it to end with %q", last, want)
			}
		})
	}
}

// A partition spec names a DATE in its string form, as Java's procedures
// take it, also where partition.legacy-name (the default) names the
// directories by epoch day; the epoch day is accepted too.
func TestPartitionFilterReadsDatesInTheirStringForm(t *testing.T) {
	date := spec.DataType{Root: spec.Date}
	s := &spec.TableSchema{Fields: []spec.DataField{{ID: 0, Name: "dt", Type: date}}, PartitionKeys: []string{"dt"}, Options: map[string]string{}}
	leap, err := spec.SerializeBinaryRow([]spec.DataType{date}, []any{spec.DateValue(19782)})
	if err != nil {
		t.Fatal(err)
	}
	for _, value := range []string{"2024-02-29", "19782"} {
		f, err := newPartitionFilter(s, []map[string]string{{"dt": value}})
		if err != nil {
			t.Fatalf("dt=%s: %v", value, err)
		}
		if ok, err := f.matches(leap); err != nil || !ok {
			t.Errorf("dt=%s does not select the partition of 2024-02-29: %v, %v", value, ok, err)
		}
	}
}

// A partition spec takes the values users type for DATE, TIMESTAMP, INT
// and STRING keys under both partition.legacy-name settings, and a value
// the key's type cannot hold is the caller's error (ErrInvalidPartition),
// never corruption.
func TestPartitionFilterValues(t *testing.T) {
	at := time.Date(2026, 4, 10, 10, 0, 0, 0, time.UTC)
	keys := []struct {
		typ    spec.DataType
		stored any
		good   []string
		bad    string
	}{
		{spec.DataType{Root: spec.Date}, spec.DateValue(20553), []string{"2026-04-10"}, "2026-13-01"},
		{spec.DataType{Root: spec.Timestamp, Precision: 6}, spec.TimestampFromTime(at), []string{"2026-04-10 10:00:00", "2026-04-10 10:00:00.000"}, "garbage"},
		{spec.DataType{Root: spec.Int}, int32(7), []string{"7"}, "x"},
		{spec.DataType{Root: spec.VarChar, Length: 10}, "eu-west", []string{"eu-west"}, ""},
	}
	for _, legacy := range []string{"true", "false"} {
		for _, k := range keys {
			s := &spec.TableSchema{Fields: []spec.DataField{{ID: 0, Name: "p", Type: k.typ}}, PartitionKeys: []string{"p"},
				Options: map[string]string{"partition.legacy-name": legacy}}
			row, err := spec.SerializeBinaryRow([]spec.DataType{k.typ}, []any{k.stored})
			if err != nil {
				t.Fatal(err)
			}
			for _, value := range k.good {
				f, err := newPartitionFilter(s, []map[string]string{{"p": value}})
				if err != nil {
					t.Errorf("legacy-name=%s, %s p=%s: %v", legacy, k.typ, value, err)
					continue
				}
				if ok, err := f.matches(row); err != nil || !ok {
					t.Errorf("legacy-name=%s, %s p=%s does not select its partition: %v, %v", legacy, k.typ, value, ok, err)
				}
			}
			if k.bad == "" {
				continue
			}
			_, err = newPartitionFilter(s, []map[string]string{{"p": k.bad}})
			if !errors.Is(err, ErrInvalidPartition) || errors.Is(err, lakeerr.ErrCorruption) {
				t.Errorf("legacy-name=%s, %s p=%s: %v, want ErrInvalidPartition and not corruption", legacy, k.typ, k.bad, err)
			}
		}
	}
}
