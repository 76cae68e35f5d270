package write

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// accountsTable is acct(dt, id, bal) keyed by (dt, id), partitioned by dt,
// in two fixed buckets.
func accountsTable(t *testing.T, options map[string]string) *testTable {
	opts := map[string]string{"bucket": "2"}
	for k, v := range options {
		opts[k] = v
	}
	return newTestTable(t, catalog.TableDefinition{
		Fields: []spec.DataField{
			field("dt", notNull(stringType)), field("id", notNull(bigintType)), field("bal", bigintType)},
		PartitionKeys: []string{"dt"},
		PrimaryKeys:   []string{"dt", "id"},
		Options:       opts,
	})
}

// TestKeyCheckOnWrittenFiles runs the key-level write-write check over
// data files the writer really wrote: a read-modify-write commit based on
// the seeded snapshot, after a concurrent commit of "theirs".
func TestKeyCheckOnWrittenFiles(t *testing.T) {
	cases := []struct {
		name   string
		theirs []tabletest.Record
		mine   []tabletest.Record
		// conflictKey is the key the conflict must name; "" for none.
		conflictKey string
	}{
		{name: "update against update",
			theirs: []tabletest.Record{tabletest.Update("d1", int64(3), int64(5))}, mine: []tabletest.Record{tabletest.Update("d1", int64(3), int64(1))},
			conflictKey: "'3'"},
		{name: "update against delete",
			theirs: []tabletest.Record{tabletest.Delete("d1", int64(7), int64(0))}, mine: []tabletest.Record{tabletest.Update("d1", int64(7), int64(9))},
			conflictKey: "'7'"},
		{name: "delete against update",
			theirs: []tabletest.Record{tabletest.Update("d1", int64(8), int64(1))}, mine: []tabletest.Record{tabletest.Delete("d1", int64(8), int64(0))},
			conflictKey: "'8'"},
		{name: "one common key among many",
			theirs:      []tabletest.Record{tabletest.Update("d1", int64(1), int64(1)), tabletest.Update("d1", int64(11), int64(1)), tabletest.Update("d1", int64(19), int64(1))},
			mine:        []tabletest.Record{tabletest.Update("d1", int64(2), int64(1)), tabletest.Update("d1", int64(11), int64(2)), tabletest.Update("d1", int64(20), int64(1))},
			conflictKey: "'11'"},
		{name: "other keys of the partition",
			theirs: []tabletest.Record{tabletest.Update("d1", int64(4), int64(1))}, mine: []tabletest.Record{tabletest.Update("d1", int64(5), int64(1))}},
		{name: "same id in another partition",
			theirs: []tabletest.Record{tabletest.Update("d2", int64(3), int64(1))}, mine: []tabletest.Record{tabletest.Update("d1", int64(3), int64(1))}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tt := accountsTable(t, nil)
			base := seedAccounts(tt)
			tt.writeCommit(tt.writer(), c.theirs)
			res, err := tt.commitRMW(c.mine, base)
			checkKeyConflict(t, err, c.conflictKey)
			if c.conflictKey != "" && len(res.Snapshots) != 0 {
				t.Errorf("a conflicting commit published %v", res.Snapshots)
			}
		})
	}
}

// TestKeyCheckIgnoresCompactions: a COMPACT snapshot rewriting the very
// key changes no row, so it does not conflict.
func TestKeyCheckIgnoresCompactions(t *testing.T) {
	tt := accountsTable(t, nil)
	base := seedAccounts(tt)
	var upgrade []commit.Message
	for _, e := range tt.LiveFiles() {
		up := e.File
		up.Level = 1
		upgrade = append(upgrade, commit.Message{Partition: e.Partition, Bucket: e.Bucket, TotalBuckets: e.TotalBuckets,
			CompactBefore: []spec.DataFileMeta{e.File}, CompactAfter: []spec.DataFileMeta{up}})
	}
	tt.commit(upgrade)
	_, err := tt.commitRMW([]tabletest.Record{tabletest.Update("d1", int64(3), int64(1))}, base)
	checkKeyConflict(t, err, "")
}

// TestKeyCheckAcrossSchemaChange: the concurrent commit's file was written
// under a schema with a column more; keys are matched by field id.
func TestKeyCheckAcrossSchemaChange(t *testing.T) {
	tt := accountsTable(t, nil)
	base := seedAccounts(tt)
	cat := catalog.New(tt.FS, "wh", func() time.Time { return testNow })
	if _, err := cat.AlterTable(context.Background(), "db", "t", catalog.AddColumn{Name: "note", Type: stringType}); err != nil {
		t.Fatal(err)
	}
	tt.writeCommit(tt.writer(), []tabletest.Record{tabletest.Update("d1", int64(6), int64(1), "late")})
	_, err := tt.commitRMW([]tabletest.Record{tabletest.Update("d1", int64(6), int64(2), nil)}, base)
	checkKeyConflict(t, err, "'6'")
}

// seedAccounts commits ids 1..20 of partitions d1 and d2 and returns the
// snapshot, which the read-modify-write commits of the tests read.
func seedAccounts(tt *testTable) int64 {
	tt.T.Helper()
	var rows []tabletest.Record
	for _, dt := range []string{"d1", "d2"} {
		for id := int64(1); id <= 20; id++ {
			rows = append(rows, tabletest.Insert(dt, id, int64(100)))
		}
	}
	tt.writeCommit(tt.writer(), rows)
	return tt.LatestID()
}

func (tt *testTable) latestSnapshotID() int64 {
	tt.T.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, tt.FS, tt.Dir)
	if err != nil {
		tt.T.Fatal(err)
	}
	id, _, err := tbl.Snapshots().LatestID(ctx)
	if err != nil {
		tt.T.Fatal(err)
	}
	return id
}

// commitRMW writes records with a new writer and commits them as a
// read-modify-write statement of rmw that read snapshot base.
func (tt *testTable) commitRMW(records []tabletest.Record, base int64) (commit.Result, error) {
	tt.T.Helper()
	w := tt.writer()
	tt.writeAll(w, records)
	return tt.TryCommit("rmw", commit.Request{Messages: tt.prepare(w), KeyCheck: &commit.KeyCheck{BaseSnapshotID: base}})
}

func checkKeyConflict(t *testing.T, err error, key string) {
	t.Helper()
	if key == "" {
		if err != nil {
			t.Fatalf("commit: %v, want no conflict", err)
		}
		return
	}
	var ce *commit.ConflictError
	if !errors.As(err, &ce) || ce.Kind != commit.WriteWriteConflict || !errors.Is(err, lakeerr.ErrRetryableConflict) {
		t.Fatalf("commit: %v, want a retryable write-write conflict", err)
	}
	if !strings.Contains(ce.Detail, "(id) = "+key) {
		t.Errorf("conflict detail %q does not name key %s", ce.Detail, key)
	}
}

// TestKeyCheckFirstCommitterWins commits eight read-modify-write updates
// of one key, all read at the same snapshot, at once: the Committers of
// one process commit them in one group, where each is checked against the
// snapshots planned before it in the batch. Exactly one may land.
func TestKeyCheckFirstCommitterWins(t *testing.T) {
	tt := accountsTable(t, nil)
	base := seedAccounts(tt)
	const writers = 8
	msgs := make([][]commit.Message, writers)
	for i := range msgs {
		w := tt.writer()
		tt.writeAll(w, []tabletest.Record{tabletest.Update("d1", int64(1), int64(100+i+1))})
		msgs[i] = tt.prepare(w)
	}
	results := make(chan error, writers)
	for i := range msgs {
		c := tt.Committer(nil)
		go func() {
			_, err := c.Commit(context.Background(), commit.Request{CommitUser: fmt.Sprintf("session-%d", i), Identifier: 1,
				Messages: msgs[i], KeyCheck: &commit.KeyCheck{BaseSnapshotID: base}})
			results <- err
		}()
	}
	landed := 0
	for range writers {
		err := <-results
		switch {
		case err == nil:
			landed++
		case errors.Is(err, lakeerr.ErrRetryableConflict):
		default:
			t.Errorf("commit: %v", err)
		}
	}
	if landed != 1 {
		t.Fatalf("%d of %d updates of one key landed, want exactly 1", landed, writers)
	}
	if got := tt.LatestID(); got != base+1 {
		t.Errorf("latest snapshot %d, want %d", got, base+1)
	}
}

// TestKeyCheckRetryOfLandedCommit retries a read-modify-write commit whose
// outcome its writer never learned (it landed, but the process died before
// it wrote its receipt) after another writer updated the same key on top
// of it. The retry must report the commit landed: a conflict would make
// the caller re-run a statement that was applied, applying it twice.
func TestKeyCheckRetryOfLandedCommit(t *testing.T) {
	tt := accountsTable(t, nil)
	base := seedAccounts(tt)
	w := tt.writer()
	tt.writeAll(w, []tabletest.Record{tabletest.Update("d1", int64(3), int64(101))})
	req := commit.Request{CommitUser: "rmw", Identifier: 1, Messages: tt.prepare(w),
		KeyCheck: &commit.KeyCheck{BaseSnapshotID: base}}
	first, err := tt.commitRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := tt.FS.Delete(context.Background(), path.Join(tt.Dir, "commit-user", "rmw")); err != nil {
		t.Fatalf("delete the receipt of the landed commit: %v", err)
	}
	tt.writeCommit(tt.writer(), []tabletest.Record{tabletest.Update("d1", int64(3), int64(102))})

	retry, err := tt.commitRequest(req)
	if err != nil {
		t.Fatalf("retry of a landed commit: %v, want it found committed", err)
	}
	if retry.AlreadyCommittedIn != first.Snapshots[0] || len(retry.Snapshots) != 0 {
		t.Errorf("retry: committed in %d, published %v; want found in snapshot %d, nothing published",
			retry.AlreadyCommittedIn, retry.Snapshots, first.Snapshots[0])
	}
}
