package metamorphic

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// counterModel follows the counters of incr rows along the log for the
// lost-update checks. The row model cannot see a lost update: it replays
// the values the writers wrote, and two increments of one read write the
// same value. This one counts increments instead: a counter must read the
// number of increments that landed since it was last absent, and a
// landed increment must have read a snapshot at or after the last one
// that changed its key (first-committer-wins). Only incr rows and
// overwrites of its partition (which empty it) change a counter: the
// generator keeps blind rows off counter keys, so that no blind write
// needs a rule here.
type counterModel struct {
	count map[counterKey]int64
	// lastWrite is the last snapshot that changed each counter.
	lastWrite map[counterKey]*spec.Snapshot
	// diverged holds the counters already reported: every later snapshot
	// inherits a divergence.
	diverged map[counterKey]bool
}

func newCounterModel() *counterModel {
	return &counterModel{count: map[counterKey]int64{}, lastWrite: map[counterKey]*spec.Snapshot{}, diverged: map[counterKey]bool{}}
}

func (k counterKey) String() string { return fmt.Sprintf("(%s, %d)", k.dt, k.pk) }

// apply replays snapshot s, which b published, and returns the increments
// of b that landed over a change of their key after b's base.
func (m *counterModel) apply(s *spec.Snapshot, b *batch) []string {
	if partOfKind(s.CommitKind) == partCompact {
		return nil
	}
	if b.overwrite {
		target := b.target()
		for k, n := range m.count {
			if n > 0 && target[k.dt] {
				m.count[k], m.lastWrite[k] = 0, s
			}
		}
	}
	var problems []string
	for _, r := range b.records {
		if !r.incr {
			continue
		}
		k := counterKey{r.dt, r.pk}
		if last := m.lastWrite[k]; last != nil && last.ID > b.base {
			problems = append(problems, fmt.Sprintf("lost update: %s/%d in snapshot %d incremented %v as read at snapshot %d, but snapshot %d (%s/%d %s) changed it in between",
				b.user, b.id, s.ID, k, b.base, last.ID, last.CommitUser, last.CommitIdentifier, last.CommitKind))
		}
		m.count[k]++
		m.lastWrite[k] = s
	}
	return problems
}

// check compares the counters in rows, read at snapshot s, with the
// increments that landed up to s.
func (m *counterModel) check(s *spec.Snapshot, rows [][]any) []string {
	read := map[counterKey]int64{}
	for _, row := range rows {
		dt, _ := row[0].(string)
		pk, _ := row[1].(int64)
		if k := (counterKey{dt, pk}); m.lastWrite[k] != nil {
			read[k], _ = row[2].(int64)
		}
	}
	var problems []string
	for _, k := range slices.SortedFunc(maps.Keys(m.count), compareCounters) {
		if m.diverged[k] || read[k] == m.count[k] {
			continue
		}
		m.diverged[k] = true
		problems = append(problems, fmt.Sprintf("lost update: counter %v reads %d at snapshot %d, want %d: the increments landed since it was last absent (the last in snapshot %d)",
			k, read[k], s.ID, m.count[k], m.lastWrite[k].ID))
	}
	return problems
}

func compareCounters(a, b counterKey) int {
	return cmp.Or(strings.Compare(a.dt, b.dt), cmp.Compare(a.pk, b.pk))
}
