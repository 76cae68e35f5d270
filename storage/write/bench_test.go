package write

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/tabletest"
	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/spec"
)

// paymentTable is the CDC-landed payment table of the benchmark.
func paymentTable() catalog.TableDefinition {
	ts3 := spec.DataType{Root: spec.Timestamp, Nullable: true, Precision: 3}
	return catalog.TableDefinition{
		Fields: []spec.DataField{
			field("pay_id", bigintType), field("order_id", bigintType), field("user_id", bigintType),
			field("amount", spec.DataType{Root: spec.Decimal, Nullable: true, Precision: 18, Scale: 2}),
			field("currency", stringType), field("status", stringType), field("channel", stringType),
			field("created_at", ts3), field("updated_at", ts3), field("dt", stringType),
		},
		PartitionKeys: []string{"dt"}, PrimaryKeys: []string{"dt", "pay_id"},
		Options: map[string]string{"bucket": "8"},
	}
}

// paymentRows is a batch of payment changes in arrival order: pay ids are
// shuffled, two days are interleaved, and a tenth are updates.
func paymentRows(n int) []tabletest.Record {
	rng := rand.New(rand.NewPCG(3, 5))
	currencies := []string{"USD", "EUR", "CNY", "JPY"}
	statuses := []string{"CREATED", "PAID", "REFUNDED", "FAILED"}
	channels := []string{"alipay", "wechat", "card", "paypal", "bank_transfer"}
	out := make([]tabletest.Record, n)
	for i := range out {
		created := int64(1_717_000_000_000) + int64(rng.IntN(86_400_000))
		row := []any{int64(rng.IntN(n * 4)), int64(rng.IntN(1 << 40)), int64(rng.IntN(1 << 24)),
			spec.NewDecimal(int64(rng.IntN(10_000_000)), 2), currencies[rng.IntN(4)], statuses[rng.IntN(4)],
			channels[rng.IntN(5)], spec.TimestampValue{Millis: created}, spec.TimestampValue{Millis: created + 1500},
			fmt.Sprintf("2024-06-%02d", 1+i%2)}
		out[i] = tabletest.Insert(row...)
		if i%10 == 0 {
			out[i].Kind = spec.RowKindUpdateAfter
		}
	}
	return out
}

// BenchmarkIngestPaymentRows measures rows through Write, PrepareCommit and
// Commit on memio, one commit per batch.
func BenchmarkIngestPaymentRows(b *testing.B) {
	const batch = 50_000
	records := paymentRows(batch)
	tt := newTestTable(b, paymentTable())
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	cpuStart, cpuOK := processCPUTime()
	for range b.N {
		w, err := Open(ctx, tt.options())
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range records {
			if err := w.Write(ctx, r.Row, r.Kind); err != nil {
				b.Fatal(err)
			}
		}
		tt.commit(tt.prepare(w))
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	rows := float64(b.N * batch)
	b.ReportMetric(rows/b.Elapsed().Seconds(), "rows/s")
	if cpuEnd, ok := processCPUTime(); ok && cpuOK {
		b.ReportMetric(rows/(cpuEnd-cpuStart).Seconds(), "rows/cpu-s")
	}
}
