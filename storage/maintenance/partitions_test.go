package maintenance

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// dailyPartitions is a table with five daily partitions, two rows each,
// committed one partition per snapshot.
func dailyPartitions(t *testing.T) *fixture {
	f := newFixture(t, pkTable)
	for day := 1; day <= 5; day++ {
		dt := "2024010" + string(rune('0'+day))
		f.insert("w", row(dt, 1, "a"), row(dt, 2, "b"))
	}
	return f
}

func expirePartitionsAt(f *fixture, opts PartitionExpireOptions) (PartitionExpireResult, error) {
	opts.Now = func() time.Time { return time.Date(2024, 1, 5, 12, 0, 0, 0, time.UTC) }
	opts.NewUUID = f.NewUUID
	return ExpirePartitions(context.Background(), f.FS, f.Dir, opts)
}

func partitionsRead(t *testing.T, f *fixture, tt snapshot.TimeTravel) []string {
	t.Helper()
	rows, err := readAt(f.FS, f.Dir, tt)
	if err != nil {
		t.Fatal(err)
	}
	var dts []string
	for _, r := range rows {
		dt, _, _ := strings.Cut(r, " ")
		if !slices.Contains(dts, dt) {
			dts = append(dts, dt)
		}
	}
	return dts
}

func TestExpirePartitions(t *testing.T) {
	ctx := context.Background()
	f := dailyPartitions(t)
	// Now is 2024-01-05 12:00: two days earlier is 2024-01-03 12:00, after
	// the 3rd's midnight.
	res, err := expirePartitionsAt(f, PartitionExpireOptions{ExpirationTime: 48 * time.Hour, TimestampFormatter: "yyyyMMdd"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Partitions, []string{"dt=20240101", "dt=20240102", "dt=20240103"}) || res.SnapshotID != 6 {
		t.Fatalf("dropped %v in snapshot %d; want the 1st to the 3rd in snapshot 6", res.Partitions, res.SnapshotID)
	}
	s, err := snapshot.NewManager(f.FS, f.Dir, "").Snapshot(ctx, 6)
	if err != nil || s.CommitKind != spec.CommitKindOverwrite {
		t.Fatalf("snapshot 6: %+v, %v; want an OVERWRITE", s, err)
	}
	if got := partitionsRead(t, f, snapshot.TimeTravel{}); !slices.Equal(got, []string{"20240104", "20240105"}) {
		t.Fatalf("latest holds partitions %v", got)
	}
	if got := partitionsRead(t, f, snapshot.TimeTravel{SnapshotID: 5}); len(got) != 5 {
		t.Fatalf("snapshot 5 holds partitions %v, want all five", got)
	}
	again, err := expirePartitionsAt(f, PartitionExpireOptions{ExpirationTime: 48 * time.Hour, TimestampFormatter: "yyyyMMdd"})
	if err != nil || len(again.Partitions) != 0 || again.SnapshotID != 0 {
		t.Fatalf("second run: %+v, %v; want nothing to do", again, err)
	}
}

func TestExpirePartitionsMaxExpires(t *testing.T) {
	f := dailyPartitions(t)
	res, err := expirePartitionsAt(f, PartitionExpireOptions{ExpirationTime: time.Hour, TimestampFormatter: "yyyyMMdd", MaxExpires: 2})
	if err != nil || !slices.Equal(res.Partitions, []string{"dt=20240101", "dt=20240102"}) {
		t.Fatalf("dropped %v, %v; want the two oldest", res.Partitions, err)
	}
}

func TestExpirePartitionsArguments(t *testing.T) {
	f := dailyPartitions(t)
	if _, err := expirePartitionsAt(f, PartitionExpireOptions{TimestampFormatter: "yyyyMMdd"}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("no expiration time: %v", err)
	}
	if _, err := expirePartitionsAt(f, PartitionExpireOptions{ExpirationTime: time.Hour, TimestampFormatter: "yyyyMM"}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("formatter without a day: %v", err)
	}
	flat := newFixture(t, catalog.TableDefinition{Fields: []spec.DataField{{Name: "id", Type: bigintType}}})
	if _, err := expirePartitionsAt(flat, PartitionExpireOptions{ExpirationTime: time.Hour}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("unpartitioned table: %v", err)
	}
}

// TestExpirePartitionsVersusCompaction: a compaction of an expiring
// partition commits at every point of the drop. The drop must re-plan
// when it conflicts and, in the end, leave only the recent partitions.
func TestExpirePartitionsVersusCompaction(t *testing.T) {
	base := dailyPartitions(t)
	target := base.liveIn("20240101")[0]
	upgraded := target.File
	upgraded.Level = 5
	compaction := commit.Request{Messages: []commit.Message{{Partition: target.Partition, Bucket: target.Bucket,
		TotalBuckets: target.TotalBuckets, CompactBefore: []spec.DataFileMeta{target.File}, CompactAfter: []spec.DataFileMeta{upgraded}}}}
	for k := 0; ; k++ {
		f := base.clone(base.mem.CrashClone())
		h := &hookFS{FileIO: f.FS, at: k, hook: func() {
			// The compaction loses if the drop landed first; either order
			// is a valid history.
			req := compaction
			req.CommitUser, req.Identifier = "compactor", 1
			_, _ = f.Committer(f.FS).Commit(context.Background(), req)
		}}
		opts := PartitionExpireOptions{ExpirationTime: 48 * time.Hour, TimestampFormatter: "yyyyMMdd",
			Now: func() time.Time { return time.Date(2024, 1, 5, 12, 0, 0, 0, time.UTC) }, NewUUID: f.NewUUID}
		_, err := ExpirePartitions(context.Background(), h, f.Dir, opts)
		if !h.fired {
			return
		}
		if err != nil {
			t.Fatalf("point %d: %v", k, err)
		}
		if got := partitionsRead(t, f, snapshot.TimeTravel{}); !slices.Equal(got, []string{"20240104", "20240105"}) {
			t.Fatalf("point %d: latest holds partitions %v", k, got)
		}
	}
}

// Expiring a partition of Java's row-tracking table keeps the table's
// next row id (8 after its 8 rows): without it Java would number its next
// rows from 0, over the rows of the partitions left.
func TestExpirePartitionsKeepsTheNextRowID(t *testing.T) {
	ctx := context.Background()
	const name = "append_with_global_index_with_partition"
	dir := filepath.Join(fixtures.Copy(t, filepath.Join(fixtures.Root(), "paimon-java", name+".db")), name)
	// Partition f1 = 10 reads as 0010-01-01, which has long expired (so
	// does 20); one partition expires per run.
	res, err := ExpirePartitions(ctx, localio.New(), dir, PartitionExpireOptions{
		ExpirationTime: time.Hour, TimestampPattern: "00$f1-01-01", TimestampFormatter: "yyyy-MM-dd", MaxExpires: 1})
	if err != nil || len(res.Partitions) != 1 {
		t.Fatalf("expired %+v, %v; want one partition", res, err)
	}
	s, err := snapshot.NewManager(localio.New(), dir, "").Snapshot(ctx, res.SnapshotID)
	if err != nil {
		t.Fatal(err)
	}
	if s.NextRowID == nil || *s.NextRowID != 8 {
		t.Fatalf("next row id %v after the expiry, want 8", s.NextRowID)
	}
}
