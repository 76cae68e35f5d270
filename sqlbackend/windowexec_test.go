package sqlbackend

import "testing"

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
