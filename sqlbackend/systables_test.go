package sqlbackend

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/internal/testkit/fixtures"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/maintenance"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// paymentsHistory gives pay.payments four snapshots: two inserts (the
// second with a NULL amount and a watermark), a row-level delete, and an
// insert under a named commit user.
func paymentsHistory(t *testing.T) (*harness, *conn) {
	t.Helper()
	h := newHarness(t, t.TempDir())
	createPayments(t, h, true)
	c := h.connect()
	c.mustExec("USE pay",
		"INSERT INTO payments VALUES ('2026-04-16', 1, 10.50, 'SUCCESS')",
		"SET lakesql_commit_watermark = 1767225600000",
		"INSERT INTO payments VALUES ('2026-04-16', 4, NULL, 'PENDING'), ('2026-04-17', 2, 20.00, 'FAILED')",
		"SET lakesql_commit_watermark = -1",
		"DELETE FROM payments WHERE pay_id = 2",
		"SET lakesql_commit_user = 'correction-job'", "SET lakesql_commit_identifier = 7",
		"INSERT INTO payments VALUES ('2026-04-17', 5, 5.00, 'SUCCESS')",
		"SET lakesql_commit_user = ''", "SET lakesql_commit_identifier = 0")
	return h, c
}

func openPayments(t *testing.T, h *harness) *table.Table {
	t.Helper()
	return openTable(t, h, "pay", "payments")
}

func snapshotOf(t *testing.T, tb *table.Table, id int64) *spec.Snapshot {
	t.Helper()
	s, err := tb.Snapshots().Snapshot(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func liveFiles(t *testing.T, tb *table.Table, id int64) []spec.ManifestEntry {
	t.Helper()
	live, err := tb.LiveFiles(context.Background(), snapshotOf(t, tb, id))
	if err != nil {
		t.Fatal(err)
	}
	return live
}

func sqlValue(v any) string {
	if v == nil {
		return "NULL"
	}
	if tm, ok := v.(time.Time); ok {
		return tm.Format("2006-01-02 15:04:05.000")
	}
	return fmt.Sprint(v)
}

func ptrValue[T any](p *T) string {
	if p == nil {
		return "NULL"
	}
	return fmt.Sprint(*p)
}

func TestSnapshotsSystemTableMatchesSnapshotFiles(t *testing.T) {
	h, c := paymentsHistory(t)
	tb := openPayments(t, h)
	rows := c.mustQuery("SELECT snapshot_id, schema_id, commit_user, commit_identifier, commit_kind, commit_time, " +
		"base_manifest_list, delta_manifest_list, changelog_manifest_list, total_record_count, delta_record_count, watermark " +
		"FROM `payments$snapshots` ORDER BY snapshot_id")
	if len(rows) != 4 {
		t.Fatalf("$snapshots has %d rows, want the 4 snapshots", len(rows))
	}
	for i, r := range rows {
		s := snapshotOf(t, tb, int64(i+1))
		want := []string{
			fmt.Sprint(s.ID), fmt.Sprint(s.SchemaID), s.CommitUser, fmt.Sprint(s.CommitIdentifier), string(s.CommitKind),
			time.UnixMilli(s.TimeMillis).UTC().Format("2006-01-02 15:04:05.000"),
			s.BaseManifestList, s.DeltaManifestList, ptrValue(s.ChangelogManifestList),
			ptrValue(s.TotalRecordCount), ptrValue(s.DeltaRecordCount), ptrValue(s.Watermark),
		}
		got := make([]string, len(r))
		for j, v := range r {
			got[j] = sqlValue(v)
		}
		if !slices.Equal(got, want) {
			t.Errorf("snapshot %d:\n got %q\nwant %q", s.ID, got, want)
		}
	}
	wantRows(t, c, "SELECT snapshot_id, commit_user, commit_identifier, watermark FROM `payments$snapshots` WHERE snapshot_id IN (2, 4) ORDER BY snapshot_id",
		"[2 "+snapshotOf(t, tb, 1).CommitUser+" 2 1767225600000]", "[4 correction-job 7 "+ptrValue(snapshotOf(t, tb, 4).Watermark)+"]")
}

// TestSnapshotCommitTimeSelectsItsSnapshot checks that commit_time is the
// session's wall clock, so that pasting it into AS OF reads that snapshot
// in any time zone.
func TestSnapshotCommitTimeSelectsItsSnapshot(t *testing.T) {
	_, c := paymentsHistory(t)
	for _, zone := range []string{"+00:00", "+05:30"} {
		c.mustExec("SET time_zone = '" + zone + "'")
		rows := c.mustQuery("SELECT commit_time FROM `payments$snapshots` WHERE snapshot_id = 2")
		stamp := rows[0][0].(time.Time).Format("2006-01-02 15:04:05.000")
		wantRows(t, c, "SELECT COUNT(*) FROM payments FOR SYSTEM_TIME AS OF '"+stamp+"'", "[3]")
	}
	utc := c.mustQuery("SELECT commit_time FROM `payments$snapshots` WHERE snapshot_id = 2")[0][0].(time.Time)
	c.mustExec("SET time_zone = '+00:00'")
	inUTC := c.mustQuery("SELECT commit_time FROM `payments$snapshots` WHERE snapshot_id = 2")[0][0].(time.Time)
	if shift := utc.Sub(inUTC); shift != 5*time.Hour+30*time.Minute {
		t.Errorf("commit_time at +05:30 is %v after the one at UTC, want 5h30m", shift)
	}
}

// TestFilesSystemTableDescribesEachFile checks $files against the live
// files of the snapshot, and the rendering of one file whose content is
// known: the first insert's single row.
func TestFilesSystemTableDescribesEachFile(t *testing.T) {
	h, c := paymentsHistory(t)
	tb := openPayments(t, h)
	first := liveFiles(t, tb, 1)
	if len(first) != 1 {
		t.Fatalf("snapshot 1 has %d live files, want 1", len(first))
	}
	f := first[0]
	wantPath := path.Join(tb.Dir(), "dt=2026-04-16", fmt.Sprintf("bucket-%d", f.Bucket), f.File.FileName)
	wantRows(t, c, "SELECT `partition`, bucket, file_path, file_format, schema_id, level, record_count, file_size_in_bytes, "+
		"min_key, max_key, null_value_counts, min_value_stats, max_value_stats, min_sequence_number, max_sequence_number, "+
		"deleteRowCount, file_source FROM `payments$files` AS OF 1",
		fmt.Sprintf("[{2026-04-16} %d %s parquet 0 0 1 %d [1] [1] {amount=0, dt=0, pay_id=0, status=0} "+
			"{amount=10.50, dt=2026-04-16, pay_id=1, status=SUCCESS} {amount=10.50, dt=2026-04-16, pay_id=1, status=SUCCESS} 0 0 0 APPEND]",
			f.Bucket, wantPath, f.File.FileSize))

	for id := int64(1); id <= 4; id++ {
		var want []string
		for _, e := range liveFiles(t, tb, id) {
			want = append(want, fmt.Sprintf("[%d %s %d %d %d %d]", e.Bucket, e.File.FileName, e.File.Level,
				e.File.RowCount, e.File.MinSequenceNumber, e.File.MaxSequenceNumber))
		}
		slices.Sort(want)
		got := format(c.mustQuery(fmt.Sprintf("SELECT bucket, SUBSTRING_INDEX(file_path, '/', -1) AS name, level, record_count, "+
			"min_sequence_number, max_sequence_number FROM `payments$files` AS OF %d", id)))
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("$files AS OF %d:\n got %q\nwant %q", id, got, want)
		}
	}
	// The insert with a NULL amount: one file per partition of it.
	wantRows(t, c, "SELECT null_value_counts, min_value_stats FROM `payments$files` AS OF 2 WHERE min_key = '[4]'",
		"[{amount=1, dt=0, pay_id=0, status=0} {amount=null, dt=2026-04-16, pay_id=4, status=PENDING}]")
}

// TestFilesSystemTableEvolvesStats checks that stats of files written
// before ADD COLUMN are shown on the new schema: the new column has no
// bounds and counts every row as null.
func TestFilesSystemTableEvolvesStats(t *testing.T) {
	_, c := paymentsHistory(t)
	c.mustExec("ALTER TABLE payments ADD COLUMN note VARCHAR(20)",
		"INSERT INTO payments VALUES ('2026-04-18', 9, 9.00, 'SUCCESS', 'late')")
	wantRows(t, c, "SELECT schema_id, null_value_counts, max_value_stats FROM `payments$files` WHERE min_key IN ('[1]', '[9]') ORDER BY schema_id",
		"[0 {amount=0, dt=0, note=1, pay_id=0, status=0} {amount=10.50, dt=2026-04-16, note=null, pay_id=1, status=SUCCESS}]",
		"[1 {amount=0, dt=0, note=0, pay_id=0, status=0} {amount=9.00, dt=2026-04-18, note=late, pay_id=9, status=SUCCESS}]")
	// Under AS OF the files are shown in the snapshot's own schema.
	wantRows(t, c, "SELECT max_value_stats FROM `payments$files` AS OF 1",
		"[{amount=10.50, dt=2026-04-16, pay_id=1, status=SUCCESS}]")
}

func TestPartitionsAndBucketsSystemTablesSumLiveFiles(t *testing.T) {
	h, c := paymentsHistory(t)
	tb := openPayments(t, h)
	for id := int64(1); id <= 4; id++ {
		type sums struct{ records, bytes, files int64 }
		partitions, buckets := map[string]*sums{}, map[string]*sums{}
		add := func(m map[string]*sums, key string, e spec.ManifestEntry) {
			if m[key] == nil {
				m[key] = &sums{}
			}
			m[key].records += e.File.RowCount
			m[key].bytes += e.File.FileSize
			m[key].files++
		}
		for _, e := range liveFiles(t, tb, id) {
			values, err := spec.DeserializeBinaryRow([]spec.DataType{varchar()}, e.Partition)
			if err != nil {
				t.Fatal(err)
			}
			add(partitions, fmt.Sprintf("dt=%s", values[0]), e)
			add(buckets, fmt.Sprintf("{%s} %d", values[0], e.Bucket), e)
		}
		var wantPartitions, wantBuckets []string
		for k, s := range partitions {
			wantPartitions = append(wantPartitions, fmt.Sprintf("[%s %d %d %d 2 0 0]", k, s.records, s.bytes, s.files))
		}
		for k, s := range buckets {
			wantBuckets = append(wantBuckets, fmt.Sprintf("[%s %d %d %d]", k, s.records, s.bytes, s.files))
		}
		slices.Sort(wantPartitions)
		slices.Sort(wantBuckets)
		wantRows(t, c, fmt.Sprintf("SELECT `partition`, record_count, file_size_in_bytes, file_count, total_buckets, done, deleted_record_count "+
			"FROM `payments$partitions` AS OF %d", id), wantPartitions...)
		wantRows(t, c, fmt.Sprintf("SELECT `partition`, bucket, record_count, file_size_in_bytes, file_count FROM `payments$buckets` AS OF %d", id),
			wantBuckets...)
	}
	// The delete of pay_id 2 is a record too, so dt=2026-04-17 holds 3.
	wantRows(t, c, "SELECT `partition`, record_count, file_count FROM `payments$partitions`",
		"[dt=2026-04-16 2 2]", "[dt=2026-04-17 3 3]")
	last := liveFiles(t, tb, 4)
	var newest time.Time
	for _, e := range last {
		if e.File.CreationTime.After(newest) {
			newest = *e.File.CreationTime
		}
	}
	wantRows(t, c, "SELECT MAX(last_update_time) FROM `payments$partitions`", "["+newest.Format("2006-01-02 15:04:05.000 -0700 MST")+"]")
}

func TestManifestsSystemTableListsSnapshotManifests(t *testing.T) {
	h, c := paymentsHistory(t)
	tb := openPayments(t, h)
	for id := int64(1); id <= 4; id++ {
		metas, err := tb.Manifests().DataManifests(context.Background(), snapshotOf(t, tb, id))
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, m := range metas {
			want = append(want, fmt.Sprintf("[%s %d %d %d %d]", m.FileName, m.FileSize, m.NumAddedFiles, m.NumDeletedFiles, m.SchemaID))
		}
		wantRows(t, c, fmt.Sprintf("SELECT file_name, file_size, num_added_files, num_deleted_files, schema_id FROM `payments$manifests` AS OF %d", id), want...)
	}
	// Snapshot 2 added one file in each partition, in one manifest.
	wantRows(t, c, "SELECT min_partition_stats, max_partition_stats FROM `payments$manifests` AS OF 2 WHERE num_added_files = 2",
		"[{2026-04-16} {2026-04-17}]")
}

func TestSchemasAndOptionsSystemTables(t *testing.T) {
	h, c := paymentsHistory(t)
	c.mustExec("ALTER TABLE payments ADD COLUMN note VARCHAR(20) COMMENT 'free text'")
	tb := openPayments(t, h)
	wantRows(t, c, "SELECT schema_id, partition_keys, primary_keys, comment FROM `payments$schemas` ORDER BY schema_id",
		`[0 ["dt"] ["dt","pay_id"] <nil>]`, `[1 ["dt"] ["dt","pay_id"] <nil>]`)
	fields := c.mustQuery("SELECT fields FROM `payments$schemas` WHERE schema_id = 1")[0][0].(string)
	if !strings.Contains(fields, `{"id":4,"name":"note","type":"VARCHAR(20)","description":"free text"}`) {
		t.Errorf("schema 1 fields %s lack the added column", fields)
	}
	latest, err := tb.LatestSchema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for k, v := range latest.Options {
		want = append(want, fmt.Sprintf("[%s %s]", k, v))
	}
	slices.Sort(want)
	wantRows(t, c, "SELECT `key`, value FROM `payments$options`", want...)
	options := c.mustQuery("SELECT options FROM `payments$schemas` WHERE schema_id = 1")[0][0].(string)
	if !strings.Contains(options, `"bucket":"2"`) {
		t.Errorf("schema options %s lack bucket", options)
	}
	updated := c.mustQuery("SELECT update_time FROM `payments$schemas` WHERE schema_id = 1")[0][0].(time.Time)
	if !updated.Equal(time.UnixMilli(latest.TimeMillis).UTC()) {
		t.Errorf("update_time %v, want the schema's time %v", updated, time.UnixMilli(latest.TimeMillis).UTC())
	}
}

func TestTagsAndConsumersSystemTables(t *testing.T) {
	h, c := paymentsHistory(t)
	tb := openPayments(t, h)
	ctx := context.Background()
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	day := 24 * time.Hour
	for name, tag := range map[string]spec.Tag{
		"nightly": {Snapshot: *snapshotOf(t, tb, 2), CreateTime: &created, TimeRetained: &day},
		"release": {Snapshot: *snapshotOf(t, tb, 3)},
	} {
		data, err := spec.EncodeTag(&tag)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.backend.FileIO().PutIfAbsent(ctx, tb.Snapshots().TagPath(name), data); err != nil {
			t.Fatal(err)
		}
	}
	consumer := spec.EncodeConsumer(&spec.Consumer{NextSnapshot: 3})
	if err := h.backend.FileIO().PutIfAbsent(ctx, path.Join(tb.Snapshots().BranchDir(), "consumer", "consumer-reconciler"), consumer); err != nil {
		t.Fatal(err)
	}
	s2 := snapshotOf(t, tb, 2)
	wantRows(t, c, "SELECT tag_name, snapshot_id, schema_id, commit_time, record_count, create_time, time_retained FROM `payments$tags`",
		fmt.Sprintf("[nightly 2 0 %s %d 2026-01-02 03:04:05 +0000 UTC PT24H]", time.UnixMilli(s2.TimeMillis).UTC(), *s2.TotalRecordCount),
		fmt.Sprintf("[release 3 0 %s %d <nil> <nil>]", time.UnixMilli(snapshotOf(t, tb, 3).TimeMillis).UTC(), *snapshotOf(t, tb, 3).TotalRecordCount))
	wantRows(t, c, "SELECT consumer_id, next_snapshot_id FROM `payments$consumers`", "[reconciler 3]")
}

func TestSystemTableNames(t *testing.T) {
	_, c := paymentsHistory(t)
	for _, q := range []string{
		"SELECT COUNT(*) FROM `payments$snapshots`",
		"SELECT COUNT(*) FROM `PAYMENTS$SNAPSHOTS`",
		"SELECT COUNT(*) FROM `Payments$Snapshots` s WHERE s.snapshot_id > 0",
		"SELECT COUNT(*) FROM pay.`payments$snapshots`",
	} {
		wantRows(t, c, q, "[4]")
	}
	wantRows(t, c, "SHOW TABLES", "[payments]")
	wantRows(t, c, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'pay'", "[payments]")
	cases := map[string][]string{
		"SELECT * FROM `payments$nope`":               {"1146", "$snapshots", "$files"},
		"SELECT * FROM `payments$binlog`":             {"not supported", "$partitions", "$audit_log", "$ro"},
		"SELECT * FROM `payments$snapshots` AS OF 1":  {"AS OF", "$files"},
		"SELECT * FROM `nosuch$files`":                {"not found"},
		"SELECT * FROM `payments$files` AS OF 99":     {"snapshot"},
		"INSERT INTO `payments$options` VALUES (1,2)": {"insert"},
	}
	for q, wants := range cases {
		_, err := c.query(q)
		for _, want := range wants {
			if err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(want)) {
				t.Errorf("%s: %v, want an error mentioning %q", q, err, want)
			}
		}
	}
}

// TestSystemTablesAreReadOnly: every kind of write to a system table is
// refused with MySQL's read-only table error naming it, also when it
// would write no row, and commits nothing.
func TestSystemTablesAreReadOnly(t *testing.T) {
	_, c := paymentsHistory(t)
	for stmt, want := range map[string]string{
		"INSERT INTO `payments$options` VALUES ('bucket', '3')":                                   "Table 'pay.payments$options' is read only: INSERT",
		"INSERT INTO `payments$ro` SELECT * FROM payments WHERE pay_id < 0":                       "Table 'pay.payments$ro' is read only: INSERT",
		"REPLACE INTO `payments$audit_log` VALUES ('+I', '2026-04-16', 9, 1.00, 'SUCCESS')":       "Table 'pay.payments$audit_log' is read only: REPLACE",
		"UPDATE `payments$snapshots` SET commit_user = 'me' WHERE snapshot_id = 1":                "Table 'pay.payments$snapshots' is read only: UPDATE",
		"DELETE FROM `payments$files`":                                                            "Table 'pay.payments$files' is read only: DELETE",
		"DELETE FROM `payments$ro` WHERE pay_id < 0":                                              "Table 'pay.payments$ro' is read only: DELETE",
		"TRUNCATE TABLE `payments$tags`":                                                          "Table 'pay.payments$tags' is read only: TRUNCATE",
		"INSERT INTO `payments$manifests` SELECT * FROM `payments$manifests` WHERE file_size < 0": "Table 'pay.payments$manifests' is read only: INSERT",
	} {
		// CastSQLError is what the server sends the client.
		_, err := c.query(stmt)
		if sent := sql.CastSQLError(err); err == nil || sent.Num != mysqlerr.OpenAsReadOnly || !strings.Contains(sent.Message, want) {
			t.Errorf("%s: %v, want error %d %q", stmt, err, mysqlerr.OpenAsReadOnly, want)
		}
	}
	wantRows(t, c, "SELECT MAX(snapshot_id) FROM `payments$snapshots`", "[4]")
}

// TestSnapshotScopedSystemTablesReadExpiredTag: AS OF a tag reads the
// snapshot the tag holds, after snapshot-<id> itself has expired, as the
// table does.
func TestSnapshotScopedSystemTablesReadExpiredTag(t *testing.T) {
	h, c := paymentsHistory(t)
	ctx := context.Background()
	tb := openPayments(t, h)
	if _, err := maintenance.CreateTag(ctx, h.backend.FileIO(), tb.Dir(), "nightly", maintenance.CreateTagOptions{SnapshotID: 2}); err != nil {
		t.Fatal(err)
	}
	queries := []string{
		"SELECT file_path, level, record_count FROM `payments$files` AS OF %s ORDER BY file_path",
		"SELECT * FROM `payments$partitions` AS OF %s",
		"SELECT * FROM `payments$buckets` AS OF %s",
		"SELECT file_name FROM `payments$manifests` AS OF %s",
	}
	before := make([][]string, len(queries))
	for i, q := range queries {
		before[i] = format(c.mustQuery(fmt.Sprintf(q, "2")))
	}
	one := 1
	if _, err := maintenance.ExpireSnapshots(ctx, h.backend.FileIO(), tb.Dir(), maintenance.ExpireOptions{RetainMax: &one, RetainMin: &one}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.query("SELECT * FROM `payments$files` AS OF 2"); err == nil || !strings.Contains(err.Error(), "earliest 4") {
		t.Fatalf("$files AS OF expired snapshot 2: %v, want an error naming the earliest snapshot, 4", err)
	}
	for i, q := range queries {
		wantRows(t, c, fmt.Sprintf(q, "'nightly'"), before[i]...)
	}
}

func TestSystemTablesOfEmptyTable(t *testing.T) {
	h := newHarness(t, t.TempDir())
	createPayments(t, h, false)
	c := h.connect()
	c.mustExec("USE pay")
	for _, kind := range []string{"snapshots", "files", "manifests", "partitions", "buckets", "tags", "consumers"} {
		wantRows(t, c, "SELECT COUNT(*) FROM `payments$"+kind+"`", "[0]")
	}
	wantRows(t, c, "SELECT COUNT(*) > 0 FROM `payments$options`", "[true]")
}

// TestFilesSystemTableSharesTransactionPin checks that in a transaction
// $files describes the snapshot the table itself is read at.
func TestFilesSystemTableSharesTransactionPin(t *testing.T) {
	h, c := paymentsHistory(t)
	other := h.connect()
	other.mustExec("USE pay")
	c.mustExec("START TRANSACTION WITH CONSISTENT SNAPSHOT")
	before := format(c.mustQuery("SELECT COUNT(*) FROM `payments$files`"))
	other.mustExec("INSERT INTO payments VALUES ('2026-04-19', 10, 1.00, 'SUCCESS')")
	wantRows(t, c, "SELECT COUNT(*) FROM `payments$files`", before...)
	c.mustExec("COMMIT")
	after := format(c.mustQuery("SELECT COUNT(*) FROM `payments$files`"))
	if slices.Equal(after, before) {
		t.Errorf("$files after COMMIT still shows %v", before)
	}
}

// TestSystemTablesOfJavaFixtures reads the snapshot-scoped system tables
// of every Java-written fixture at every snapshot where time travel
// applies, and checks $files and $partitions against the live files.
// Package systables reads every kind of every fixture, and checks that
// the tables lakesql refuses fail with a clear "not supported" error.
func TestSystemTablesOfJavaFixtures(t *testing.T) {
	manifest := fixtures.LoadExpected(t)
	h := newHarness(t, filepath.Join(fixtures.Root(), "paimon-java"))
	c := h.connect()
	for name, m := range manifest.Tables {
		set, tbl, _ := strings.Cut(name, "/")
		if set != "paimon-java" || strings.HasSuffix(tbl, "_with_external") || m.Exempt != nil {
			continue
		}
		t.Run(tbl, func(t *testing.T) {
			prefix := "SELECT * FROM `" + tbl + "`.`" + tbl + "$"
			tb, err := table.Open(context.Background(), localio.New(), filepath.Join(fixtures.Root(), "paimon-java", tbl+".db", tbl))
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range m.Snapshots {
				var records, files int64
				for _, e := range liveFiles(t, tb, id) {
					records += e.File.RowCount
					files++
				}
				q := fmt.Sprintf("SELECT COUNT(*), COALESCE(SUM(record_count), 0) FROM `%s`.`%s$files` AS OF %d", tbl, tbl, id)
				wantRows(t, c, q, fmt.Sprintf("[%d %d]", files, records))
				q = fmt.Sprintf("SELECT COALESCE(SUM(file_count), 0), COALESCE(SUM(record_count), 0) FROM `%s`.`%s$partitions` AS OF %d", tbl, tbl, id)
				wantRows(t, c, q, fmt.Sprintf("[%d %d]", files, records))
				for _, kind := range []string{"manifests", "buckets"} {
					if _, err := c.query(fmt.Sprintf("%s%s` AS OF %d", prefix, kind, id)); err != nil {
						t.Errorf("$%s AS OF %d: %v", kind, id, err)
					}
				}
			}
		})
	}
}

// TestPartitionsLastUpdateCountsReplacedFiles: Java's $partitions and
// $buckets take the newest creation time among the snapshot's unmerged
// manifest entries. A DELETE on a deletion-vector table writes a level-0
// file whose compaction, in the same statement, marks the row in the
// older file and drops the file: it is newer than any live file, and
// counts until a manifest compaction merges its ADD and DELETE entries.
func TestPartitionsLastUpdateCountsReplacedFiles(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	c.mustExec("CREATE DATABASE d", "USE d",
		`CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v VARCHAR(20)) COMMENT 'paimon:{"deletion-vectors.enabled":"true","bucket":"1"}'`,
		"INSERT INTO t VALUES (1, 'a'), (2, 'b')",
		"DELETE FROM t WHERE id = 1")
	tb := openTable(t, h, "d", "t")
	latest, err := tb.Snapshots().Latest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	unmerged, err := tb.UnmergedFiles(context.Background(), latest)
	if err != nil {
		t.Fatal(err)
	}
	newest := func(entries []spec.ManifestEntry) time.Time {
		var out time.Time
		for _, e := range entries {
			if e.File.CreationTime.After(out) {
				out = *e.File.CreationTime
			}
		}
		return out
	}
	want, live := newest(unmerged), newest(liveFiles(t, tb, latest.ID))
	if !want.After(live) {
		t.Fatalf("newest entry %v is not newer than the newest live file %v: the case does not test the rule", want, live)
	}
	stamp := "[" + want.Format("2006-01-02 15:04:05.000 -0700 MST") + "]"
	wantRows(t, c, "SELECT last_update_time FROM `t$partitions`", stamp)
	wantRows(t, c, "SELECT last_update_time FROM `t$buckets`", stamp)
}
