package ingest

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// BenchmarkReadPaymentLines reads and converts tab-separated payment
// lines as LOAD DATA does: b.N lines, reported per line.
func BenchmarkReadPaymentLines(b *testing.B) {
	var input bytes.Buffer
	for i := range b.N {
		fmt.Fprintf(&input, "2024-01-%02d\t%d\t%d\tapp\tSUCCESS\t%d.%02d\n", 1+i%28, i, i%5000, i%10000, i%100)
	}
	fields := []spec.DataField{
		{Name: "dt", Type: spec.DataType{Root: spec.Date}},
		{Name: "pay_id", Type: spec.DataType{Root: spec.BigInt}},
		{Name: "user_id", Type: spec.DataType{Root: spec.BigInt, Nullable: true}},
		{Name: "channel", Type: spec.DataType{Root: spec.VarChar, Length: 16, Nullable: true}},
		{Name: "status", Type: spec.DataType{Root: spec.VarChar, Length: 16, Nullable: true}},
		{Name: "amount", Type: spec.DataType{Root: spec.Decimal, Precision: 18, Scale: 2, Nullable: true}},
	}
	target, _ := NewTarget(fields, []int{0, 1, 2, 3, 4, 5})
	r, err := NewReader(&input, DefaultFormat())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(input.Len() / max(b.N, 1)))
	b.ResetTimer()
	for n := int64(1); ; n++ {
		line, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		if _, err := target.Row(line, n); err != nil {
			b.Fatal(err)
		}
	}
}
