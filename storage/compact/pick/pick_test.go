package pick

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestPick runs the datadriven cases in testdata/. Commands:
//
//	universal trigger= max-size-amp= size-ratio= num-levels= [offpeak-ratio=]
//	          [force-up-level-0] [total-size-threshold=] [incremental-size-threshold=]
//	          [full] [force-rewrite-all]
//	  input: one line per level, "L<level> name:size ...", level-0 files
//	  newest first (each is a run), then levels >= 1 (each line one run).
//	create-unit levels=0,0,1 count= num-levels=
//	  the output level of a unit of the first count runs (one file each).
//	size-ratio (options as universal)
//	  only the size-ratio rule, over the runs of the input.
//	size-amp-steps / size-ratio-steps trigger= max-size-amp= size-ratio= steps= start=1,2
//	  Java's appendAndPickForSizeAmp / appendAndPickForSizeRatio sequences:
//	  each step adds a newest run of size 1 and applies one pick.
//	bucketed-append min-file-num= target= [full]
//	unaware-append target= compaction-file-size= open-file-cost= min-file-num= [full]
//	  input: one file per line, "name size [min-seq]".
func TestPick(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "universal":
				return runUniversal(t, d)
			case "create-unit":
				return runCreateUnit(t, d)
			case "size-ratio":
				return runSizeRatio(t, d)
			case "size-amp-steps":
				return runSteps(t, d, sizeAmpStep)
			case "size-ratio-steps":
				return runSteps(t, d, sizeRatioStep)
			case "bucketed-append":
				return runBucketedAppend(t, d)
			case "unaware-append":
				return runUnawareAppend(t, d)
			}
			t.Fatalf("unknown command %q", d.Cmd)
			return ""
		})
	})
}

func universalOf(t *testing.T, d *datadriven.TestData) Universal {
	return Universal{
		NumLevels:                   intArg(t, d, "num-levels", 6),
		Trigger:                     intArg(t, d, "trigger", 5),
		MaxSizeAmplificationPercent: intArg(t, d, "max-size-amp", 200),
		SizeRatio:                   intArg(t, d, "size-ratio", 1),
		OffPeakRatio:                intArg(t, d, "offpeak-ratio", 0),
		ForceUpLevel0:               d.HasArg("force-up-level-0"),
		TotalSizeThreshold:          int64(intArg(t, d, "total-size-threshold", 0)),
		IncrementalSizeThreshold:    int64(intArg(t, d, "incremental-size-threshold", 0)),
	}
}

func runUniversal(t *testing.T, d *datadriven.TestData) string {
	u := universalOf(t, d)
	runs := parseRuns(t, d.Input)
	var unit Unit
	var ok bool
	if d.HasArg("full") {
		unit, ok = u.PickFull(runs, d.HasArg("force-rewrite-all"))
	} else {
		unit, ok = u.Pick(runs)
	}
	if !ok {
		return "none\n"
	}
	return formatUnit(unit, true)
}

func formatUnit(u Unit, withLevel bool) string {
	names := make([]string, len(u.Files))
	for i, f := range u.Files {
		names[i] = f.Name
	}
	if !withLevel {
		return fmt.Sprintf("%s: %s\n", u.Reason, strings.Join(names, " "))
	}
	return fmt.Sprintf("%s: %s -> L%d\n", u.Reason, strings.Join(names, " "), u.OutputLevel)
}

// parseRuns reads "L<level> name:size ..." lines.
func parseRuns(t *testing.T, input string) []Run {
	var runs []Run
	for _, line := range strings.Split(strings.TrimSpace(input), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		level, err := strconv.Atoi(strings.TrimPrefix(fields[0], "L"))
		if err != nil {
			t.Fatalf("bad level in %q", line)
		}
		var files []File
		for _, spec := range fields[1:] {
			name, size, ok := strings.Cut(spec, ":")
			n, err := strconv.ParseInt(size, 10, 64)
			if !ok || err != nil {
				t.Fatalf("bad file %q", spec)
			}
			files = append(files, File{Name: name, Level: level, Size: n})
		}
		if level == 0 {
			for _, f := range files {
				runs = append(runs, Run{Level: 0, Files: []File{f}})
			}
			continue
		}
		runs = append(runs, Run{Level: level, Files: files})
	}
	return runs
}

func runCreateUnit(t *testing.T, d *datadriven.TestData) string {
	u := Universal{NumLevels: intArg(t, d, "num-levels", 6)}
	var runs []Run
	for i, l := range intsArg(t, d, "levels") {
		runs = append(runs, Run{Level: int(l), Files: []File{{Name: fmt.Sprintf("r%d", i), Level: int(l), Size: 1}}})
	}
	unit := u.createUnit(runs, intArg(t, d, "count", 1), FileNum)
	return fmt.Sprintf("%d runs -> L%d\n", len(unit.Files), unit.OutputLevel)
}

// runSizeRatio applies only the size-ratio rule, as Java's
// UniversalCompactionTest.testSizeRatioThreshold does.
func runSizeRatio(t *testing.T, d *datadriven.TestData) string {
	u := universalOf(t, d)
	runs := parseRuns(t, d.Input)
	if len(runs) < u.Trigger {
		return "none\n"
	}
	unit, ok := u.pickForSizeRatio(runs, 1, false, SizeRatio)
	if !ok {
		return "none\n"
	}
	return formatUnit(unit, true)
}

// runSteps prints the run sizes after each step of a sequence.
func runSteps(t *testing.T, d *datadriven.TestData, step func(Universal, []int64) []int64) string {
	u := universalOf(t, d)
	sizes := intsArg(t, d, "start")
	var out strings.Builder
	for i := 0; i < intArg(t, d, "steps", 1); i++ {
		sizes = step(u, append([]int64{1}, sizes...))
		fmt.Fprintln(&out, sizes)
	}
	return out.String()
}

// sizeAmpStep applies the size-amplification rule to level-0 runs.
func sizeAmpStep(u Universal, sizes []int64) []int64 {
	runs := make([]Run, len(sizes))
	for i, s := range sizes {
		runs[i] = Run{Level: 0, Files: []File{{Level: 0, Size: s}}}
	}
	if _, ok := u.pickForSizeAmp(runs); ok {
		var sum int64
		for _, s := range sizes {
			sum += s
		}
		return []int64{sum}
	}
	return sizes
}

// sizeRatioStep applies the size-ratio rule to runs on levels 0, 1, 2...
// and replaces the picked runs by their merge, newest first.
func sizeRatioStep(u Universal, sizes []int64) []int64 {
	if len(sizes) < u.Trigger {
		return sizes
	}
	runs := make([]Run, len(sizes))
	for i, s := range sizes {
		runs[i] = Run{Level: i, Files: []File{{Level: i, Size: s}}}
	}
	u.NumLevels = len(sizes) + 1
	unit, ok := u.pickForSizeRatio(runs, 1, false, SizeRatio)
	if !ok {
		return sizes
	}
	var sum int64
	for _, f := range unit.Files {
		sum += f.Size
	}
	return append([]int64{sum}, sizes[len(unit.Files):]...)
}

func runBucketedAppend(t *testing.T, d *datadriven.TestData) string {
	b := BucketedAppend{MinFileNum: intArg(t, d, "min-file-num", 5), TargetFileSize: int64(intArg(t, d, "target", 100))}
	files := parseFiles(t, d.Input)
	if d.HasArg("full") {
		unit, ok := b.PickFull(files, d.HasArg("force-rewrite-all"))
		if !ok {
			return "none\n"
		}
		return formatUnit(unit, false)
	}
	return formatUnits(b.Pick(files))
}

func runUnawareAppend(t *testing.T, d *datadriven.TestData) string {
	u := UnawareAppend{
		TargetFileSize:     int64(intArg(t, d, "target", 100)),
		CompactionFileSize: int64(intArg(t, d, "compaction-file-size", 70)),
		OpenFileCost:       int64(intArg(t, d, "open-file-cost", 0)),
		MinFileNum:         intArg(t, d, "min-file-num", 5),
	}
	files := parseFiles(t, d.Input)
	if d.HasArg("full") {
		return formatUnits(u.PickFull(files, d.HasArg("force-rewrite-all")))
	}
	return formatUnits(u.Pick(files))
}

func formatUnits(units []Unit) string {
	if len(units) == 0 {
		return "none\n"
	}
	var out strings.Builder
	for _, u := range units {
		out.WriteString(formatUnit(u, false))
	}
	return out.String()
}

// parseFiles reads "name size [min-seq]" lines.
func parseFiles(t *testing.T, input string) []File {
	var files []File
	for _, line := range strings.Split(strings.TrimSpace(input), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			t.Fatalf("bad file line %q", line)
		}
		f := File{Name: fields[0]}
		var err error
		if f.Size, err = strconv.ParseInt(fields[1], 10, 64); err != nil {
			t.Fatal(err)
		}
		if len(fields) > 2 {
			if f.MinSeq, err = strconv.ParseInt(fields[2], 10, 64); err != nil {
				t.Fatal(err)
			}
		}
		files = append(files, f)
	}
	return files
}

func intArg(t *testing.T, d *datadriven.TestData, key string, def int) int {
	if !d.HasArg(key) {
		return def
	}
	var v int
	d.ScanArgs(t, key, &v)
	return v
}

func intsArg(t *testing.T, d *datadriven.TestData, key string) []int64 {
	var raw string
	d.ScanArgs(t, key, &raw)
	var out []int64
	for _, s := range strings.Split(raw, ",") {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		out = append(out, n)
	}
	return slices.Clip(out)
}
