package spec

import (
	"errors"
	"testing"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

func TestPartitionDirOfSerializedRow(t *testing.T) {
	s := &TableSchema{
		Fields: []DataField{
			{ID: 0, Name: "dt", Type: DataType{Root: VarChar, Length: MaxVarLength}},
			{ID: 1, Name: "hr", Type: DataType{Root: Int}},
			{ID: 2, Name: "v", Type: DataType{Root: BigInt, Nullable: true}},
		},
		PartitionKeys: []string{"dt", "hr"},
	}
	types, err := s.PartitionTypes()
	if err != nil || len(types) != 2 || !types[0].Nullable || types[1].Root != Int {
		t.Fatalf("PartitionTypes = %v, %v; want nullable STRING and INT", types, err)
	}
	row, err := SerializeBinaryRow(types, []any{"2026-04-16", int32(7)})
	if err != nil {
		t.Fatal(err)
	}
	if dir, err := s.PartitionDir(row); err != nil || dir != "dt=2026-04-16/hr=7" {
		t.Errorf("PartitionDir = %q, %v; want dt=2026-04-16/hr=7", dir, err)
	}
	if dir, err := (&TableSchema{}).PartitionDir(nil); err != nil || dir != "" {
		t.Errorf("PartitionDir of an unpartitioned table = %q, %v; want empty", dir, err)
	}
	s.PartitionKeys = []string{"nope"}
	if _, err := s.PartitionDir(row); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("a partition key that names no column: %v, want corruption", err)
	}
}
