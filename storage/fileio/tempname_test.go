package fileio

import "testing"

func TestIsTempName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{".snapshot-3.0b9e5a52-6a0c-4b53-a1f3-5a1c1f6f0f3e.tmp", true},
		{"/warehouse/db.db/t/snapshot/.LATEST.c1.tmp", true},
		{"warehouse/.tmp", false},
		{"snapshot-3", false},
		{".data-1.parquet.crc", false},
		{"data-1.tmp", false},
		{"/warehouse/.hidden/snapshot-1", false},
	} {
		if got := IsTempName(tc.name); got != tc.want {
			t.Errorf("IsTempName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
