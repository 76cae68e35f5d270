package randsql

import (
	"errors"
	"testing"
)

// TestJudgeSetup: how each outcome of a set-up statement counts.
func TestJudgeSetup(t *testing.T) {
	boom := errors.New("boom")
	both := Line{SQL: "UPDATE t1 SET k = 1", LakeSQL: true, MariaDB: true}
	call := Line{SQL: "CALL sys.compact('t1')", LakeSQL: true}
	create := Line{SQL: "CREATE TABLE t1 (k INT)", MariaDB: true}
	lake := func(n int64, err error) Answer { return Answer{SessionLakeSQL, affected(n, err)} }
	maria := func(n int64, err error) Answer { return Answer{SessionMariaDB, affected(n, err)} }
	tests := []struct {
		name                      string
		line                      Line
		answers                   []Answer
		finding, invalid, diverge bool
	}{
		{"agree", both, []Answer{lake(2, nil), maria(2, nil)}, false, false, false},
		{"rows affected differ", both, []Answer{lake(1, nil), maria(2, nil)}, true, false, false},
		{"lakesql fails", both, []Answer{lake(0, boom), maria(2, nil)}, true, false, true},
		{"both fail", both, []Answer{lake(0, boom), maria(0, boom)}, false, true, false},
		{"write fails without MariaDB", both, []Answer{lake(0, boom)}, true, false, true},
		{"procedure fails", call, []Answer{lake(0, boom)}, true, false, false},
		{"MariaDB refuses its DDL", create, []Answer{maria(0, boom)}, false, true, true},
		{"no MariaDB for its DDL", create, nil, false, false, false},
	}
	for _, tc := range tests {
		f, invalid, diverged := judgeSetup(0, tc.line, tc.answers)
		if (f != nil) != tc.finding || invalid != tc.invalid || diverged != tc.diverge {
			t.Errorf("%s: finding %v, invalid %v, diverged %v; want %v, %v, %v", tc.name, f != nil, invalid, diverged, tc.finding, tc.invalid, tc.diverge)
		}
	}
}
