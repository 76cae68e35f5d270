//go:build interop

package interop

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// flinkSQL is a step (or a case's create) that runs Flink SQL in batch
// mode with the Flink runner (flink/: Flink 1.20, paimon-flink-1.20 1.3.1)
// on the case's warehouse, in the case's database: for tables only Flink
// can write, such as dynamic-bucket and cross-partition-upsert tables, whose
// keys Flink's bucket assigners place (the Java tool's write(row) refuses
// them). Each statement ends with a semicolon at the end of a line; each
// INSERT, UPDATE or DELETE is a Flink job of its own, one commit.
func flinkSQL(statements string) string {
	return flinkSQLStep + statements
}

// flinkSQLTimeout bounds one step's run: a JVM and a MiniCluster per step,
// a job per statement, on a shared 2-core machine.
const flinkSQLTimeout = 10 * time.Minute

// flinkBatch runs a flinkSQL step. Its SQL file and log stay in the
// warehouse (flink-<case>-step-<n>.sql, .log; keep the warehouse with
// LAKESQL_INTEROP_WAREHOUSE).
func flinkBatch(t *testing.T, wh string, c tableCase, step int, statements string) {
	t.Helper()
	dir := flinkTool(t)
	base := filepath.Join(wh, fmt.Sprintf("flink-%s-step-%d", c.name, step))
	writeFile(t, base+".sql", "USE "+c.name+";\n"+statements+"\n")
	start := time.Now()
	// No restarts: the runner's default restart strategy would retry a
	// failing job every second, a thousand times, instead of failing.
	p := startFlink(t, dir, base+".log", "--warehouse", wh, "--file", base+".sql", "--batch",
		"--config", "restart-strategy.type=none")
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("FLINK-SQL step %d of %s: %v\n%s", step, c.name, err, flinkFailure(base+".log"))
		}
	case <-time.After(flinkSQLTimeout):
		p.kill()
		t.Fatalf("FLINK-SQL step %d of %s: still running after %s\n%s", step, c.name, flinkSQLTimeout, flinkFailure(base+".log"))
	}
	t.Logf("FLINK-SQL step %d: %s (log %s.log)", step, time.Since(start).Round(time.Second), base)
}

// logLines are the lines of a log file (none if it cannot be read: the
// failure being reported matters more).
func logLines(log string) []string {
	b, _ := os.ReadFile(log)
	return strings.Split(string(b), "\n")
}

// flinkFailure is the runner's own error line (which Flink's shutdown
// messages bury) and the log's tail.
func flinkFailure(log string) string {
	var errs []string
	for _, l := range logLines(log) {
		if strings.HasPrefix(l, "flink-interop: ") {
			errs = append(errs, l)
		}
	}
	return fmt.Sprintf("%s\nlog %s, last lines:\n%s", strings.Join(errs, "\n"), log, tail(log, 30))
}
