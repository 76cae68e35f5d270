package scantest

import (
	"context"
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/storage/catalog"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// Payments shapes a generated payment table: primary key (dt, pay_id),
// partitioned by day, compacted (every file at the top level, each bucket
// one sorted run), one commit per day.
type Payments struct {
	Days, Buckets, FilesPerBucket, RowsPerFile int
	// FirstDay is the first dt, as days since the epoch.
	FirstDay int
}

// PaymentStatuses are the values of status: 80% SUCCESS.
var PaymentStatuses = []string{"SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "FAILED", "PENDING"}

// PaymentID returns the i-th pay_id of a day: ids are unique across days.
func (p Payments) PaymentID(day, i int) int64 {
	return int64(day)*int64(p.rowsPerDay()) + int64(i)
}

func (p Payments) rowsPerDay() int { return p.Buckets * p.FilesPerBucket * p.RowsPerFile }

// Amount is the amount in cents of a payment.
func Amount(payID int64) int64 { return payID * 7919 % 100_000 }

// Status is the status of a payment.
func Status(payID int64) string { return PaymentStatuses[payID*31%int64(len(PaymentStatuses))] }

// WritePayments creates and fills db.payments.
func WritePayments(ctx context.Context, fs fileio.FileIO, warehouse string, p Payments) (*Table, error) {
	str := spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
	t, err := Create(ctx, fs, warehouse, "db", "payments", catalog.TableDefinition{
		Fields: []spec.DataField{
			{Name: "dt", Type: spec.DataType{Root: spec.Date}},
			{Name: "pay_id", Type: spec.DataType{Root: spec.BigInt}},
			{Name: "merchant", Type: str},
			{Name: "amount", Type: spec.DataType{Root: spec.BigInt, Nullable: true}},
			{Name: "status", Type: str},
		},
		PartitionKeys: []string{"dt"},
		PrimaryKeys:   []string{"dt", "pay_id"},
		Options:       map[string]string{"bucket": fmt.Sprint(p.Buckets), "metadata.stats-mode": "full"},
	})
	if err != nil {
		return nil, err
	}
	for d := range p.Days {
		if err := t.writeDay(ctx, p, p.FirstDay+d); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// writeDay writes one day: the day's ids routed to their buckets, each
// bucket cut into files of consecutive ids.
func (t *Table) writeDay(ctx context.Context, p Payments, day int) error {
	byBucket := make([][]int64, p.Buckets)
	for i := range p.rowsPerDay() {
		id := p.PaymentID(day, i)
		b, err := bucketOf(id, p.Buckets)
		if err != nil {
			return err
		}
		byBucket[b] = append(byBucket[b], id)
	}
	var changes []Change
	for b, ids := range byBucket {
		slices.Sort(ids)
		c := Change{Bucket: int32(b), TotalBuckets: int32(p.Buckets)}
		for start := 0; start < len(ids); start += p.RowsPerFile {
			f, err := t.WriteFile(ctx, []any{spec.DateValue(day)}, int32(b), 5, paymentRecords(day, ids[start:min(start+p.RowsPerFile, len(ids))]))
			if err != nil {
				return err
			}
			c.Partition = f.Partition
			c.Add = append(c.Add, f.Meta)
		}
		if len(c.Add) > 0 {
			changes = append(changes, c)
		}
	}
	_, err := t.Commit(ctx, changes)
	return err
}

func paymentRecords(day int, ids []int64) []Record {
	out := make([]Record, len(ids))
	for i, id := range ids {
		out[i] = Record{Kind: spec.RowKindInsert, Values: []any{
			spec.DateValue(day), id, fmt.Sprintf("m%03d", id%997), Amount(id), Status(id)}}
	}
	return out
}

// bucketOf is the bucket of a pay_id, the table's bucket key.
func bucketOf(id int64, buckets int) (int, error) {
	row, err := spec.EncodeBinaryRow([]spec.DataType{{Root: spec.BigInt}}, []any{id}, spec.RowKindInsert)
	if err != nil {
		return 0, err
	}
	return spec.Bucket(row, buckets)
}

// OneDayFilter is the reconciliation benchmark's WHERE clause over the
// payment schema s: `dt = day AND status = 'SUCCESS'`. Every side of the
// benchmark builds its filter here, so they all measure the same query.
func OneDayFilter(s *spec.TableSchema, day int) (predicate.Predicate, error) {
	dt, err := predicate.Leaf(predicate.ColumnOf(0, s.Fields[0]), predicate.OpEq, spec.DateValue(day))
	if err != nil {
		return nil, err
	}
	status, err := predicate.Leaf(predicate.ColumnOf(4, s.Fields[4]), predicate.OpEq, "SUCCESS")
	if err != nil {
		return nil, err
	}
	return predicate.And(dt, status), nil
}
