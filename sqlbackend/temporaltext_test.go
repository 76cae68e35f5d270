package sqlbackend

import (
	"slices"
	"testing"
)

// TestTemporalValuesAsText: string functions, LIKE and CAST AS CHAR see a
// DATE, DATETIME(3) and TIME as MySQL prints them. The answers are MariaDB
// 10.11's for the same statements.
func TestTemporalValuesAsText(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.connect()
	for _, q := range []string{
		"CREATE DATABASE tt",
		"CREATE TABLE tt.t (id INT PRIMARY KEY, dt DATE, ts DATETIME(3), tm TIME, note VARCHAR(10))",
		"INSERT INTO tt.t VALUES (1, '2024-01-05', '2024-01-02 06:30:00.5', '10:11:12', NULL), (2, '2024-02-01', '2024-02-01 00:00:00', '-01:00:00', NULL)",
		"UPDATE tt.t SET note = 'jan' WHERE dt LIKE '2024-01%'",
	} {
		c.mustQuery(q)
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"SELECT CONCAT(dt, '|', ts, '|', tm) FROM tt.t ORDER BY id", []string{"[2024-01-05|2024-01-02 06:30:00.500|10:11:12]", "[2024-02-01|2024-02-01 00:00:00.000|-01:00:00]"}},
		{"SELECT CAST(dt AS CHAR), CAST(ts AS CHAR), CAST(tm AS CHAR) FROM tt.t WHERE id = 1", []string{"[2024-01-05 2024-01-02 06:30:00.500 10:11:12]"}},
		{"SELECT LENGTH(dt), UPPER(dt), REPLACE(dt, '-', ''), LEFT(ts, 7), MD5(dt) FROM tt.t WHERE id = 1", []string{"[10 2024-01-05 20240105 2024-01 323c5117b1edc8ae79283a7eb1ff9201]"}},
		{"SELECT id FROM tt.t WHERE dt LIKE '2024-01%'", []string{"[1]"}},
		{"SELECT id, note FROM tt.t ORDER BY id", []string{"[1 jan]", "[2 <nil>]"}},
		{"SELECT GROUP_CONCAT(dt ORDER BY dt), GROUP_CONCAT(tm ORDER BY tm SEPARATOR ';') FROM tt.t", []string{"[2024-01-05,2024-02-01 -01:00:00;10:11:12]"}},
	} {
		if got := format(c.mustQuery(tc.query)); !slices.Equal(got, tc.want) {
			t.Errorf("%s\n got %v\nwant %v", tc.query, got, tc.want)
		}
	}
}
