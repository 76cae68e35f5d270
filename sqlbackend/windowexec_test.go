package sqlbackend

import (
	"strings"
	"testing"
)

// windowConn is a session in database w with table t (k, id, rate, amt):
// two rows share id 31, two share rate 2.625 (equal DECIMALs read into
// different objects), two have a NULL rate.
func windowConn(t *testing.T) *conn {
	t.Helper()
	c := newHarness(t, t.TempDir()).connect()
	c.mustExec("CREATE DATABASE w", "USE w",
		"CREATE TABLE t (k INT NOT NULL, id BIGINT, rate DECIMAL(9,3), amt DECIMAL(12,2))",
		"CREATE TABLE empty_t (k INT, id BIGINT, score DOUBLE)",
		`INSERT INTO t VALUES (6, 31, NULL, 65.75), (-2, 31, NULL, 22.00),
			(1, 32, 2.625, 1.00), (1, 30, 2.625, 2.00)`)
	return c
}

// A window function adds a column to its block's rows, never a row: over
// no rows there is no row, where GMS answered one row of NULL or
// panicked (index out of range) in its RANGE framer.
func TestWindowOverNoRows(t *testing.T) {
	c := windowConn(t)
	for _, q := range []string{
		"SELECT COUNT(*) OVER (ORDER BY score) FROM empty_t",
		"SELECT DENSE_RANK() OVER (ORDER BY b.score DESC) FROM empty_t a JOIN empty_t b ON TRUE",
		"SELECT ROW_NUMBER() OVER (), SUM(k) OVER () FROM empty_t",
		"SELECT k, SUM(k) OVER (ORDER BY id) FROM t WHERE k > 100",
	} {
		wantQueryRows(t, c, q, nil)
	}
}

// With ORDER BY and no frame clause the frame is RANGE BETWEEN UNBOUNDED
// PRECEDING AND CURRENT ROW: rows equal on every ORDER BY key (NULLs
// too) are peers and share one value, for every aggregate; GMS ran a
// ROWS frame (SUM, MIN), the whole partition (MAX) or a RANGE over the
// first key only (COUNT).
func TestWindowDefaultFrameIncludesPeers(t *testing.T) {
	c := windowConn(t)
	wantQueryRows(t, c, `SELECT id, k, SUM(k) OVER (ORDER BY id), MAX(k) OVER (ORDER BY id),
		MIN(k) OVER (ORDER BY id DESC), COUNT(*) OVER (ORDER BY rate, amt) FROM t`, []string{
		"[30 1 1 1 -2 4]",
		"[31 -2 5 6 -2 1]",
		"[31 6 5 6 -2 2]",
		"[32 1 6 6 1 3]",
	})
	wantQueryRows(t, c, "SELECT amt, SUM(amt) OVER (PARTITION BY rate ORDER BY rate) FROM t", []string{
		"[1.00 3.00]", "[2.00 3.00]", "[22.00 87.75]", "[65.75 87.75]",
	})
	// An explicit ROWS frame stays a ROWS frame.
	wantQueryRows(t, c, "SELECT id, k, SUM(k) OVER (ORDER BY id, k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t", []string{
		"[30 1 1]", "[31 -2 -1]", "[31 6 4]", "[32 1 7]",
	})
}

// RANK and DENSE_RANK number peer groups: equal DECIMALs are peers even
// when read into different objects (GMS compared them with Go's !=).
func TestWindowRankPeers(t *testing.T) {
	c := windowConn(t)
	wantQueryRows(t, c, `SELECT id, RANK() OVER (ORDER BY rate DESC), DENSE_RANK() OVER (ORDER BY rate),
		NTILE(2) OVER (ORDER BY id, k), ROW_NUMBER() OVER (ORDER BY id, k) FROM t`, []string{
		"[30 1 2 1 1]", "[31 3 1 1 2]", "[31 3 1 2 3]", "[32 1 2 2 4]",
	})
}

// An explicit RANGE frame frames by value, as MySQL (and MariaDB, which
// these answers come from) does: CURRENT ROW is the peer group, n
// PRECEDING and FOLLOWING the keys within n in the sort's direction, a
// NULL key's bounds its NULL peers. GMS answered over the whole partition.
func TestWindowRangeFrames(t *testing.T) {
	c := newHarness(t, t.TempDir()).connect()
	c.mustExec("CREATE DATABASE r", "USE r", "CREATE TABLE t (i INT, dt DATE, d DECIMAL(6,2))",
		`INSERT INTO t VALUES (1, '2024-01-01', 1.5), (2, '2024-01-01', 2), (4, '2024-01-02', NULL),
			(8, '2024-01-04', 3.25), (16, NULL, 4), (32, NULL, 7)`)
	wantQueryRows(t, c, `SELECT i,
		SUM(i) OVER (ORDER BY dt RANGE CURRENT ROW),
		SUM(i) OVER (ORDER BY d RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING),
		COUNT(*) OVER (ORDER BY d DESC RANGE BETWEEN 1 PRECEDING AND CURRENT ROW),
		SUM(i) OVER (ORDER BY d RANGE BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING),
		SUM(i) OVER (ORDER BY i RANGE BETWEEN 3 PRECEDING AND 1 PRECEDING),
		SUM(i) OVER (ORDER BY dt, i RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
		SUM(i) OVER (ORDER BY dt RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND CURRENT ROW) FROM t`, []string{
		"[1 3 3 2 56 <nil> 15 3]",
		"[16 48 24 1 32 <nil> 63 48]",
		"[2 3 3 1 56 1 14 3]",
		"[32 48 32 1 <nil> <nil> 47 48]",
		"[4 4 4 1 63 3 12 7]",
		"[8 8 24 2 32 <nil> 8 8]",
	})
	for _, q := range []string{
		"SELECT SUM(i) OVER (ORDER BY dt, i RANGE 1 PRECEDING) FROM t",
		"SELECT SUM(i) OVER (ORDER BY dt RANGE 1 PRECEDING) FROM t",
		"SELECT SUM(i) OVER (ORDER BY d RANGE INTERVAL 1 DAY PRECEDING) FROM t",
	} {
		if _, err := c.query(q); err == nil || !strings.Contains(strings.ToUpper(err.Error()), "RANGE") {
			t.Errorf("%s: got %v, want MySQL's RANGE frame error", q, err)
		}
	}
}
