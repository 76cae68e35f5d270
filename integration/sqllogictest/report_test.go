package sqllogictest

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/sqllogictest"
)

// report logs the per-file table and writes it, and the failed records,
// where the flags ask.
func report(t *testing.T, runs []fileRun) {
	table := markdownTable(runs)
	t.Log("\n" + table)
	if *reportPath != "" {
		if err := os.WriteFile(*reportPath, []byte(table), 0o644); err != nil {
			t.Error(err)
		}
	}
	if *failuresPath != "" {
		if err := os.WriteFile(*failuresPath, []byte(failureList(runs)), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// markdownTable has a row per script and a total row, lakesql's columns
// first and MariaDB's after them when it ran.
func markdownTable(runs []fileRun) string {
	withMaria := len(runs) > 0 && runs[0].maria != nil
	var b strings.Builder
	b.WriteString("| script | lakesql executed | passed | failed | skipped | slow | disconnects | slowest | time |")
	if withMaria {
		b.WriteString(" MariaDB executed | passed | failed | skipped | slow | disconnects | slowest | time |")
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---:|", 8))
	if withMaria {
		b.WriteString(strings.Repeat("---:|", 8))
	}
	b.WriteString("\n")
	var lake, maria outcome
	for _, run := range runs {
		lake.add(run.lake)
		fmt.Fprintf(&b, "| %s |%s", run.file, cells(run.lake))
		if run.maria != nil {
			maria.add(*run.maria)
			b.WriteString(cells(*run.maria))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "| **total** |%s", cells(lake))
	if withMaria {
		b.WriteString(cells(maria))
	}
	b.WriteString("\n")
	if withMaria {
		fmt.Fprintf(&b, "\nPass rate of the executed records: lakesql %s, MariaDB %s.\n", passRate(lake.summary), passRate(maria.summary))
	} else {
		fmt.Fprintf(&b, "\nPass rate of the executed records: lakesql %s.\n", passRate(lake.summary))
	}
	return b.String()
}

// add accumulates o into a total.
func (total *outcome) add(o outcome) {
	total.summary.Add(o.summary)
	total.elapsed += o.elapsed
}

func cells(o outcome) string {
	s := o.summary
	slowest := s.Slowest.Round(time.Millisecond).String()
	if s.SlowestLine > 0 {
		slowest += fmt.Sprintf(" (line %d)", s.SlowestLine)
	}
	return fmt.Sprintf(" %d | %d | %d | %d | %d | %d | %s | %s |", s.Executed, s.Passed, s.Failed, s.Skipped, s.Slow, s.Disconnects, slowest, o.elapsed.Round(100*time.Millisecond))
}

func passRate(s sqllogictest.Summary) string {
	if s.Executed == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.3f%%", 100*float64(s.Passed)/float64(s.Executed))
}

// failureList has one entry per failed or slow record: engine, script and
// line, the reason, and the SQL.
func failureList(runs []fileRun) string {
	var b strings.Builder
	for _, run := range runs {
		writeFailures(&b, "lakesql", run.file, run.lake.results)
		if run.maria != nil {
			writeFailures(&b, "MariaDB", run.file, run.maria.results)
		}
	}
	return b.String()
}

func writeFailures(b *strings.Builder, engine, file string, results []sqllogictest.Result) {
	for _, r := range results {
		slow := r.Duration > sqllogictest.SlowRecord
		if r.Outcome != sqllogictest.Failed && !slow {
			continue
		}
		reason := r.Reason
		if r.Outcome != sqllogictest.Failed {
			reason = "passed, but slow"
		}
		fmt.Fprintf(b, "%s %s:%d (%s): %s\n", engine, file, r.Line, r.Duration.Round(time.Millisecond), reason)
		fmt.Fprintf(b, "\t%s\n", strings.ReplaceAll(r.SQL, "\n", "\n\t"))
	}
}
