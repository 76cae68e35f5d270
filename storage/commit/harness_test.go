package commit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/memio"
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/spec"
)

// tableDir is where every test table lives in its memio.FS.
const tableDir = "wh/db.db/t"

var (
	partitionTypes = []spec.DataType{{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}}
	keyTypes       = []spec.DataType{{Root: spec.BigInt}}
	creationTime   = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
)

// harness is a table in memory with deterministic clocks, uuids and
// randomness, shared by the Committers a test opens on it.
type harness struct {
	t       testing.TB
	mem     *memio.FS
	pk      bool
	options map[string]string
	clock   *fakeClock
	uuids   *uuidSource
	rand    *rand.Rand
}

// newHarness creates the table: dt STRING partition key, id BIGINT, v
// STRING; with pk, primary key (dt, id) and one bucket.
func newHarness(t testing.TB, pk bool, options ...string) *harness {
	t.Helper()
	h := &harness{t: t, mem: memio.New(), pk: pk, options: map[string]string{},
		clock: &fakeClock{now: creationTime}, uuids: &uuidSource{}, rand: rand.New(rand.NewPCG(1, 2))}
	for _, kv := range options {
		key, value, _ := strings.Cut(kv, "=")
		h.options[key] = value
	}
	h.writeSchema()
	return h
}

func (h *harness) writeSchema() {
	s := &spec.TableSchema{
		Version: spec.CurrentSchemaVersion,
		Fields: []spec.DataField{
			{ID: 0, Name: "dt", Type: partitionTypes[0]},
			{ID: 1, Name: "id", Type: keyTypes[0]},
			{ID: 2, Name: "v", Type: spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}},
		},
		HighestFieldID: 2,
		PartitionKeys:  []string{"dt"},
		Options:        map[string]string{"bucket": "-1"},
	}
	if h.pk {
		s.PrimaryKeys = []string{"dt", "id"}
		s.Options["bucket"] = "1"
	}
	data, err := spec.EncodeSchema(s)
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.mem.PutIfAbsent(context.Background(), tableDir+"/schema/schema-0", data); err != nil {
		h.t.Fatal(err)
	}
}

// committer opens a Committer on fsys (h.mem if nil).
func (h *harness) committer(fsys fileio.FileIO) *Committer {
	return h.committerSleeping(fsys, h.clock.Sleep)
}

// committerSleeping opens a Committer that waits with sleep.
func (h *harness) committerSleeping(fsys fileio.FileIO, sleep func(context.Context, time.Duration) error) *Committer {
	h.t.Helper()
	if fsys == nil {
		fsys = h.mem
	}
	c, err := New(Options{
		FileIO: fsys, TableDir: tableDir, Core: spec.NewCoreOptions(h.options),
		Now: h.clock.Now, NewUUID: h.uuids.next, Rand: h.rand, Sleep: sleep,
		// The traces and sweeps built on the harness are of the commit
		// protocol; lease_test.go covers the leases a Commit holds.
		Leases: lease.Disabled(),
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// commit commits req on h.mem with a fresh Committer and fails the test on
// error.
func (h *harness) commit(req Request) Result {
	h.t.Helper()
	res, err := h.committer(nil).Commit(context.Background(), req)
	if err != nil {
		h.t.Fatalf("commit %s/%d: %v", req.CommitUser, req.Identifier, err)
	}
	return res
}

// fakeClock is shared by the Committers of a harness, which may run
// concurrently (group_test.go).
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep advances the clock instead of waiting.
func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

type uuidSource struct {
	mu sync.Mutex
	n  int
}

func (u *uuidSource) next() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.n++
	return fmt.Sprintf("uuid-%d", u.n)
}

// partition returns the serialized partition dt=<dt>; "null" is a null dt.
func partition(dt string) []byte {
	var value any = dt
	if dt == "null" {
		value = nil
	}
	p, err := spec.SerializeBinaryRow(partitionTypes, []any{value})
	if err != nil {
		panic(err)
	}
	return p
}

func key(k int64) []byte {
	b, err := spec.SerializeBinaryRow(keyTypes, []any{k})
	if err != nil {
		panic(err)
	}
	return b
}

// fileSpec describes a test data file.
type fileSpec struct {
	name       string
	rows       int64
	level      int32
	minK, maxK int64
	compacted  bool
}

func (h *harness) file(f fileSpec) spec.DataFileMeta {
	source := spec.FileSourceAppend
	if f.compacted {
		source = spec.FileSourceCompact
	}
	zero := int64(0)
	meta := spec.DataFileMeta{
		FileName: f.name, FileSize: 100 * f.rows, RowCount: f.rows,
		KeyStats: spec.EmptyStats(), ValueStats: spec.EmptyStats(),
		Level: f.level, CreationTime: &creationTime, DeleteRowCount: &zero, FileSource: &source,
	}
	meta.MinKey, meta.MaxKey = spec.EmptyStats().MinValues, spec.EmptyStats().MaxValues
	if h.pk {
		meta.MinKey, meta.MaxKey = key(f.minK), key(f.maxK)
	}
	return meta
}

// dataPath is where a data file of partition dt, bucket b lives.
func dataPath(dt string, bucket int32, name string) string {
	if dt == "null" {
		dt = spec.DefaultPartitionName
	}
	return path.Join(tableDir, "dt="+dt, fmt.Sprintf("bucket-%d", bucket), name)
}

// placeFiles creates empty placeholders of the data files a writer would
// have written before committing msgs, unless the test wrote them
// (keyFile): only the key check reads data files.
func (h *harness) placeFiles(msgs []Message) {
	for _, m := range msgs {
		dt := dtOf(m.Partition)
		for _, files := range [][]spec.DataFileMeta{m.NewFiles, m.CompactAfter, m.ChangelogFiles} {
			for _, f := range files {
				err := h.mem.PutIfAbsent(context.Background(), dataPath(dt, m.Bucket, f.FileName), nil)
				if err != nil && !errors.Is(err, fileio.ErrExist) {
					h.t.Fatal(err)
				}
			}
		}
	}
}

// keyFile writes a real primary-key data file of partition dt, bucket 0,
// holding the given keys as inserts, and returns its metadata: the key
// check (KeyCheck) reads the keys of such files.
func (h *harness) keyFile(dt, name string, keys ...int64) spec.DataFileMeta {
	h.t.Helper()
	s, err := h.committer(nil).schemas.Latest(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	layout, err := parquetio.NewKeyValueLayout(s.TrimmedPrimaryKeys(), s.Fields, false)
	if err != nil {
		h.t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := parquetio.NewWriter(&buf, layout.Fields(), parquetio.WriterOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	for i, k := range keys {
		row := layout.Row(parquetio.KeyValue{Key: []any{k}, Seq: int64(i), Kind: spec.RowKindInsert, Value: []any{dt, k, "v"}})
		if err := w.Write(row); err != nil {
			h.t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		h.t.Fatal(err)
	}
	// Overwrite: a sweep builds the same request again for its retry.
	if err := h.mem.Overwrite(context.Background(), dataPath(dt, 0, name), buf.Bytes()); err != nil {
		h.t.Fatal(err)
	}
	meta := h.file(fileSpec{name: name, rows: int64(len(keys)), minK: keys[0], maxK: keys[len(keys)-1]})
	meta.FileSize = int64(buf.Len())
	return meta
}

func dtOf(p []byte) string {
	values, err := spec.DeserializeBinaryRow(partitionTypes, p)
	if err != nil {
		panic(err)
	}
	if values[0] == nil {
		return "null"
	}
	return values[0].(string)
}

// appendMsg is a message adding files to dt, bucket 0.
func (h *harness) appendMsg(dt string, files ...fileSpec) Message {
	m := Message{Partition: partition(dt), Bucket: 0, TotalBuckets: h.totalBuckets()}
	for _, f := range files {
		m.NewFiles = append(m.NewFiles, h.file(f))
	}
	return m
}

func (h *harness) totalBuckets() int32 {
	if h.pk {
		return 1
	}
	return -1
}
