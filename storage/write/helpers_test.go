package write

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/localio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

var (
	testNow    = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	bigintType = spec.DataType{Root: spec.BigInt, Nullable: true}
	intType    = spec.DataType{Root: spec.Int, Nullable: true}
	stringType = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
	doubleType = spec.DataType{Root: spec.Double, Nullable: true}
)

func field(name string, t spec.DataType) spec.DataField { return spec.DataField{Name: name, Type: t} }

func notNull(t spec.DataType) spec.DataType { return t.WithNullable(false) }

// testTable is a table created through the catalog on a FileIO, with a
// deterministic clock and uuids shared by its writers and committers.
type testTable struct {
	t     testing.TB
	io    fileio.FileIO
	dir   string
	uuids int
	ident int64
}

// newTestTable creates table db.t in a fresh memio warehouse.
func newTestTable(t testing.TB, def catalog.TableDefinition) *testTable {
	return newTestTableOn(t, memio.New(), "wh", def)
}

// tableMaker creates a test table.
type tableMaker func(t testing.TB, def catalog.TableDefinition) *testTable

// forEachFileIO runs a test on memio and on localio in t.TempDir().
func forEachFileIO(t *testing.T, test func(t *testing.T, newTable tableMaker)) {
	t.Run("memio", func(t *testing.T) { test(t, newTestTable) })
	t.Run("localio", func(t *testing.T) {
		test(t, func(t testing.TB, def catalog.TableDefinition) *testTable {
			return newTestTableOn(t, localio.New(), t.TempDir(), def)
		})
	})
}

func newTestTableOn(t testing.TB, fsys fileio.FileIO, warehouse string, def catalog.TableDefinition) *testTable {
	t.Helper()
	ctx := context.Background()
	c := catalog.New(fsys, warehouse, func() time.Time { return testNow })
	if err := c.CreateDatabase(ctx, "db", true); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTable(ctx, "db", "t", def, false); err != nil {
		t.Fatal(err)
	}
	dir, err := c.TablePath("db", "t")
	if err != nil {
		t.Fatal(err)
	}
	return &testTable{t: t, io: fsys, dir: dir}
}

func (tt *testTable) newUUID() string {
	tt.uuids++
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", tt.uuids)
}

// options are the writer options of most tests, which look at the data
// files a writer puts and deletes; lease_test.go covers its lease.
func (tt *testTable) options() Options {
	return Options{FileIO: tt.io, TableDir: tt.dir, Now: func() time.Time { return testNow },
		NewUUID: tt.newUUID, SpillDir: tt.t.TempDir(), Leases: lease.Disabled()}
}

func (tt *testTable) open(opts Options) *TableWriter {
	tt.t.Helper()
	w, err := Open(context.Background(), opts)
	if err != nil {
		tt.t.Fatal(err)
	}
	tt.t.Cleanup(func() { _ = w.Close() })
	return w
}

func (tt *testTable) writer() *TableWriter { return tt.open(tt.options()) }

// record is one row with its change kind.
type record struct {
	row  []any
	kind spec.RowKind
}

func insert(row ...any) record { return record{row: row, kind: spec.RowKindInsert} }
func update(row ...any) record { return record{row: row, kind: spec.RowKindUpdateAfter} }
func retract(row ...any) record {
	return record{row: row, kind: spec.RowKindUpdateBefore}
}
func deleteRow(row ...any) record { return record{row: row, kind: spec.RowKindDelete} }

func (tt *testTable) writeAll(w *TableWriter, records []record) {
	tt.t.Helper()
	for _, r := range records {
		if err := w.Write(context.Background(), r.row, r.kind); err != nil {
			tt.t.Fatalf("write %v %v: %v", r.kind, r.row, err)
		}
	}
}

// prepare flushes w and returns its messages.
func (tt *testTable) prepare(w *TableWriter) []commit.Message {
	tt.t.Helper()
	msgs, err := w.PrepareCommit(context.Background())
	if err != nil {
		tt.t.Fatal(err)
	}
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			tt.checkFileMeta(w, m, f)
		}
	}
	return msgs
}

// checkFileMeta checks the DataFileMeta fields every new file shares with
// Java's: level 0, APPEND source, creation time as Java's local wall clock,
// empty extra files, dense stats columns without the composite columns, no
// embedded index, and the real file size.
func (tt *testTable) checkFileMeta(w *TableWriter, m commit.Message, f spec.DataFileMeta) {
	tt.t.Helper()
	info, err := tt.io.Stat(context.Background(), tt.filePath(m, f))
	if err != nil {
		tt.t.Fatal(err)
	}
	created := spec.LocalWallClockAsUTC(testNow)
	ok := info.Size == f.FileSize && f.Level == 0 && f.FileSource != nil && *f.FileSource == spec.FileSourceAppend &&
		f.CreationTime != nil && f.CreationTime.Equal(created) && f.ExtraFiles != nil && len(f.ExtraFiles) == 0 &&
		reflect.DeepEqual(f.ValueStatsCols, denseStatsColumns(w.Schema().Fields)) && f.EmbeddedIndex == nil && f.DeleteRowCount != nil && f.SchemaID == w.Schema().ID &&
		f.RowCount > 0 && f.MinSequenceNumber <= f.MaxSequenceNumber
	if !ok {
		tt.t.Errorf("file %s (%d bytes on disk): unexpected metadata %+v", f.FileName, info.Size, f)
	}
}

// denseStatsColumns is the _VALUE_STATS_COLS Java writes under default
// options: the columns other than composite ones, of which Parquet keeps
// no top-level stats, or nil when that is all of them.
func denseStatsColumns(fields []spec.DataField) []string {
	names := []string{}
	for _, f := range fields {
		switch f.Type.Root {
		case spec.Array, spec.Map, spec.Multiset, spec.Row:
		default:
			names = append(names, f.Name)
		}
	}
	if len(names) == len(fields) {
		return nil
	}
	return names
}

// commit publishes msgs as the next snapshot.
func (tt *testTable) commit(msgs []commit.Message) {
	tt.t.Helper()
	tt.ident++
	if _, err := tt.commitRequest(commit.Request{CommitUser: "writer-test", Identifier: tt.ident, Messages: msgs}); err != nil {
		tt.t.Fatal(err)
	}
}

// commitRequest commits req with a new Committer.
func (tt *testTable) commitRequest(req commit.Request) (commit.Result, error) {
	tt.t.Helper()
	return tt.committer().Commit(context.Background(), req)
}

// committer opens a Committer on the table. Its uuids are its own, so that
// Committers of one test may run concurrently.
func (tt *testTable) committer() *commit.Committer {
	tt.t.Helper()
	prefix := tt.newUUID()
	var n atomic.Int64
	c, err := commit.New(commit.Options{FileIO: tt.io, TableDir: tt.dir, Core: tt.schema().CoreOptions(),
		Now: func() time.Time { return testNow }, Rand: rand.New(rand.NewPCG(1, 2)),
		NewUUID: func() string { return fmt.Sprintf("%s-%d", prefix, n.Add(1)) },
		Sleep:   func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		tt.t.Fatal(err)
	}
	return c
}

// writeCommit writes records with w, then prepares and commits them.
func (tt *testTable) writeCommit(w *TableWriter, records []record) []commit.Message {
	tt.t.Helper()
	tt.writeAll(w, records)
	msgs := tt.prepare(w)
	tt.commit(msgs)
	return msgs
}

// read returns the table's rows, rendered and sorted.
func (tt *testTable) read() []string {
	tt.t.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, tt.io, tt.dir)
	if err != nil {
		tt.t.Fatal(err)
	}
	rows, err := tbl.Read(ctx, table.ReadOptions{})
	if err != nil {
		tt.t.Fatal(err)
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		tt.t.Fatal(err)
	}
	return renderRows(all)
}

// liveFiles returns the live entries of the latest snapshot.
func (tt *testTable) liveFiles() []spec.ManifestEntry {
	tt.t.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, tt.io, tt.dir)
	if err != nil {
		tt.t.Fatal(err)
	}
	snap, err := tbl.Snapshots().Latest(ctx)
	if err != nil {
		tt.t.Fatal(err)
	}
	entries, err := tbl.LiveFiles(ctx, snap)
	if err != nil {
		tt.t.Fatal(err)
	}
	return entries
}

func renderRows(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = renderRow(r)
	}
	slices.Sort(out)
	return out
}

func renderRow(row []any) string {
	parts := make([]string, len(row))
	for i, v := range row {
		switch x := v.(type) {
		case nil:
			parts[i] = "NULL"
		case spec.DecimalValue:
			parts[i] = x.String()
		case spec.TimestampValue:
			parts[i] = x.Format(6)
		default:
			parts[i] = fmt.Sprint(x)
		}
	}
	return strings.Join(parts, "|")
}

func assertRows(t testing.TB, what string, got, want []string) {
	t.Helper()
	want = slices.Clone(want)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("%s:\n got  %q\n want %q", what, got, want)
	}
}

// dataPath is the path of a data file of a message.
func (tt *testTable) dataPath(partitionPath string, bucket int32, file string) string {
	return path.Join(tt.dir, partitionPath, fmt.Sprintf("bucket-%d", bucket), file)
}

func existsFile(tt *testTable, p string) (bool, error) {
	return fileio.Exists(context.Background(), tt.io, p)
}

func (tt *testTable) schema() *spec.TableSchema {
	tt.t.Helper()
	ctx := context.Background()
	tbl, err := table.Open(ctx, tt.io, tt.dir)
	if err != nil {
		tt.t.Fatal(err)
	}
	s, err := tbl.LatestSchema(ctx)
	if err != nil {
		tt.t.Fatal(err)
	}
	return s
}

// filePath is where a data file of a message lives.
func (tt *testTable) filePath(m commit.Message, f spec.DataFileMeta) string {
	tt.t.Helper()
	s := tt.schema()
	ts, err := parseSettings(s)
	if err != nil {
		tt.t.Fatal(err)
	}
	rel := ""
	if len(s.PartitionKeys) > 0 {
		values, err := spec.DeserializeBinaryRow(ts.partition.types, m.Partition)
		if err != nil {
			tt.t.Fatal(err)
		}
		if rel, err = spec.PartitionPath(ts.partition.names, ts.partition.types, values, ts.defaultPartition, ts.legacyPartition); err != nil {
			tt.t.Fatal(err)
		}
	}
	return tt.dataPath(rel, m.Bucket, f.FileName)
}

// openDataFile opens a data file with parquetio.
func (tt *testTable) openDataFile(p string) *parquetio.Reader {
	tt.t.Helper()
	data, err := tt.io.ReadFile(context.Background(), p)
	if err != nil {
		tt.t.Fatal(err)
	}
	r, err := parquetio.Open(bytes.NewReader(data), p)
	if err != nil {
		tt.t.Fatal(err)
	}
	return r
}

// readKeyValues reads the records of a primary-key data file.
func readKeyValues(t testing.TB, tt *testTable, m commit.Message, f spec.DataFileMeta) []parquetio.KeyValue {
	t.Helper()
	s := tt.schema()
	it, err := tt.openDataFile(tt.filePath(m, f)).NewKeyValueIterator(s.TrimmedPrimaryKeys(), s.Fields)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []parquetio.KeyValue
	for {
		kv, err := it.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, kv)
	}
}

// readRows reads every table column of a data file.
func readRows(t testing.TB, r *parquetio.Reader, fields []spec.DataField) [][]any {
	t.Helper()
	cols := make([]parquetio.ColumnRequest, len(fields))
	for i, f := range fields {
		cols[i] = parquetio.ColumnRequest{Name: f.Name, Type: f.Type}
	}
	it, err := r.NewRowIterator(cols)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out [][]any
	for {
		row, err := it.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, slices.Clone(row))
	}
}

func mustOpenParquet(t testing.TB, data []byte, name string) *parquetio.Reader {
	t.Helper()
	r, err := parquetio.Open(bytes.NewReader(data), name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func memFiles(tt *testTable) []string {
	tt.t.Helper()
	m, ok := tt.io.(*memio.FS)
	if !ok {
		tt.t.Fatal("not a memio table")
	}
	return m.Files()
}

// avroSchemaOf returns the avro.schema metadata of an Avro object container
// file header.
func avroSchemaOf(t testing.TB, data []byte) string {
	t.Helper()
	if !bytes.HasPrefix(data, []byte("Obj\x01")) {
		t.Fatal("not an Avro container file")
	}
	in := bytes.NewReader(data[4:])
	readBytes := func() []byte {
		n, err := binary.ReadVarint(in)
		if err != nil || n < 0 || n > int64(in.Len()) {
			t.Fatalf("bad Avro header: %v", err)
		}
		b := make([]byte, n)
		_, _ = io.ReadFull(in, b)
		return b
	}
	for {
		count, err := binary.ReadVarint(in)
		if err != nil {
			t.Fatal(err)
		}
		if count == 0 {
			t.Fatal("no avro.schema in header")
		}
		if count < 0 {
			count = -count
			_, _ = binary.ReadVarint(in) // block size in bytes
		}
		for range count {
			key, value := string(readBytes()), readBytes()
			if key == "avro.schema" {
				return string(value)
			}
		}
	}
}
