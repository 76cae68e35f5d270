package scan

import (
	"testing"

	"github.com/lakesql/lakesql/storage/spec"
)

// Which bounds Extremes may take as values: the stats mode a file's value
// column was written with, and whether bounds under it may be truncated.
func TestExactBounds(t *testing.T) {
	str := spec.DataType{Root: spec.VarChar, Nullable: true, Length: spec.MaxVarLength}
	fields := []spec.DataField{{ID: 0, Name: "id", Type: str.WithNullable(false)}, {ID: 1, Name: "note", Type: str},
		{ID: 2, Name: "raw", Type: spec.DataType{Root: spec.VarBinary, Nullable: true, Length: spec.MaxVarLength}}}
	long := "abcdefghijklmnopqrstuvwxyz"
	tests := []struct {
		name    string
		pk      bool
		options map[string]string
		level   int
		field   int
		lo, hi  any
		exact   bool
	}{
		{"default truncate(16), short strings", false, nil, 0, 1, "a", "abcdefghijklmno", true},
		{"default truncate(16), 16 characters may be cut", false, nil, 0, 1, "a", "abcdefghijklmnoq", false},
		{"16 multi-byte characters may be cut", false, nil, 0, 1, "a", "ééééééééééééééééé"[:32], false},
		{"15 multi-byte characters are whole", false, nil, 0, 1, "a", "ééééééééééééééé", true},
		{"full", false, map[string]string{"metadata.stats-mode": "full"}, 0, 1, long, long, true},
		{"field mode over table mode", false, map[string]string{"metadata.stats-mode": "full",
			"fields.note.stats-mode": "truncate(16)"}, 0, 1, long[:16], long[:16], false},
		{"binary under truncate: a rounded-up max drops 0xff bytes", false, nil, 0, 2, []byte{1}, []byte{2}, false},
		{"binary under full", false, map[string]string{"metadata.stats-mode": "full"}, 0, 2, []byte{1}, []byte{2}, true},
		{"counts keeps no bounds", false, map[string]string{"metadata.stats-mode": "counts"}, 0, 1, "a", "b", false},
		{"per level mode of the file's level", true, map[string]string{"metadata.stats-mode.per.level": "2:full"},
			2, 1, long, long, true},
		{"per level, another level", true, map[string]string{"metadata.stats-mode.per.level": "2:full"},
			1, 1, long, long, false},
		{"key column held to truncate(128) (thin-mode files)", true, map[string]string{"metadata.stats-mode": "full"},
			0, 0, long, long, true},
		{"key column of 128 characters may be cut", true, map[string]string{"metadata.stats-mode": "full"},
			0, 0, "a", string(make([]byte, 128)), false},
	}
	for _, tt := range tests {
		s := &spec.TableSchema{Fields: fields, Options: tt.options}
		if tt.pk {
			s.PrimaryKeys = []string{"id"}
		}
		mode, err := valueStatsMode(s, tt.field, tt.level)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := exactUnder(mode, tt.lo, tt.hi); got != tt.exact {
			t.Errorf("%s: mode %+v, exact = %v, want %v", tt.name, mode, got, tt.exact)
		}
	}
}
