package metamorphic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/snapshot"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// checkReceipts: a receipt (commit-user/<user>) may lag behind the log,
// since a commit whose acknowledgement was lost never wrote it, but it
// must never claim a commit that is not there: a retry trusting it would
// drop a batch as already committed.
func (c *checker) checkReceipts(ctx context.Context, batches []*batch) {
	users := map[string]bool{}
	for _, b := range batches {
		users[b.user] = true
	}
	for _, user := range keys(users) {
		p := path.Join(c.env.dir, "commit-user", user)
		data, err := c.env.mem.ReadFile(ctx, p)
		if errors.Is(err, fileio.ErrNotExist) {
			continue
		}
		var rc struct {
			Identifier int64           `json:"identifier"`
			SnapshotID int64           `json:"snapshotId"`
			CommitKind spec.CommitKind `json:"commitKind"`
		}
		if err == nil {
			err = json.Unmarshal(data, &rc)
		}
		if err != nil {
			c.fail("receipt of %s: %v", user, err)
			continue
		}
		s := c.snapshot(rc.SnapshotID)
		if s == nil || s.CommitUser != user || s.CommitIdentifier != rc.Identifier || (rc.CommitKind != "" && s.CommitKind != rc.CommitKind) {
			c.fail("receipt of %s claims identifier %d %s in snapshot %d, which is %s", user, rc.Identifier, rc.CommitKind, rc.SnapshotID, describe(s))
		}
	}
}

// checkReads replays the log on the model and the counter model, and
// compares every snapshot with both.
func (c *checker) checkReads(ctx context.Context) error {
	tbl, err := table.Open(ctx, c.env.mem, c.env.dir)
	if err != nil {
		return err
	}
	m, counters := newModel(c.env.cfg.pk), newCounterModel()
	// Once the table diverges, every later snapshot differs too: report
	// the first few in full.
	const maxReported = 3
	mismatches := 0
	defer func() {
		if mismatches > maxReported {
			c.fail("... %d more snapshots differ from the model", mismatches-maxReported)
		}
	}()
	for _, s := range c.snaps {
		if b := c.batches[batchKey{s.CommitUser, s.CommitIdentifier}]; b != nil {
			m.apply(b, partOfKind(s.CommitKind))
			c.problems = append(c.problems, counters.apply(s, b)...)
		}
		rows, err := readAt(ctx, tbl, s.ID)
		if err != nil {
			c.fail("read snapshot %d: %v", s.ID, err)
			continue
		}
		c.problems = append(c.problems, counters.check(s, rows)...)
		got := renderRows(rows)
		if want := m.render(); !slices.Equal(got, want) {
			if mismatches++; mismatches > maxReported {
				continue
			}
			c.fail("snapshot %d (%s/%d %s): read differs from the model\n%s", s.ID, s.CommitUser, s.CommitIdentifier, s.CommitKind, diffRows(got, want))
		}
	}
	return nil
}

func readAt(ctx context.Context, tbl *table.Table, id int64) ([][]any, error) {
	rows, err := tbl.Read(ctx, table.ReadOptions{At: snapshot.TimeTravel{SnapshotID: id}})
	if err != nil {
		return nil, err
	}
	return table.ReadAll(rows)
}

// renderRows renders rows as the model renders its records, sorted.
func renderRows(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = renderRow(r)
	}
	slices.Sort(out)
	return out
}

// diffRows lists the rows only one side has (counting duplicates).
func diffRows(got, want []string) string {
	count := map[string]int{}
	for _, r := range got {
		count[r]++
	}
	for _, r := range want {
		count[r]--
	}
	var b strings.Builder
	for _, r := range slices.Sorted(maps.Keys(count)) {
		switch n := count[r]; {
		case n > 0:
			fmt.Fprintf(&b, "  unexpected %s (x%d)\n", r, n)
		case n < 0:
			fmt.Fprintf(&b, "  missing    %s (x%d)\n", r, -n)
		}
	}
	return b.String()
}
