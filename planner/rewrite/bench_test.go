package rewrite

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// BenchmarkRewrite measures the per-query cost Rewrite adds before GMS
// parses: the no-match cases must not allocate.
func BenchmarkRewrite(b *testing.B) {
	var batch strings.Builder
	batch.WriteString("INSERT INTO lake.payments (id, merchant_id, amount, currency, dt) VALUES ")
	for i := range 100 {
		if i > 0 {
			batch.WriteString(", ")
		}
		fmt.Fprintf(&batch, "(%d, %d, %d.25, 'CNY', '2026-04-16')", i, i%7, i*3)
	}
	for _, bc := range []struct{ name, query string }{
		{"no-match/select", "SELECT id, amount FROM lake.payments WHERE dt = '2026-04-16' AND merchant_id = 42 ORDER BY id LIMIT 100"},
		{"no-match/insert-100-rows", batch.String()},
		{"no-match/as-of-passthrough", "SELECT * FROM t FOR VERSION AS OF 5 JOIN u AS OF '2026-04-16 10:00:00' ON t.a = u.a"},
		{"rewrite/for-timestamp", "SELECT * FROM t FOR TIMESTAMP AS OF '2026-04-16 10:00:00' AS x WHERE x.a > 1"},
		{"rewrite/insert-overwrite", "INSERT OVERWRITE TABLE lake.payments PARTITION (dt='2026-04-16') SELECT id, amount FROM staging"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.query)))
			for b.Loop() {
				if _, err := Rewrite(bc.query); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParseAsOf(b *testing.B) {
	for _, bc := range []struct {
		name  string
		value any
	}{
		{"snapshot-id", "12345"},
		{"datetime-string", "2026-04-16 10:00:00.123"},
		{"time.Time", time.Date(2026, 4, 16, 10, 0, 0, 0, time.UTC)},
		{"tag", "daily_2026_04_16"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseAsOf(bc.value, shanghai); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
