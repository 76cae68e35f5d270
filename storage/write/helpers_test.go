package write

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path"
	"reflect"
	"slices"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

var (
	// testNow is the time on every table's clock.
	testNow    = tabletest.Epoch
	bigintType = spec.DataType{Root: spec.BigInt, Nullable: true}
	intType    = spec.DataType{Root: spec.Int, Nullable: true}
	stringType = spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
	doubleType = spec.DataType{Root: spec.Double, Nullable: true}
)

func field(name string, t spec.DataType) spec.DataField { return spec.DataField{Name: name, Type: t} }

func notNull(t spec.DataType) spec.DataType { return t.WithNullable(false) }

// testTable is a table of a writer test; tabletest.Table says how it is
// deterministic.
type testTable struct{ *tabletest.Table }

// newTestTable creates table db.t in a fresh memio warehouse.
func newTestTable(t testing.TB, def catalog.TableDefinition) *testTable {
	return &testTable{tabletest.New(t, def)}
}

// tableMaker creates a test table.
type tableMaker func(t testing.TB, def catalog.TableDefinition) *testTable

// forEachFileIO runs a test on memio and on localio in t.TempDir().
func forEachFileIO(t *testing.T, test func(t *testing.T, newTable tableMaker)) {
	t.Run("memio", func(t *testing.T) { test(t, newTestTable) })
	t.Run("localio", func(t *testing.T) {
		test(t, func(t testing.TB, def catalog.TableDefinition) *testTable {
			return &testTable{tabletest.NewLocal(t, def)}
		})
	})
}

// options are the writer options of most tests, which look at the data
// files a writer puts and deletes; lease_test.go covers its lease.
func (tt *testTable) options() Options {
	return Options{FileIO: tt.FS, TableDir: tt.Dir, Now: tt.Now,
		NewUUID: tt.NewUUID, SpillDir: tt.T.TempDir(), Leases: lease.Disabled()}
}

func (tt *testTable) open(opts Options) *TableWriter {
	tt.T.Helper()
	w, err := Open(context.Background(), opts)
	if err != nil {
		tt.T.Fatal(err)
	}
	tt.T.Cleanup(func() { _ = w.Close() })
	return w
}

func (tt *testTable) writer() *TableWriter { return tt.open(tt.options()) }

func (tt *testTable) writeAll(w *TableWriter, records []tabletest.Record) {
	tt.T.Helper()
	for _, r := range records {
		if err := w.Write(context.Background(), r.Row, r.Kind); err != nil {
			tt.T.Fatalf("write %v %v: %v", r.Kind, r.Row, err)
		}
	}
}

// prepare flushes w and returns its messages.
func (tt *testTable) prepare(w *TableWriter) []commit.Message {
	tt.T.Helper()
	msgs, err := w.PrepareCommit(context.Background())
	if err != nil {
		tt.T.Fatal(err)
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
	tt.T.Helper()
	info, err := tt.FS.Stat(context.Background(), tt.filePath(m, f))
	if err != nil {
		tt.T.Fatal(err)
	}
	created := spec.LocalWallClockAsUTC(testNow)
	ok := info.Size == f.FileSize && f.Level == 0 && f.FileSource != nil && *f.FileSource == spec.FileSourceAppend &&
		f.CreationTime != nil && f.CreationTime.Equal(created) && f.ExtraFiles != nil && len(f.ExtraFiles) == 0 &&
		reflect.DeepEqual(f.ValueStatsCols, denseStatsColumns(w.Schema().Fields)) && f.EmbeddedIndex == nil && f.DeleteRowCount != nil && f.SchemaID == w.Schema().ID &&
		f.RowCount > 0 && f.MinSequenceNumber <= f.MaxSequenceNumber
	if !ok {
		tt.T.Errorf("file %s (%d bytes on disk): unexpected metadata %+v", f.FileName, info.Size, f)
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

// commit publishes msgs as the next snapshot of writer-test.
func (tt *testTable) commit(msgs []commit.Message) {
	tt.T.Helper()
	tt.Commit("writer-test", commit.Request{Messages: msgs})
}

// commitRequest commits req with a new Committer.
func (tt *testTable) commitRequest(req commit.Request) (commit.Result, error) {
	tt.T.Helper()
	return tt.Committer(nil).Commit(context.Background(), req)
}

// writeCommit writes records with w, then prepares and commits them.
func (tt *testTable) writeCommit(w *TableWriter, records []tabletest.Record) []commit.Message {
	tt.T.Helper()
	tt.writeAll(w, records)
	msgs := tt.prepare(w)
	tt.commit(msgs)
	return msgs
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
	return path.Join(tt.Dir, partitionPath, fmt.Sprintf("bucket-%d", bucket), file)
}

func existsFile(tt *testTable, p string) (bool, error) {
	return fileio.Exists(context.Background(), tt.FS, p)
}

// filePath is where a data file of a message lives.
func (tt *testTable) filePath(m commit.Message, f spec.DataFileMeta) string {
	tt.T.Helper()
	s := tt.Schema()
	ts, err := parseSettings(s)
	if err != nil {
		tt.T.Fatal(err)
	}
	rel := ""
	if len(s.PartitionKeys) > 0 {
		values, err := spec.DeserializeBinaryRow(ts.partition.types, m.Partition)
		if err != nil {
			tt.T.Fatal(err)
		}
		if rel, err = spec.PartitionPath(ts.partition.names, ts.partition.types, values, ts.defaultPartition, ts.legacyPartition); err != nil {
			tt.T.Fatal(err)
		}
	}
	return tt.dataPath(rel, m.Bucket, f.FileName)
}

// openDataFile opens a data file with parquetio.
func (tt *testTable) openDataFile(p string) *parquetio.Reader {
	tt.T.Helper()
	data, err := tt.FS.ReadFile(context.Background(), p)
	if err != nil {
		tt.T.Fatal(err)
	}
	r, err := parquetio.Open(bytes.NewReader(data), p)
	if err != nil {
		tt.T.Fatal(err)
	}
	return r
}

// readKeyValues reads the records of a primary-key data file.
func readKeyValues(t testing.TB, tt *testTable, m commit.Message, f spec.DataFileMeta) []parquetio.KeyValue {
	t.Helper()
	s := tt.Schema()
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
	tt.T.Helper()
	m, ok := tt.FS.(*memio.FS)
	if !ok {
		tt.T.Fatal("not a memio table")
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
