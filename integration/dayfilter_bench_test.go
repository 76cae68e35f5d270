package integration

import (
	"database/sql"
	"fmt"
	"path"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/storage/spec"
)

// BenchmarkDayFilter runs issue 16's Q1 and Q2 over the wire on a payment
// table of 3 days × 400 K rows with a DATE partition key:
//
//	Q1 SELECT COUNT(*), SUM(amount) FROM pay WHERE dt = D AND status = 'SUCCESS'
//	Q2 SELECT channel, status, COUNT(*), SUM(amount) FROM pay WHERE dt = D GROUP BY channel, status
//
// Both filters are decided by the scan; the benchmark shows what GMS still
// spends above it (issue 16 measured half of Q2 re-evaluating dt = D).
func BenchmarkDayFilter(b *testing.B) {
	const days, perDay = 3, 400_000
	warehouse := path.Join(b.TempDir(), "warehouse")
	s := startServer(b, serverConfig(warehouse))
	db := s.Connect(b, "root", "")
	servertest.Exec(b, db, "CREATE DATABASE bench", "USE bench",
		`CREATE TABLE pay (dt DATE NOT NULL, pay_id BIGINT NOT NULL, user_id BIGINT, channel VARCHAR(16),
			status VARCHAR(16), amount DECIMAL(18,2), PRIMARY KEY (dt, pay_id))
			PARTITION BY LIST COLUMNS (dt) SUBPARTITION BY KEY (pay_id) SUBPARTITIONS 4`)
	const firstDay = 19_723 // 2024-01-01
	channels := []string{"app", "web", "pos", "api"}
	statuses := []string{"SUCCESS", "SUCCESS", "SUCCESS", "FAILED", "PENDING"}
	var successCount, successCents int64
	writeJoinBenchTable(b, path.Join(warehouse, "bench.db", "pay"), days, perDay, func(d, i int) []any {
		cents := int64(i%10_000 + 1)
		status := statuses[i%len(statuses)]
		if d == 1 && status == "SUCCESS" {
			successCount++
			successCents += cents
		}
		return []any{spec.DateValue(firstDay + d), int64(d*1_000_000 + i), int64(i % 50_000),
			channels[i%len(channels)], status, spec.NewDecimal(cents, 2)}
	})
	db.SetMaxOpenConns(1)
	servertest.Exec(b, db, "USE bench")
	q1 := "SELECT COUNT(*), SUM(amount) FROM pay WHERE dt = '2024-01-02' AND status = 'SUCCESS'"
	want1 := fmt.Sprintf("%d %d.%02d", successCount, successCents/100, successCents%100)
	q2 := "SELECT channel, status, COUNT(*), SUM(amount) FROM pay WHERE dt = '2024-01-02' GROUP BY channel, status"
	b.Run("Q1", func(b *testing.B) {
		for range b.N {
			if got := queryLine(b, db, q1); got != want1 {
				b.Fatalf("Q1: %s, want %s", got, want1)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/query")
	})
	b.Run("Q2", func(b *testing.B) {
		for range b.N {
			if n := countRows(b, db, q2); n != len(channels)*3 {
				b.Fatalf("Q2: %d groups, want %d", n, len(channels)*3)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/query")
	})
}

// countRows runs q and counts its rows.
func countRows(b *testing.B, db *sql.DB, q string) int {
	b.Helper()
	rows, err := db.Query(q)
	if err != nil {
		b.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	return n
}
