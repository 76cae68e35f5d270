package metamorphic

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

var (
	flagSeed  = flag.Uint64("metamorphic.seed", 0, "run only this seed")
	flagOps   = flag.String("metamorphic.ops", "", "replay this ops file (TestMetamorphicReplay)")
	flagLong  = flag.Bool("metamorphic.long", false, "run many random seeds with longer workloads")
	flagSeeds = flag.Int("metamorphic.seeds", 20, "random seeds per configuration with -metamorphic.long")
	flagKeep  = flag.String("metamorphic.keep", "", "write every run's ops list and history under this directory")
)

// defaultSeeds run on every go test: fixed, so CI is reproducible. The
// long mode draws random ones and prints them.
var defaultSeeds = []uint64{1, 2}

// configs are the table shapes: a primary-key table with 1, 2 and 4
// buckets and writers owning disjoint keys; one whose writers share keys
// ordered by sequence.field; one whose writers give up after one retry;
// and an append table.
func configs(writers, batches int) []config {
	return []config{
		{pk: true, buckets: 1, writers: writers, batches: batches},
		{pk: true, buckets: 2, writers: writers, batches: batches},
		{pk: true, buckets: 4, writers: writers, batches: batches},
		{pk: true, buckets: 2, sharedKeys: true, writers: writers, batches: batches},
		{pk: true, buckets: 2, maxRetries: 1, writers: writers, batches: batches},
		{pk: false, buckets: -1, writers: writers, batches: batches},
	}
}

// TestMetamorphic runs seeded workloads of concurrent writers on each
// configuration, serially (the op list is the schedule) and concurrently
// (one goroutine per writer), and checks the table against the model.
func TestMetamorphic(t *testing.T) {
	writers, batches := 4, 8
	if *flagLong {
		writers, batches = 5, 20
	}
	seeds := defaultSeeds
	switch {
	case *flagSeed != 0:
		seeds = []uint64{*flagSeed}
	case *flagLong:
		seeds = nil
		base := uint64(time.Now().UnixNano())
		for i := range *flagSeeds {
			seeds = append(seeds, base+uint64(i))
		}
	}
	for _, cfg := range configs(writers, batches) {
		t.Run(cfg.name(), func(t *testing.T) {
			for _, seed := range seeds {
				cfg.seed = seed
				t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
					ops := roundTrip(t, cfg, generate(cfg))
					for _, mode := range []string{"serial", "concurrent"} {
						t.Run(mode, func(t *testing.T) { runAndCheck(t, cfg, ops, mode == "concurrent") })
					}
				})
			}
		})
	}
}

// TestMetamorphicReplay replays the ops file of -metamorphic.ops, in both
// modes.
func TestMetamorphicReplay(t *testing.T) {
	if *flagOps == "" {
		t.Skip("no -metamorphic.ops file to replay")
	}
	replay(t, *flagOps)
}

// TestMetamorphicRegressions replays the minimized ops files of failures
// found before, kept under testdata/regressions, in both modes.
func TestMetamorphicRegressions(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "regressions", "*.ops"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no regression ops files (err %v)", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".ops"), func(t *testing.T) { replay(t, file) })
	}
}

// replay runs the ops file in both modes.
func replay(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cfg, ops, err := parseOps(string(data))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	for _, mode := range []string{"serial", "concurrent"} {
		t.Run(mode, func(t *testing.T) { runAndCheck(t, cfg, ops, mode == "concurrent") })
	}
}

// roundTrip renders the generated ops and parses them back: the runner
// executes only what the text says, so the text reproduces the run.
func roundTrip(t *testing.T, cfg config, ops []op) []op {
	t.Helper()
	text := formatOps(cfg, ops)
	parsedCfg, parsed, err := parseOps(text)
	if err != nil {
		t.Fatalf("generated ops do not parse: %v", err)
	}
	if parsedCfg.spec() != cfg.spec() || formatOps(parsedCfg, parsed) != text {
		t.Fatalf("ops text does not round-trip")
	}
	return parsed
}

func runAndCheck(t *testing.T, cfg config, ops []op, concurrent bool) {
	t.Logf("config %s, %d ops; reproduce: %s", cfg.spec(), len(ops), reproduceCommand(t, cfg))
	e, err := newEnv(cfg, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	batches, runErr := runOps(e, ops, concurrent)
	var problems []string
	if runErr != nil {
		problems = append(problems, "run: "+runErr.Error())
	} else {
		problems = check(context.Background(), e, batches, concurrent)
	}
	t.Log(summarize(batches))
	if *flagKeep != "" || len(problems) > 0 {
		dir := saveRun(t, cfg, ops, batches, concurrent)
		if len(problems) > 0 {
			t.Fatalf("seed %d, config %s: %d problems (ops and history in %s)\nreproduce: %s\nreplay: go test ./storage/metamorphic -run 'TestMetamorphicReplay' -metamorphic.ops=%s\n%s",
				cfg.seed, cfg.spec(), len(problems), dir, reproduceCommand(t, cfg), filepath.Join(dir, "ops.txt"), strings.Join(problems, "\n"))
		}
	}
}

func reproduceCommand(t *testing.T, cfg config) string {
	if *flagOps != "" {
		return fmt.Sprintf("go test ./storage/metamorphic -run '^%s$' -metamorphic.ops=%s -v", t.Name(), *flagOps)
	}
	long := ""
	if *flagLong {
		long = " -metamorphic.long"
	}
	return fmt.Sprintf("go test ./storage/metamorphic -run '^%s$' -metamorphic.seed=%d%s -v", t.Name(), cfg.seed, long)
}

// saveRun writes the ops list and the history of a run, and returns the
// directory.
func saveRun(t *testing.T, cfg config, ops []op, batches []*batch, concurrent bool) string {
	root := *flagKeep
	if root == "" {
		root = os.TempDir()
	}
	mode := "serial"
	if concurrent {
		mode = "concurrent"
	}
	dir := filepath.Join(root, fmt.Sprintf("lakesql-metamorphic-%s-%d-%s", cfg.name(), cfg.seed, mode))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Errorf("saving the run: %v", err)
		return dir
	}
	for name, text := range map[string]string{"ops.txt": formatOps(cfg, ops), "history.txt": history(batches)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Errorf("saving the run: %v", err)
		}
	}
	return dir
}

// history renders what each commit call returned, by writer.
func history(batches []*batch) string {
	var b strings.Builder
	for _, bt := range batches {
		fmt.Fprintf(&b, "%s/%d base=%d records=%d", bt.user, bt.id, bt.base, len(bt.records))
		if bt.attempt > 0 {
			fmt.Fprintf(&b, " re-run %d of %s/%d", bt.attempt, bt.user, bt.stmt)
		}
		if bt.upgraded != nil {
			fmt.Fprintf(&b, " upgrades=%s@%s/bucket-%d", bt.upgraded.meta.FileName, bt.upgraded.dt, bt.upgraded.bucket)
		}
		b.WriteString("\n")
		for _, c := range bt.calls {
			fmt.Fprintf(&b, "  op %d %s -> %s", c.op.index, c.op, c.res)
			if c.err != nil {
				fmt.Fprintf(&b, "; error: %v", c.err)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// summarize counts the outcomes of the run's commit calls, so that a log
// shows the workload reached the paths it is meant to (conflicts, unknown
// outcomes, retries found landed).
func summarize(batches []*batch) string {
	counts := map[string]int{}
	for _, b := range batches {
		for _, c := range b.calls {
			counts[outcomeOf(c)]++
		}
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, counts[k]))
	}
	return "calls: " + strings.Join(parts, " ")
}

func outcomeOf(c *call) string {
	var ce *commit.ConflictError
	var re *commit.RetryExhaustedError
	switch {
	case c.err == nil && c.res.AlreadyCommitted():
		return "already-committed"
	case c.err == nil && len(c.res.Snapshots) == 2:
		return "published-2"
	case c.err == nil && c.res.AlreadyCommittedIn != 0:
		return "published-rest"
	case c.err == nil:
		return "published"
	case errors.As(c.err, &ce):
		return "conflict-" + strings.ReplaceAll(ce.Kind.String(), " ", "-")
	case errors.As(c.err, &re):
		return "retry-exhausted"
	case errors.Is(c.err, lakeerr.ErrUnknownOutcome):
		return "unknown-outcome"
	}
	return "other-error"
}
