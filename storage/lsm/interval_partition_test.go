package lsm

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// parseIntervals reads Paimon IntervalPartitionTest notation, "[100, 200],
// [100, 400]", into files keyed by one INT column.
func parseIntervals(t *testing.T, s string) []FileMeta[string] {
	t.Helper()
	var files []FileMeta[string]
	for _, m := range regexp.MustCompile(`\[(\d+), (\d+)]`).FindAllStringSubmatch(s, -1) {
		lo, _ := strconv.Atoi(m[1])
		hi, _ := strconv.Atoi(m[2])
		files = append(files, FileMeta[string]{MinKey: ints(lo), MaxKey: ints(hi), Payload: m[0]})
	}
	return files
}

// formatSections prints sections one per line, runs separated by " | ",
// the notation of the Java test's expected answers.
func formatSections(sections [][]SortedRun[string]) string {
	lines := make([]string, len(sections))
	for i, section := range sections {
		runs := make([]string, len(section))
		for j, run := range section {
			files := make([]string, len(run))
			for k, f := range run {
				files[k] = f.Payload
			}
			runs[j] = strings.Join(files, ", ")
		}
		lines[i] = strings.Join(runs, " | ")
	}
	return strings.Join(lines, "\n")
}

func TestPartitionIntervals(t *testing.T) {
	cases := []struct{ name, in, want string }{
		// The three cases of org.apache.paimon.mergetree.compact.IntervalPartitionTest.
		{"same min key", "[100, 200], [100, 400], [100, 300], [100, 500]",
			"[100, 200] | [100, 300] | [100, 400] | [100, 500]"},
		{"same max key", "[100, 500], [300, 500], [200, 500], [400, 500]",
			"[100, 500] | [200, 500] | [300, 500] | [400, 500]"},
		{"section partitioning", "[0, 9], [5, 7], [9, 15], [16, 22], [16, 28], [24, 32]",
			"[0, 9] | [5, 7], [9, 15]\n[16, 22], [24, 32] | [16, 28]"},
		{"empty", "", ""},
		{"single file", "[1, 2]", "[1, 2]"},
		{"touching ranges share a section", "[1, 5], [5, 9]", "[1, 5] | [5, 9]"},
		{"disjoint files are separate sections", "[6, 9], [1, 5]", "[1, 5]\n[6, 9]"},
		{"run reused after it ends", "[0, 10], [1, 2], [3, 12], [11, 15]", "[0, 10], [11, 15] | [1, 2], [3, 12]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := formatSections(PartitionIntervals(parseIntervals(t, tc.in), compareTestRows))
			if got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestPartitionIntervalsRandom is the Java randomTest: files cut from N
// non-overlapping runs must partition into at most N runs per section; it
// also checks every run is sorted, sections do not overlap and no file is
// lost.
func TestPartitionIntervalsRandom(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 1))
	for iter := range 100 {
		numRuns := 1 + rng.IntN(10)
		var files []FileMeta[string]
		for range numRuns {
			bounds := rng.Perm(1000)[:2*(1+rng.IntN(10))]
			slices.Sort(bounds)
			for j := 0; j < len(bounds); j += 2 {
				files = append(files, FileMeta[string]{MinKey: ints(bounds[j]), MaxKey: ints(bounds[j+1]),
					Payload: fmt.Sprintf("[%d, %d]", bounds[j], bounds[j+1])})
			}
		}
		sections := PartitionIntervals(files, compareTestRows)
		if err := checkSections(sections, len(files), numRuns); err != nil {
			t.Fatalf("iteration %d: %v\n%s", iter, err, formatSections(sections))
		}
	}
}

func checkSections(sections [][]SortedRun[string], numFiles, maxRuns int) error {
	seen := 0
	var prevMax []any
	for _, section := range sections {
		if len(section) > maxRuns {
			return fmt.Errorf("section has %d runs, want at most %d", len(section), maxRuns)
		}
		var lo, hi []any
		for _, run := range section {
			for i, f := range run {
				if i > 0 && compareTestRows(f.MinKey, run[i-1].MaxKey) <= 0 {
					return fmt.Errorf("run %v overlaps", run)
				}
				if lo == nil || compareTestRows(f.MinKey, lo) < 0 {
					lo = f.MinKey
				}
				if hi == nil || compareTestRows(f.MaxKey, hi) > 0 {
					hi = f.MaxKey
				}
				seen++
			}
		}
		if prevMax != nil && compareTestRows(lo, prevMax) <= 0 {
			return fmt.Errorf("section starting %v overlaps the previous one ending %v", lo, prevMax)
		}
		prevMax = hi
	}
	if seen != numFiles {
		return fmt.Errorf("%d files in sections, want %d", seen, numFiles)
	}
	return nil
}

func TestPartitionIntervalsKeepsInput(t *testing.T) {
	files := parseIntervals(t, "[5, 9], [1, 2]")
	want := append([]FileMeta[string](nil), files...)
	PartitionIntervals(files, compareTestRows)
	if !reflect.DeepEqual(files, want) {
		t.Fatalf("input reordered: %v", files)
	}
}
