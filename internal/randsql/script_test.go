package randsql

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestScriptRoundTrip: a script parses back into the program it was
// written from: the set-up lines for each engine and the failing check
// with its plan.
func TestScriptRoundTrip(t *testing.T) {
	for seed := range uint64(30) {
		c := Generate(seed)
		c.Queries = c.Queries[:1]
		p := c.Program()
		query := p.Checks[len(p.Checks)-1]
		f := &Finding{Where: "query 0", Query: 0, SQL: query.SQL,
			Diffs: []PairDiff{{A: SessionLakeSQL, B: SessionMariaDB, Mismatch: &Mismatch{Kind: "rows", Detail: "planted"}}},
			Answers: []Answer{
				{SessionLakeSQL, answer([]string{"BIGINT"}, []string{"1"})},
				{SessionMariaDB, &Result{Err: errors.New("Error 1105: boom\nsecond line")}},
			}}
		script := Script(c, f)
		back, err := ParseScript(script)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, script)
		}
		if !slices.Equal(back.Setup, p.Setup) {
			t.Fatalf("seed %d: set-up differs after the round trip:\n%s", seed, script)
		}
		if len(back.Checks) != 1 || back.Checks[0].SQL != query.SQL ||
			!slices.Equal(back.Checks[0].Plan.SortKeys, query.Plan.SortKeys) ||
			!slices.Equal(back.Checks[0].Plan.AvgDecimal, query.Plan.AvgDecimal) {
			t.Fatalf("seed %d: check differs after the round trip: %+v vs %+v", seed, back.Checks, query)
		}
		if !strings.Contains(script, "--   error: Error 1105: boom second line") {
			t.Fatalf("seed %d: answers missing from the script:\n%s", seed, script)
		}
	}
}

// TestScriptOfASetupFindingKeepsTheDumps: a set-up finding has no query;
// its script checks every table's dump.
func TestScriptOfASetupFindingKeepsTheDumps(t *testing.T) {
	c := Generate(1)
	c.Queries = nil
	f := &Finding{Where: "setup 3", Query: -1, Setup: true,
		Diffs: []PairDiff{{A: SessionLakeSQL, Mismatch: &Mismatch{Kind: "error", Detail: "planted"}}}}
	back, err := ParseScript(Script(c, f))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Checks) != len(c.Tables) || !back.Checks[0].Dump {
		t.Fatalf("want one dump per table, got %+v", back.Checks)
	}
}

func TestParseScriptRefusesGarbage(t *testing.T) {
	for _, text := range []string{
		"SELECT 1",                              // no semicolon
		"/* check sort=x */ SELECT 1;",          // bad plan
		"/* lakesql */ CREATE TABLE t (k INT);", // no check
	} {
		if _, err := ParseScript(text); err == nil {
			t.Errorf("parsed %q", text)
		}
	}
}
