package sqlbackend

import (
	"testing"

	"github.com/dolthub/go-mysql-server/sql/analyzer"

	"github.com/lakesql/lakesql/storage/fileio/memio"
)

// TestRuleIDsAreUnique: lakesql's analyzer rules come from this package
// and from gmsfix, each numbering its own above GMS's; GMS's rule
// selectors pick rules by id, so two rules sharing one would be run or
// skipped together.
func TestRuleIDsAreUnique(t *testing.T) {
	a := NewEngine(New(Options{FileIO: memio.New(), Warehouse: "wh"}), nil).Analyzer
	seen := map[analyzer.RuleId]bool{}
	for _, b := range a.Batches {
		for _, r := range b.Rules {
			if r.Id < 10_000 {
				continue
			}
			if seen[r.Id] {
				t.Errorf("rule id %d is used twice", r.Id)
			}
			seen[r.Id] = true
		}
	}
	if len(seen) < 30 {
		t.Errorf("found %d of lakesql's rules; the walk missed some", len(seen))
	}
}
