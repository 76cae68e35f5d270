package sysprocs

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql/planner/sqltypes"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/maintenance"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
)

// TestArgumentCounts: each procedure accepts exactly the argument counts
// the package documentation gives it.
func TestArgumentCounts(t *testing.T) {
	p := New(Options{})
	ctx := newContext("", nil)
	for name, want := range map[string][]int{
		"compact":             {1, 2, 3, 4},
		"expire_snapshots":    {1, 2, 3, 4, 5},
		"create_tag":          {2, 3, 4},
		"delete_tag":          {2},
		"expire_tags":         {1, 2},
		"rollback_to":         {2},
		"remove_orphan_files": {1, 2, 3},
		"expire_partitions":   {3, 4},
		"wait_watermark":      {2, 3},
	} {
		found, err := p.ExternalStoredProcedures(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, d := range found {
			got = append(got, paramCount(d))
			if d.ReadOnly != (name == "wait_watermark") {
				t.Errorf("%s: ReadOnly %t", name, d.ReadOnly)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s takes %v arguments, want %v", name, got, want)
		}
	}
}

// TestWrongArgumentCount: a call with an argument count no variant takes
// is MySQL's 1318, naming the counts the procedure takes; -1 (GRANT's
// lookup) finds the procedure whatever its counts.
func TestWrongArgumentCount(t *testing.T) {
	p := New(Options{})
	ctx := newContext("", nil)
	for _, tc := range []struct {
		name string
		args int
		want string
	}{
		{"compact", 0, "Incorrect number of arguments for PROCEDURE sys.compact; expected 1 to 4, got 0"},
		{"compact", 5, "Incorrect number of arguments for PROCEDURE sys.compact; expected 1 to 4, got 5"},
		{"expire_partitions", 2, "Incorrect number of arguments for PROCEDURE sys.expire_partitions; expected 3 to 4, got 2"},
		{"delete_tag", 1, "Incorrect number of arguments for PROCEDURE sys.delete_tag; expected 2, got 1"},
		{"rollback_to", 3, "Incorrect number of arguments for PROCEDURE sys.rollback_to; expected 2, got 3"},
	} {
		d, err := p.ExternalStoredProcedure(ctx, tc.name, tc.args)
		var se *mysql.SQLError
		if d != nil || !errors.As(err, &se) || se.Num != erSPWrongNoOfArgs || se.State != mysql.SSClientError || se.Message != tc.want {
			t.Errorf("%s with %d arguments: %v, %v; want 1318 (42000) %q", tc.name, tc.args, d, err, tc.want)
		}
	}
	for name, counts := range map[string][]int{"compact": {1, 2, 3, 4}, "delete_tag": {2}} {
		for _, n := range counts {
			if d, err := p.ExternalStoredProcedure(ctx, name, n); err != nil || d == nil || paramCount(*d) != n {
				t.Errorf("%s with %d arguments: %v, %v; want its %d-argument variant", name, n, d, err, n)
			}
		}
		if d, err := p.ExternalStoredProcedure(ctx, name, -1); err != nil || d == nil || paramCount(*d) != slices.Max(counts) {
			t.Errorf("%s with any count (-1): %v, %v; want its longest variant", name, d, err)
		}
	}
	if d, err := p.ExternalStoredProcedure(ctx, "nosuch", 1); d != nil || err != nil {
		t.Errorf("nosuch: %v, %v; want nothing, for the database to answer", d, err)
	}
}

func TestCompact(t *testing.T) {
	f := newFixture(t)
	for i := int64(1); i <= 3; i++ {
		f.insert(nil, row("2026-04-16", i, "a"), row("2026-04-16", 10, fmt.Sprint("v", i)))
	}
	f.insert(nil, row("2026-04-17", 1, "b"))
	before := f.mustRead(snapshot.TimeTravel{})
	ctx := newContext("db", nil)

	rows := f.mustCall(ctx, "compact", "db.orders", "dt=2026-04-17", "minor")
	if rows[0][1] != nil {
		t.Errorf("minor compaction of a one-file partition: %v, want no snapshot", rows)
	}
	rows = f.mustCall(ctx, "compact", "`db`.`ORDERS`")
	r := rows[0]
	if r[0] != "db.orders" || r[1] != int64(5) || r[2].(int64)+r[3].(int64) != 4 || r[7] != int64(1) {
		t.Errorf("full compaction: %v, want db.orders, snapshot 5, 4 files rewritten or upgraded, 1 attempt", r)
	}
	latest, err := f.snapshots().Latest(ctx)
	if err != nil || latest.CommitKind != spec.CommitKindCompact {
		t.Fatalf("latest snapshot %+v, %v; want a COMPACT snapshot", latest, err)
	}
	if n := f.liveFileCount(); n != 2 {
		t.Errorf("%d live files after full compaction, want one per partition", n)
	}
	if after := f.mustRead(snapshot.TimeTravel{}); !slices.Equal(after, before) {
		t.Errorf("rows after compaction %v, before %v", after, before)
	}
	if rows := f.mustCall(ctx, "compact", "orders", "", "full"); rows[0][1] != nil {
		t.Errorf("compacting a compacted table: %v, want no snapshot", rows)
	}
	// Forced, for this call only, a full compaction rewrites every file
	// (to backfill file indexes); the table's options stay as they were.
	rows = f.mustCall(ctx, "compact", "orders", "", "full", "compaction.force-rewrite-all-files = true")
	if rows[0][1] == nil || rows[0][2] != int64(2) {
		t.Errorf("a forced full compaction of two files: %v, want a snapshot rewriting both", rows)
	}
	if rows := f.mustCall(ctx, "compact", "orders", "", "full"); rows[0][1] != nil {
		t.Errorf("compacting again without the option: %v, want no snapshot", rows)
	}
	_, err = f.call(ctx, "compact", "db.orders", "", "full", "bucket=4")
	wantError(t, err, mysql.ERWrongArguments, "bucket is not a compaction option")
	_, err = f.call(ctx, "compact", "db.orders", "", "full", "compaction.force-rewrite-all-files")
	wantError(t, err, mysql.ERWrongArguments, "is not key=value")

	_, err = f.call(ctx, "compact", "db.orders", "region=eu")
	wantError(t, err, mysql.ERWrongArguments, "region is not a partition key", "[dt]")
	_, err = f.call(ctx, "compact", "db.orders", "dt")
	wantError(t, err, mysql.ERWrongArguments, "partitions")
	_, err = f.call(ctx, "compact", "db.orders", "", "major")
	wantError(t, err, mysql.ERWrongArguments, "'full' or 'minor'")
}

func TestExpireSnapshots(t *testing.T) {
	f := newFixture(t)
	for i := int64(1); i <= 3; i++ {
		f.insert(nil, row("2026-04-16", i, "a"))
	}
	ctx := newContext("db", nil)
	compacted := f.mustCall(ctx, "compact", "db.orders")[0]
	f.insert(nil, row("2026-04-16", 4, "b"))
	at4, at5 := f.mustRead(snapshot.TimeTravel{SnapshotID: 4}), f.mustRead(snapshot.TimeTravel{})

	// NULLs (zeros) take the table's retention: ten snapshots at least.
	rows := f.mustCall(ctx, "expire_snapshots", "db.orders", int64(0), int64(0), "", int64(0))
	if rows[0][1] != int64(0) {
		t.Errorf("expiry with the defaults: %v, want nothing expired", rows)
	}

	rows = f.mustCall(ctx, "expire_snapshots", "db.orders", int64(2), int64(1))
	r := rows[0]
	if r[0] != "db.orders" || r[1] != int64(3) {
		t.Errorf("expire retain_max 2: %v, want 3 snapshots expired", r)
	}
	if got, want := r[2], compacted[2]; got != want {
		t.Errorf("%v data files deleted, want the %v the compaction rewrote", got, want)
	}
	if r[7] != int64(6) {
		t.Errorf("%v manifest lists deleted, want the base and delta lists of the 3 expired snapshots", r[7])
	}
	if got := f.mustRead(snapshot.TimeTravel{SnapshotID: 4}); !slices.Equal(got, at4) {
		t.Errorf("snapshot 4 after expiry reads %v, want %v", got, at4)
	}
	if got := f.mustRead(snapshot.TimeTravel{}); !slices.Equal(got, at5) {
		t.Errorf("latest after expiry reads %v, want %v", got, at5)
	}
	if _, err := f.read(snapshot.TimeTravel{SnapshotID: 3}); err == nil {
		t.Error("expired snapshot 3 is still readable")
	}

	_, err := f.call(ctx, "expire_snapshots", "db.orders", int64(1), int64(-1))
	wantError(t, err, mysql.ERWrongArguments, "retain_min -1")
	_, err = f.call(ctx, "expire_snapshots", "db.orders", int64(1), int64(2))
	wantError(t, err, mysql.ERWrongArguments, "retain_max 1 is less than retain_min 2")
}

// TestExpireSnapshotsOlderThan: with the counts left to the table, an age
// decides which snapshots go. Commits are one minute apart, the last one
// now, so 90 s ago lies between the second and the third.
func TestExpireSnapshotsOlderThan(t *testing.T) {
	f := newFixture(t)
	for i := int64(1); i <= 4; i++ {
		f.insert(nil, row("2026-04-16", i, "a"))
	}
	ctx := newContext("db", nil)
	rows := f.mustCall(ctx, "expire_snapshots", "db.orders", int64(0), int64(1), "90 s")
	if rows[0][1] != int64(2) {
		t.Errorf("older than 90 s: %v, want snapshots 1 and 2 expired", rows)
	}
	if id, _, err := f.snapshots().EarliestID(ctx); err != nil || id != 3 {
		t.Errorf("earliest %d, %v; want 3", id, err)
	}
}

func TestTags(t *testing.T) {
	f := newFixture(t)
	f.insert(nil, row("2026-04-16", 1, "a"))
	f.insert(nil, row("2026-04-16", 1, "b"), row("2026-04-16", 2, "c"))
	ctx := newContext("db", nil)
	at1 := f.mustRead(snapshot.TimeTravel{SnapshotID: 1})

	rows := f.mustCall(ctx, "create_tag", "db.orders", "first", int64(1))
	if want := (sql.Row{"db.orders", "first", int64(1)}); !slices.Equal(rows[0], want) {
		t.Errorf("create_tag: %v, want %v", rows[0], want)
	}
	rows = f.mustCall(ctx, "create_tag", "db.orders", "daily", int64(0), "1 h")
	if rows[0][2] != int64(2) {
		t.Errorf("create_tag without a snapshot: %v, want the latest, 2", rows)
	}
	f.mustCall(ctx, "expire_snapshots", "db.orders", int64(1), int64(1))
	if got := f.mustRead(snapshot.TimeTravel{Tag: "first"}); !slices.Equal(got, at1) {
		t.Errorf("tag first after its snapshot expired reads %v, want %v", got, at1)
	}

	_, err := f.call(ctx, "create_tag", "db.orders", "first")
	wantError(t, err, mysql.ERDupEntry, "first", "already exists")
	_, err = f.call(ctx, "create_tag", "db.orders", "x", int64(9))
	wantError(t, err, mysql.ERWrongArguments, "9")
	_, err = f.call(ctx, "create_tag", "db.orders", "x", int64(-1))
	wantError(t, err, mysql.ERWrongArguments, "snapshot_id -1")
	_, err = f.call(ctx, "create_tag", "db.orders", " ")
	wantError(t, err, mysql.ERWrongArguments, "blank")
	// A number names a snapshot to rollback_to and AS OF, never a tag.
	for _, numeric := range []string{"5", "007", " 12 ", "-1", "+3"} {
		_, err = f.call(ctx, "create_tag", "db.orders", numeric)
		wantError(t, err, mysql.ERWrongArguments, fmt.Sprintf("sys.create_tag: tag name %q is a number", numeric), "snapshot id")
	}
	if tags, err := f.snapshots().TagNames(ctx); err != nil || !slices.Equal(tags, []string{"daily", "first"}) {
		t.Errorf("tags after refused names: %v, %v; want daily and first only", tags, err)
	}
	_, err = f.call(ctx, "create_tag", "db.orders", "x", int64(0), "soon")
	wantError(t, err, mysql.ERWrongArguments, "time_retained")

	rows = f.mustCall(ctx, "delete_tag", "db.orders", "first")
	if r := rows[0]; r[0] != "db.orders" || r[1] != "first" || r[2] != int64(1) || r[3].(int64) == 0 {
		t.Errorf("delete_tag of an expired snapshot's tag: %v, want snapshot 1 and the files only it held", r)
	}
	if _, err := f.read(snapshot.TimeTravel{Tag: "first"}); err == nil {
		t.Error("deleted tag is still readable")
	}
	_, err = f.call(ctx, "delete_tag", "db.orders", "first")
	wantError(t, err, mysql.ERWrongArguments, "first")

	if rows := f.mustCall(ctx, "expire_tags", "db.orders"); len(rows) != 1 || rows[0][1] != nil {
		t.Errorf("expire_tags within the retention time: %v, want only the summary", rows)
	}
	f.clock.Advance(2 * time.Hour)
	rows = f.mustCall(ctx, "expire_tags", "db.orders")
	if len(rows) != 2 || rows[0][1] != "daily" || rows[1][1] != nil {
		t.Errorf("expire_tags after the retention time: %v, want daily then the summary", rows)
	}
	if names, err := f.snapshots().TagNames(ctx); err != nil || len(names) != 0 {
		t.Errorf("tags left: %v, %v", names, err)
	}
}

func TestRollbackTo(t *testing.T) {
	f := newFixture(t)
	for i := int64(1); i <= 3; i++ {
		f.insert(nil, row("2026-04-16", i, "a"))
	}
	ctx := newContext("db", nil)
	at2 := f.mustRead(snapshot.TimeTravel{SnapshotID: 2})
	f.mustCall(ctx, "create_tag", "db.orders", "v2", int64(2))
	f.mustCall(ctx, "create_tag", "db.orders", "v3", int64(3))

	rows := f.mustCall(ctx, "rollback_to", "db.orders", "2")
	if want := (sql.Row{"db.orders", int64(2), int64(1), "v3", int8(0)}); !slices.Equal(rows[0], want) {
		t.Errorf("rollback_to 2: %v, want %v", rows[0], want)
	}
	if got := f.mustRead(snapshot.TimeTravel{}); !slices.Equal(got, at2) {
		t.Errorf("latest after rollback reads %v, want %v", got, at2)
	}
	f.insert(nil, row("2026-04-16", 9, "z"))
	rows = f.mustCall(ctx, "rollback_to", "db.orders", "v2")
	if rows[0][1] != int64(2) || rows[0][2] != int64(1) {
		t.Errorf("rollback_to tag v2: %v, want snapshot 2 with 1 snapshot deleted", rows)
	}
	if got := f.mustRead(snapshot.TimeTravel{}); !slices.Equal(got, at2) {
		t.Errorf("latest after rollback to the tag reads %v, want %v", got, at2)
	}

	_, err := f.call(ctx, "rollback_to", "db.orders", "7")
	wantError(t, err, mysql.ERWrongArguments, "sys.rollback_to", "7")
	_, err = f.call(ctx, "rollback_to", "db.orders", "nosuch")
	wantError(t, err, mysql.ERWrongArguments, "nosuch", "not found")
}

func TestRemoveOrphanFiles(t *testing.T) {
	f := newFixture(t)
	f.insert(nil, row("2026-04-16", 1, "a"))
	want := f.mustRead(snapshot.TimeTravel{})
	ctx := newContext("db", nil)
	orphan := path.Join(f.Dir, "dt=2026-04-16", "bucket-0", "data-orphan-0.parquet")
	if err := f.fs.PutIfAbsent(ctx, orphan, []byte("left by a crashed writer")); err != nil {
		t.Fatal(err)
	}

	rows := f.mustCall(ctx, "remove_orphan_files", "db.orders")
	if len(rows) != 1 || rows[0][3] != int64(0) {
		t.Errorf("a fresh orphan with the default age: %v, want only an empty summary", rows)
	}
	f.clock.Advance(48 * time.Hour)
	rows = f.mustCall(ctx, "remove_orphan_files", "db.orders", "", true)
	if len(rows) != 2 || rows[0][1] != orphan || rows[0][4] != int64(24) || rows[0][5] != int64(0) ||
		rows[1][1] != nil || rows[1][3] != int64(1) || rows[1][5] != int64(0) {
		t.Errorf("dry run: %v, want the orphan, not deleted, then the summary", rows)
	}
	if _, err := f.fs.Stat(ctx, orphan); err != nil {
		t.Fatalf("dry run deleted the orphan: %v", err)
	}
	rows = f.mustCall(ctx, "remove_orphan_files", "db.orders", "1 d")
	if len(rows) != 2 || rows[0][5] != int64(1) || rows[1][5] != int64(1) {
		t.Errorf("removal: %v, want the orphan deleted", rows)
	}
	if _, err := f.fs.Stat(ctx, orphan); !errors.Is(err, fileio.ErrNotExist) {
		t.Errorf("orphan still there: %v", err)
	}
	if got := f.mustRead(snapshot.TimeTravel{}); !slices.Equal(got, want) {
		t.Errorf("table after orphan removal reads %v, want %v", got, want)
	}

	// A datetime after now is refused as given, however far ahead: its
	// age would be negative, or overflow a time.Duration.
	now := f.clock.Now()
	for _, future := range []string{
		now.Add(time.Hour).Format("2006-01-02 15:04:05"),
		now.AddDate(0, 1, 0).Format("2006-01-02"),
		"2999-01-01 00:00:00",
	} {
		_, err := f.call(ctx, "remove_orphan_files", "db.orders", future)
		wantError(t, err, mysql.ERWrongArguments, fmt.Sprintf("sys.remove_orphan_files: older_than %q is in the future", future),
			"now is "+now.In(sqltypes.SessionLocation(ctx)).Format(time.DateTime))
	}
}

func TestExpirePartitions(t *testing.T) {
	f := newFixture(t)
	now := f.clock.Now()
	old, recent := now.AddDate(0, 0, -30).Format("2006-01-02"), now.Format("2006-01-02")
	f.insert(nil, row(old, 1, "a"), row(recent, 2, "b"))
	ctx := newContext("db", nil)

	rows := f.mustCall(ctx, "expire_partitions", "db.orders", "7 d", "yyyy-MM-dd")
	want := []sql.Row{
		{"db.orders", "dt=" + old, int64(2), nil},
		{"db.orders", nil, int64(2), int64(1)},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("expire_partitions: %v, want %v", rows, want)
	}
	if got := f.mustRead(snapshot.TimeTravel{}); !slices.Equal(got, []string{recent + "|2|b"}) {
		t.Errorf("rows after expiry: %q", got)
	}
	rows = f.mustCall(ctx, "expire_partitions", "db.orders", "7 d", "yyyy-MM-dd")
	if len(rows) != 1 || rows[0][2] != nil || rows[0][3] != int64(0) {
		t.Errorf("nothing left to expire: %v, want an empty summary", rows)
	}

	// A pattern builds the time from the partition values.
	f.insert(nil, row(old, 3, "c"))
	rows = f.mustCall(ctx, "expire_partitions", "db.orders", "7 d", "yyyy-MM-dd HH:mm", "$dt 23:59")
	if len(rows) != 2 || rows[0][1] != "dt="+old {
		t.Errorf("expire_partitions with a pattern: %v, want dt=%s dropped", rows, old)
	}

	for _, bad := range []string{"", "0", "soon"} {
		_, err := f.call(ctx, "expire_partitions", "db.orders", bad, "yyyy-MM-dd")
		wantError(t, err, mysql.ERWrongArguments, "expiration_time")
	}

	// An unpartitioned table is named as the caller named it, not by its
	// directory.
	plain := catalog.TableDefinition{Fields: ordersTable.Fields, Options: map[string]string{"bucket": "-1"}}
	if err := f.cat.CreateTable(ctx, "db", "plain", plain, false); err != nil {
		t.Fatal(err)
	}
	dir, err := f.cat.TablePath("db", "plain")
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.call(ctx, "expire_partitions", "plain", "7 d", "yyyy-MM-dd")
	wantError(t, err, mysql.ERWrongArguments, "sys.expire_partitions: table db.plain is not partitioned")
	if strings.Contains(err.Error(), dir) {
		t.Errorf("error %v names the table's directory", err)
	}
}

// TestExpirePartitionsSessionZone: partition values are wall-clock times
// in the session's zone, so the same call drops a partition or not
// depending on @@time_zone.
func TestExpirePartitionsSessionZone(t *testing.T) {
	f := newFixture(t)
	f.clock.Set(time.Date(2026, 4, 17, 20, 0, 0, 0, time.UTC))
	f.insert(nil, row("2026-04-17 05:30:00", 1, "a"))
	ctx := newContext("db", nil)
	// At 20:01 UTC, 05:30 UTC is 14.5 h ago; at 04:01 the next day in
	// +08:00, it is 22.5 h ago.
	args := []any{"db.orders", "20 h", "yyyy-MM-dd HH:mm:ss"}
	if rows := f.mustCall(ctx, "expire_partitions", args...); len(rows) != 1 {
		t.Fatalf("in UTC: %v, want nothing expired", rows)
	}
	if err := ctx.SetSessionVariable(ctx, "time_zone", "+08:00"); err != nil {
		t.Fatal(err)
	}
	if rows := f.mustCall(ctx, "expire_partitions", args...); len(rows) != 2 {
		t.Errorf("in +08:00: %v, want the partition expired", rows)
	}
}

func TestWaitWatermark(t *testing.T) {
	f := newFixture(t)
	f.insert(ptr(int64(1713225600000)), row("2026-04-16", 1, "a"))
	ctx := newContext("db", nil)

	for _, value := range []string{"1713225600000", "1713225599999", "2024-04-16 00:00:00"} {
		if rows := f.mustCall(ctx, "wait_watermark", "db.orders", value); rows[0][1] != int64(1) {
			t.Errorf("wait for %s: %v, want snapshot 1", value, rows)
		}
	}
	_, err := f.call(ctx, "wait_watermark", "db.orders", "2024-04-16 00:00:01", int64(1000))
	wantError(t, err, mysql.ERQueryTimeout, "1713225601000", "1s", "snapshot 1")

	// 08:00 in +08:00 is the watermark; a second later is not reached.
	if err := ctx.SetSessionVariable(ctx, "time_zone", "+08:00"); err != nil {
		t.Fatal(err)
	}
	f.mustCall(ctx, "wait_watermark", "db.orders", "2024-04-16 08:00:00")
	_, err = f.call(ctx, "wait_watermark", "db.orders", "2024-04-16 08:00:01", int64(10))
	wantError(t, err, mysql.ERQueryTimeout)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = f.call(ctx.WithContext(cancelled), "wait_watermark", "db.orders", "1713225600001")
	wantError(t, err, mysql.ERQueryInterrupted)

	_, err = f.call(ctx, "wait_watermark", "db.orders", "1", int64(-5))
	wantError(t, err, mysql.ERWrongArguments, "timeout_ms -5")
}

// TestWaitWatermarkSeesNewCommit: a waiter that found the watermark behind
// returns the snapshot of the commit that moved it.
func TestWaitWatermarkSeesNewCommit(t *testing.T) {
	f := newFixture(t)
	f.insert(ptr(int64(1000)), row("2026-04-16", 1, "a"))
	slept, resume := make(chan struct{}), make(chan struct{})
	f.procs = New(Options{Catalog: f.cat, FileIO: f.fs, Now: f.clock.Now, Logger: quietLogger(),
		Sleep: func(ctx context.Context, d time.Duration) error {
			slept <- struct{}{}
			<-resume
			return ctx.Err()
		}})
	type result struct {
		rows []sql.Row
		err  error
	}
	done := make(chan result, 1)
	go func() {
		// Each insert moves the clock a minute; an hour outlasts them.
		rows, err := f.call(newContext("db", nil), "wait_watermark", "db.orders", "2000", int64(time.Hour/time.Millisecond))
		done <- result{rows, err}
	}()
	waitForPoll := func() {
		t.Helper()
		select {
		case <-slept:
		case r := <-done:
			t.Fatalf("wait returned before the watermark reached 2000: %v, %v", r.rows, r.err)
		}
	}
	waitForPoll()
	f.insert(ptr(int64(1500)), row("2026-04-16", 2, "b"))
	resume <- struct{}{}
	waitForPoll()
	id := f.insert(ptr(int64(2500)), row("2026-04-16", 3, "c"))
	resume <- struct{}{}
	r := <-done
	if r.err != nil || r.rows[0][1] != id {
		t.Errorf("wait for 2000: %v, %v; want snapshot %d, whose watermark is 2500", r.rows, r.err, id)
	}
}

func TestTableResolution(t *testing.T) {
	f := newFixture(t)
	f.insert(nil, row("2026-04-16", 1, "a"))
	if err := f.cat.CreateDatabase(context.Background(), "Mixed", false); err != nil {
		t.Fatal(err)
	}
	if err := f.cat.CreateTable(context.Background(), "Mixed", "Case", ordersTable, false); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{"mixed.case", "MIXED.`CASE`", "`Mixed`.Case"} {
		rows := f.mustCall(newContext("", nil), "expire_snapshots", arg)
		if rows[0][0] != "Mixed.Case" {
			t.Errorf("%s resolved to %v", arg, rows[0][0])
		}
	}
	_, err := f.call(newContext("", nil), "compact", "db.nosuch")
	wantError(t, err, mysql.ERNoSuchTable, "sys.compact", "'db.nosuch'")
	_, err = f.call(newContext("", nil), "compact", "nosuch.orders")
	wantError(t, err, mysql.ERBadDb, "'nosuch'")
	_, err = f.call(newContext("", nil), "compact", "orders")
	wantError(t, err, mysql.ERNoDb)
	_, err = f.call(newContext("", nil), "compact", "a.b.c")
	wantError(t, err, mysql.ERWrongArguments)
}

func TestMySQLErrorClasses(t *testing.T) {
	for _, tc := range []struct {
		err   error
		code  int
		state string
	}{
		{fmt.Errorf("commit: %w", lakeerr.ErrRetryableConflict), mysql.ERLockDeadlock, mysql.SSLockDeadlock},
		{fmt.Errorf("commit: %w", lakeerr.ErrTerminalConflict), erErrorDuringCommit, mysql.SSUnknownSQLState},
		{fmt.Errorf("commit: %w", lakeerr.ErrUnknownOutcome), erErrorDuringCommit, mysql.SSUnknownSQLState},
		{fmt.Errorf("manifest x: %w", lakeerr.ErrCorruption), erGetErrMsg, mysql.SSUnknownSQLState},
		{fmt.Errorf("deletion vectors: %w", lakeerr.ErrUnsupported), mysql.ERNotSupportedYet, mysql.SSClientError},
		{fmt.Errorf("x: %w", catalog.ErrTableNotFound), mysql.ERNoSuchTable, mysql.SSUnknownTable},
		{fmt.Errorf("x: %w", catalog.ErrInvalidName), mysql.ERWrongTableName, mysql.SSClientError},
		{fmt.Errorf("tag: %w", lakeerr.ErrNotFound), mysql.ERWrongArguments, mysql.SSClientError},
		{fmt.Errorf("tag: %w", maintenance.ErrAlreadyExists), mysql.ERDupEntry, mysql.SSDupKey},
		{&maintenance.WatermarkTimeoutError{Want: 5, Timeout: time.Second}, mysql.ERQueryTimeout, mysql.SSUnknownSQLState},
		{fmt.Errorf("wait: %w", context.Canceled), mysql.ERQueryInterrupted, mysql.SSQueryInterrupted},
		{errors.New("disk on fire"), mysql.ERUnknownError, mysql.SSUnknownSQLState},
	} {
		var se *mysql.SQLError
		if !errors.As(mysqlError("compact", tc.err), &se) || se.Num != tc.code || se.State != tc.state {
			t.Errorf("%v became %v, want %d (%s)", tc.err, se, tc.code, tc.state)
		}
	}
}
