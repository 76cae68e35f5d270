package sqllogictest

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// floorsFile records, per vendored script, how many records lakesql passed
// when it was last raised: a run that passes fewer fails.
const floorsFile = corpusDir + "/floors.txt"

const floorsHeader = `# Per vendored script: the number of records lakesql passes at least.
# go test ./integration/sqllogictest/ fails when a script passes fewer.
# Rewritten by: go test ./integration/sqllogictest/ -slt.all -slt.update-floors
# Raise these as lakesql improves; a lower number needs a reason in review.
`

func readFloors(t *testing.T) map[string]int {
	floors := map[string]int{}
	f, err := os.Open(floorsFile)
	if os.IsNotExist(err) && *updateFloors {
		return floors
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		file, count, ok := strings.Cut(line, " ")
		passed, err := strconv.Atoi(strings.TrimSpace(count))
		if !ok || err != nil {
			t.Fatalf("%s:%d: want \"<script> <passed>\", got %q", floorsFile, n, line)
		}
		floors[file] = passed
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return floors
}

// writeFloors replaces the floors of the scripts this run covered, keeps
// those of the other vendored scripts and drops those of scripts no longer
// vendored.
func writeFloors(t *testing.T, floors map[string]int, runs []fileRun) {
	for _, run := range runs {
		floors[run.file] = run.lake.summary.Passed
	}
	for file := range floors {
		if _, err := os.Stat(filepath.Join(corpusDir, file+".gz")); os.IsNotExist(err) {
			delete(floors, file)
		}
	}
	var b strings.Builder
	b.WriteString(floorsHeader)
	for _, file := range slices.Sorted(maps.Keys(floors)) {
		fmt.Fprintf(&b, "%s %d\n", file, floors[file])
	}
	if err := os.WriteFile(floorsFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
