//go:build interop

package interop

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"testing"
	"time"
)

// sharedCatalog returns the options of the catalog every writer of a
// co-write test opens: Paimon's JDBC catalog with lock.enabled, on the
// PostgreSQL that .ci/postgres started (LAKESQL_POSTGRES_*), under a
// catalog key of the test's own. Java, Flink and lakesql then publish
// every snapshot under one lock (issue 14, part 4; FINDINGS.md F22).
func sharedCatalog(t *testing.T) map[string]string {
	t.Helper()
	uri := os.Getenv("LAKESQL_POSTGRES_JDBC")
	if uri == "" {
		t.Fatal("LAKESQL_POSTGRES_JDBC is not set: run .ci/interop, or eval \"$(.ci/postgres start)\" first")
	}
	return map[string]string{
		"metastore":     "jdbc",
		"uri":           uri,
		"jdbc.user":     os.Getenv("LAKESQL_POSTGRES_USER"),
		"jdbc.password": os.Getenv("LAKESQL_POSTGRES_PASSWORD"),
		"catalog-key":   fmt.Sprintf("interop-%d", time.Now().UnixNano()),
		"lock.enabled":  "true",
	}
}

// flinkCatalogArgs passes catalog options to the Flink runner.
func flinkCatalogArgs(options map[string]string) []string {
	var args []string
	for _, k := range slices.Sorted(maps.Keys(options)) {
		args = append(args, "--catalog-option", fmt.Sprintf("%s=%s", k, options[k]))
	}
	return args
}

// javaCatalogArg passes catalog options to the Java tool (--catalog JSON).
func javaCatalogArg(t *testing.T, options map[string]string) []string {
	data, err := json.Marshal(options)
	if err != nil {
		t.Fatal(err)
	}
	return []string{"--catalog", string(data)}
}
