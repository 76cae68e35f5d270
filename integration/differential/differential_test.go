package differential

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/randsql"
)

var (
	flagSeeds    = flag.Int("diff.seeds", 0, "number of seeds to run, from -diff.first on (0 skips the random cases)")
	flagFirst    = flag.Uint64("diff.first", 1, "first seed")
	flagSeed     = flag.Uint64("diff.seed", 0, "run only this seed")
	flagLong     = flag.Bool("diff.long", false, "run 10,000 seeds from -diff.first on")
	flagMinimize = flag.Int("diff.minimize", 8, "minimize at most this many findings in all")
	flagEach     = flag.Int("diff.each", 1, "minimize the first this many findings of each signature")
	flagOut      = flag.String("diff.out", "", "write every minimized case as a script into this directory (copy the ones to keep into testdata/regressions)")
	flagTrials   = flag.Int("diff.trials", 150, "at most this many set-ups of the data per minimization")
	flagOpen     = flag.Bool("diff.open", false, "also replay testdata/regressions/open, the cases lakesql still answers wrongly")
)

// longSeeds is the number of seeds -diff.long runs.
const longSeeds = 10_000

// findingsShown is how many findings of one signature the log shows in
// full (at least the ones minimized); the rest are counted.
const findingsShown = 3

// seeds are the seeds to run: fixed by default, so that every run of go
// test checks the same cases.
func seeds() []uint64 {
	if *flagSeed != 0 {
		return []uint64{*flagSeed}
	}
	n := *flagSeeds
	if *flagLong {
		n = longSeeds
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = *flagFirst + uint64(i)
	}
	return out
}

// TestDifferential runs the seeds' cases on lakesql (rewrites on and
// off) and MariaDB, and fails on every disagreement, minimizing the first
// of each signature into a script.
func TestDifferential(t *testing.T) {
	if len(seeds()) == 0 {
		// Until lakesql agrees on every generated case, the random seeds
		// run when asked (.ci/differential, -diff.seeds); the kept cases
		// of TestRegressions run always.
		t.Skip("no seeds: run with -diff.seeds N, -diff.seed S or -diff.long")
	}
	engines := startEngines(t)
	found := &findings{bySignature: map[string][]string{}}
	for _, seed := range seeds() {
		c := randsql.Generate(seed)
		out, err := engines.Run(t.Context(), c.Program(), databaseName(fmt.Sprintf("s%d", seed)))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, stmt := range out.Invalid {
			t.Errorf("seed %d: every engine refuses a generated statement (a generator bug): %s", seed, stmt)
		}
		for _, f := range out.Findings {
			found.report(t, engines, c, f)
		}
	}
	found.summarize(t)
}

// findings tallies the findings of a run by signature.
type findings struct {
	bySignature map[string][]string // signature → "seed N at …" of each
	minimized   int
}

// report fails the test with the finding, and minimizes it when it is
// among the first -diff.each of its signature.
func (fs *findings) report(t *testing.T, e *randsql.Engines, c *randsql.Case, f *randsql.Finding) {
	t.Helper()
	sig := f.Signature()
	fs.bySignature[sig] = append(fs.bySignature[sig], fmt.Sprintf("seed %d %s", c.Seed, f.Where))
	n := len(fs.bySignature[sig])
	if n > max(findingsShown, *flagEach) {
		t.Fail()
		return
	}
	t.Errorf("seed %d: %s", c.Seed, f)
	if n <= *flagEach && fs.minimized < *flagMinimize {
		fs.minimized++
		minimize(t, e, c, f)
	}
}

// minimize shrinks the finding's case and logs its script, also writing
// it under -diff.out.
func minimize(t *testing.T, e *randsql.Engines, c *randsql.Case, f *randsql.Finding) {
	t.Helper()
	m := &randsql.Minimizer{Engines: e, DB: databaseName("min"), MaxDataTrials: *flagTrials}
	small, smallFinding, err := m.Minimize(t.Context(), c, f)
	what := "minimized case"
	switch {
	case errors.Is(err, randsql.ErrNotReproduced):
		what = "case (not minimized: " + err.Error() + ")"
	case err != nil:
		t.Errorf("seed %d: minimizing: %v", c.Seed, err)
		return
	}
	script := randsql.Script(small, smallFinding)
	t.Logf("seed %d: %s of %q:\n%s", c.Seed, what, f.Signature(), script)
	if *flagOut != "" {
		writeScript(t, *flagOut, fmt.Sprintf("seed%d-%s.sql", c.Seed, strings.ReplaceAll(f.Where, " ", "")), script)
	}
}

func writeScript(t *testing.T, dir, name, script string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
}

// summarize logs how often each signature showed up, and where.
func (fs *findings) summarize(t *testing.T) {
	for _, sig := range slices.Sorted(maps.Keys(fs.bySignature)) {
		where := fs.bySignature[sig]
		t.Logf("%d× %s (first: %s)", len(where), sig, strings.Join(where[:min(len(where), 5)], "; "))
	}
}

// TestRegressions replays the minimized cases kept under
// testdata/regressions, comparing as for generated queries: lakesql's two
// modes always, and MariaDB when LAKESQL_MARIADB_DSN is set. The cases
// under testdata/regressions/open are the disagreements not fixed yet:
// -diff.open replays them too, and a fix moves its case up a directory.
func TestRegressions(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "regressions", "*.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if *flagOpen {
		open, err := filepath.Glob(filepath.Join("testdata", "regressions", "open", "*.sql"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, open...)
	}
	if len(files) == 0 {
		t.Skip("no regression cases kept yet")
	}
	engines := startEngines(t)
	for i, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".sql"), func(t *testing.T) {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			p, err := randsql.ParseScript(string(text))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			out, err := engines.Run(t.Context(), p, databaseName(fmt.Sprintf("r%d", i)))
			if err != nil {
				t.Fatal(err)
			}
			if engines.MariaDB != nil {
				for _, stmt := range out.Invalid {
					t.Errorf("every engine refuses: %s", stmt)
				}
			}
			for _, f := range out.Findings {
				t.Errorf("%s", f)
			}
		})
	}
}
