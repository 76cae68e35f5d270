package integration

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/manifest"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// tally summarises a set of rows so that the state of the table at any
// snapshot can be compared with the model without keeping every state:
// the row count, SUM(amount), and an order-independent digest of the
// rows. All three are sums, so a writer's changes add and subtract, and
// the table's tally is the sum of its writers' tallies.
type tally struct {
	rows, amount int64
	digest       uint64
}

func rowTally(row []any) tally {
	h := fnv.New64a()
	fmt.Fprint(h, row...)
	return tally{rows: 1, amount: row[4].(int64), digest: h.Sum64()}
}

func (a tally) plus(b tally) tally {
	return tally{rows: a.rows + b.rows, amount: a.amount + b.amount, digest: a.digest + b.digest}
}

func (a tally) minus(b tally) tally {
	return tally{rows: a.rows - b.rows, amount: a.amount - b.amount, digest: a.digest - b.digest}
}

func (a tally) String() string {
	return fmt.Sprintf("%d rows, SUM(amount)=%d, digest %016x", a.rows, a.amount, a.digest)
}

func tallyOf(rows [][]any) tally {
	var sum tally
	for _, row := range rows {
		sum = sum.plus(rowTally(row))
	}
	return sum
}

// change is one row a writer writes, with its kind.
type change struct {
	row  []any
	kind spec.RowKind
}

// modelPoint is a writer's model right after one of its commits.
type modelPoint struct {
	snapshot int64
	tally    tally
}

// writerModel is what one writer's committed batches leave in the table.
// Each writer owns its pay ids, so the table is the union of the models,
// and which of two writers' updates of a key wins never comes up (Paimon
// orders them by per-writer sequence numbers, not by commit).
type writerModel struct {
	user string
	// rows holds the current row of each live pay id; keys lists those
	// ids (in keyIndex's positions) for random picks.
	rows     map[int64][]any
	keys     []int64
	keyIndex map[int64]int
	nextID   int64
	total    tally
	// history has a point per commit, in commit (and snapshot) order.
	history []modelPoint
}

// soakKeySpace is how many pay ids a writer keeps live at most: reads of
// a long run stay small, and past it batches only update and delete.
const soakKeySpace = 2_000

func newWriterModel(writer int) *writerModel {
	return &writerModel{
		user: fmt.Sprintf("soak-writer-%d", writer), rows: map[int64][]any{}, keyIndex: map[int64]int{},
		nextID: int64(writer) * 10_000_000,
	}
}

// nextBatch draws the changes of batch id and applies them to the model:
// new pay ids, upserts of live ones and deletes, in random proportions, a
// key possibly changed more than once in the batch.
func (m *writerModel) nextBatch(r *rand.Rand, id int64) []change {
	n := 1 + r.IntN(30)
	changes := make([]change, 0, n)
	for range n {
		p := r.IntN(10)
		switch {
		case len(m.keys) == 0 || (p < 4 && len(m.keys) < soakKeySpace):
			changes = append(changes, m.upsert(m.nextID, id, r))
			m.nextID++
		case p < 8:
			changes = append(changes, m.upsert(m.keys[r.IntN(len(m.keys))], id, r))
		default:
			changes = append(changes, m.delete(m.keys[r.IntN(len(m.keys))]))
		}
	}
	return changes
}

func (m *writerModel) upsert(payID, batch int64, r *rand.Rand) change {
	row := []any{fmt.Sprintf("d%d", payID%2), payID, m.user, batch, r.Int64N(1_000_000)}
	if old, ok := m.rows[payID]; ok {
		m.total = m.total.minus(rowTally(old))
	} else {
		m.keyIndex[payID] = len(m.keys)
		m.keys = append(m.keys, payID)
	}
	m.rows[payID] = row
	m.total = m.total.plus(rowTally(row))
	return change{row: row, kind: spec.RowKindInsert}
}

func (m *writerModel) delete(payID int64) change {
	row := m.rows[payID]
	m.total = m.total.minus(rowTally(row))
	delete(m.rows, payID)
	i := m.keyIndex[payID]
	last := m.keys[len(m.keys)-1]
	m.keys[i], m.keyIndex[last] = last, i
	m.keys = m.keys[:len(m.keys)-1]
	delete(m.keyIndex, payID)
	return change{row: row, kind: spec.RowKindDelete}
}

// committed records that the model as it stands landed in snapshot id.
func (m *writerModel) committed(id int64) {
	m.history = append(m.history, modelPoint{snapshot: id, tally: m.total})
}

// at is the model as of snapshot id: after the writer's last commit at or
// before it.
func (m *writerModel) at(id int64) tally {
	i := sort.Search(len(m.history), func(i int) bool { return m.history[i].snapshot > id })
	if i == 0 {
		return tally{}
	}
	return m.history[i-1].tally
}

// soakCounts are what a soak run did, for its log line.
type soakCounts struct {
	commits, commitRetries                  atomic.Int64
	compactions, compactNoops, compactLost  atomic.Int64
	expiryRuns, expired, expiryConflicts    atomic.Int64
	tagsCreated, tagsRefused, tagsDeleted   atomic.Int64
	tagConflicts                            atomic.Int64
	orphanRuns, orphansRemoved, orphanFence atomic.Int64
	readsOK, readsExpired                   atomic.Int64
}

func (c *soakCounts) String() string {
	return fmt.Sprintf("%d commits (%d retries); %d compactions (%d with nothing to do, %d lost to a conflict); "+
		"%d expiry runs expired %d snapshots (%d conflicts); tags: %d created, %d refused, %d deleted (%d deletions conflicted); "+
		"%d orphan runs removed %d files (%d stopped by the fence); reads: %d ok, %d of expired snapshots",
		c.commits.Load(), c.commitRetries.Load(), c.compactions.Load(), c.compactNoops.Load(), c.compactLost.Load(),
		c.expiryRuns.Load(), c.expired.Load(), c.expiryConflicts.Load(),
		c.tagsCreated.Load(), c.tagsRefused.Load(), c.tagsDeleted.Load(), c.tagConflicts.Load(),
		c.orphanRuns.Load(), c.orphansRemoved.Load(), c.orphanFence.Load(), c.readsOK.Load(), c.readsExpired.Load())
}

// readResult is one reader's read of a pinned snapshot: the tally it read,
// or the error it failed with.
type readResult struct {
	snapshot int64
	got      tally
	err      error
	// existed says whether snapshot-<id> was there right after the
	// failure, and expiring whether an expiry was running by then: a
	// snapshot that existed while no expiry ran was retained when its
	// read failed.
	existed, expiring bool
}

// readLog collects the readers' results; they are checked against the
// model only at the end, when every writer has recorded every commit.
type readLog struct {
	mu      sync.Mutex
	results []readResult
}

func (l *readLog) add(r readResult) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.results = append(l.results, r)
}

// expiredClearly reports whether a read of an expired snapshot failed the
// way package lakeerr documents: with ErrNotFound, naming the snapshot.
func expiredClearly(err error, id int64) bool {
	mentions := regexp.MustCompile(fmt.Sprintf(`\bsnapshot %d\b`, id))
	return errors.Is(err, lakeerr.ErrNotFound) && mentions.MatchString(err.Error())
}

// missingFilesError checks that every file a snapshot or tag references
// exists: its manifest lists, their manifests, its index manifest, and
// the data files of a read plan of it.
func missingFilesError(ctx context.Context, fsys fileio.FileIO, tbl *table.Table, snap *spec.Snapshot, plan *table.Plan) error {
	manifests := manifest.NewReader(fsys, tbl.Dir())
	var missing []string
	exists := func(p string) error {
		ok, err := fileio.Exists(ctx, fsys, p)
		if err == nil && !ok {
			missing = append(missing, p)
		}
		return err
	}
	lists := []string{snap.BaseManifestList, snap.DeltaManifestList}
	if snap.ChangelogManifestList != nil {
		lists = append(lists, *snap.ChangelogManifestList)
	}
	for _, list := range lists {
		if err := exists(manifests.Path(list)); err != nil {
			return err
		}
		metas, err := manifests.ManifestList(ctx, list)
		if err != nil && !errors.Is(err, fileio.ErrNotExist) {
			return err
		}
		for _, m := range metas {
			if err := exists(manifests.Path(m.FileName)); err != nil {
				return err
			}
		}
	}
	if snap.IndexManifest != nil {
		if err := exists(manifests.Path(*snap.IndexManifest)); err != nil {
			return err
		}
	}
	for i := range plan.Buckets {
		b := &plan.Buckets[i]
		for j := range b.Files {
			if err := exists(b.DataFilePath(&b.Files[j])); err != nil {
				return err
			}
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%d referenced files are missing: %v", len(missing), missing[:min(5, len(missing))])
	}
	return nil
}

// contentError reads a plan in full and compares it with want.
func contentError(ctx context.Context, tbl *table.Table, plan *table.Plan, want tally) error {
	rows, err := tbl.ExecutePlan(ctx, plan, table.ReadOptions{})
	if err != nil {
		return err
	}
	all, err := table.ReadAll(rows)
	if err != nil {
		return err
	}
	if got := tallyOf(all); got != want {
		return fmt.Errorf("reads %v; the model has %v", got, want)
	}
	return nil
}

// sortedRows renders rows for comparison.
func sortedRows(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprint(r...)
	}
	slices.Sort(out)
	return out
}
