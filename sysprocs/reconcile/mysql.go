package reconcile

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// SourceConfig is a source database as the server's configuration file
// names it: where it is and how to log in. Credentials live there, never
// in SQL text.
type SourceConfig struct {
	Host     string `json:"host"`
	Port     int    `json:"port"`
	User     string `json:"user"`
	Password string `json:"password"`
	// TLS is go-sql-driver's tls parameter: "true", "skip-verify",
	// "preferred" or empty for none.
	TLS string `json:"tls"`
	// Socket, when set, is a Unix socket used instead of host and port.
	Socket string `json:"socket"`
}

// Open returns a pool of connections to the source. Statements with
// arguments are sent as text, as those without are: every value then
// arrives as the text MySQL prints for it, which is what the comparison
// compares.
func (c SourceConfig) Open() (*sql.DB, error) {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd = c.User, c.Password
	cfg.Net, cfg.Addr = "tcp", net.JoinHostPort(c.Host, strconv.Itoa(cmp(c.Port, 3306)))
	if c.Socket != "" {
		cfg.Net, cfg.Addr = "unix", c.Socket
	}
	cfg.TLSConfig = c.TLS
	cfg.InterpolateParams = true
	cfg.Timeout = 10 * time.Second
	if err := cfg.Apply(mysql.Charset("utf8mb4", "")); err != nil {
		return nil, err
	}
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(connector), nil
}

func cmp(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// MySQLSource is a source table read through one connection, inside one
// transaction WITH CONSISTENT SNAPSHOT, READ ONLY: every chunk sees the
// same state of the source, as the lake side reads one snapshot.
type MySQLSource struct {
	db   *sql.DB
	conn *sql.Conn
	// connID is conn's id on the source, which a cancelled read's query
	// is killed by.
	connID  int64
	table   string
	columns []Column
	where   string
	// checksumSQL and rowsSQL lack only the key range.
	checksumSQL, rowsSQL string
}

// OpenMySQL starts the source's transaction on a connection of db. table
// is the source table, qualified or not; where, if not empty, is a
// condition on its rows.
func OpenMySQL(ctx context.Context, db *sql.DB, table string, columns []Column, where string) (*MySQLSource, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	for _, stmt := range []string{
		"SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ",
		"START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY",
	} {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			conn.Close()
			return nil, fmt.Errorf("source: %s: %w", stmt, err)
		}
	}
	s := &MySQLSource{db: db, conn: conn, table: quoteTable(table), columns: columns, where: where}
	if err := conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&s.connID); err != nil {
		conn.Close()
		return nil, fmt.Errorf("source: %w", err)
	}
	s.checksumSQL = fmt.Sprintf("SELECT COUNT(*), COALESCE(BIT_XOR(%s), 0) FROM %s", ChecksumExpr(columns), s.table)
	// Each value is fetched as CONCAT makes it a string, the text the
	// checksum hashes. A bare numeric column would come back parsed by the
	// driver and be printed again in Go's way (1e+20 for MySQL's 1e20).
	exprs := make([]string, len(columns))
	for i, c := range columns {
		exprs[i] = "CONCAT(" + c.Source + ")"
	}
	s.rowsSQL = fmt.Sprintf("SELECT %s FROM %s", strings.Join(exprs, ", "), s.table)
	return s, nil
}

// quoteTable quotes each part of db.t that is not quoted already.
func quoteTable(name string) string {
	if strings.Contains(name, "`") {
		return name
	}
	parts := strings.Split(name, ".")
	for i, p := range parts {
		parts[i] = QuoteName(p)
	}
	return strings.Join(parts, ".")
}

// QuoteName quotes an identifier for MySQL.
func QuoteName(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// ChecksumExpr is the SQL of RowChecksum over the columns' source
// expressions: MD5 of their non-NULL texts and NULL flags joined by
// CHAR(31), as utf8mb4, its first 16 hex digits as an unsigned integer.
func ChecksumExpr(columns []Column) string {
	values := make([]string, 0, len(columns)+1)
	flags := make([]string, len(columns))
	for i, c := range columns {
		values = append(values, c.Source)
		flags[i] = "ISNULL(" + c.Source + ")"
	}
	values = append(values, "CONCAT("+strings.Join(flags, ", ")+")")
	joined := "CONCAT_WS(CHAR(31 USING utf8mb4), " + strings.Join(values, ", ") + ")"
	return "CAST(CONV(LEFT(MD5(CONVERT(" + joined + " USING utf8mb4)), 16), 16, 10) AS UNSIGNED)"
}

// Checksum implements Source.
func (s *MySQLSource) Checksum(ctx context.Context, lo, hi Row) (count int64, sum uint64, err error) {
	where, args := s.condition(lo, hi)
	err = s.conn.QueryRowContext(ctx, s.checksumSQL+where, args...).Scan(&count, &sum)
	if err != nil {
		return 0, 0, s.failed(ctx, "checksum", err)
	}
	return count, sum, nil
}

// Rows implements Source.
func (s *MySQLSource) Rows(ctx context.Context, lo, hi Row, each func(Row) error) error {
	where, args := s.condition(lo, hi)
	rows, err := s.conn.QueryContext(ctx, s.rowsSQL+where, args...)
	if err != nil {
		return s.failed(ctx, "rows", err)
	}
	defer rows.Close()
	raw := make([]sql.RawBytes, len(s.columns))
	dest := make([]any, len(raw))
	for i := range raw {
		dest[i] = &raw[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		r := make(Row, len(raw))
		for i, b := range raw {
			if b != nil {
				t := string(b)
				r[i] = &t
			}
		}
		if err := each(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return s.failed(ctx, "rows", err)
	}
	return nil
}

// failed is the error of a read of the source. A read stopped by ctx
// (KILL QUERY on lakesql, the client leaving) leaves its query running on
// the source, which would hold the table's metadata lock until it ends:
// it is killed there too, and ctx's error returned.
func (s *MySQLSource) failed(ctx context.Context, what string, err error) error {
	if ctx.Err() == nil {
		return fmt.Errorf("source %s of %s: %w", what, s.table, err)
	}
	kill, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Best effort: a query not killed still ends on its own.
	_, _ = s.db.ExecContext(kill, fmt.Sprintf("KILL QUERY %d", s.connID))
	return ctx.Err()
}

// condition is the WHERE of a key range (lo, hi] and of the source's own
// condition, with its arguments: the key bounds' texts, which MySQL
// converts to the key columns' types.
func (s *MySQLSource) condition(lo, hi Row) (string, []any) {
	var conds []string
	var args []any
	key := s.keyExprs()
	if lo != nil {
		c, a := lexicographic(key, lo, ">")
		conds, args = append(conds, c), append(args, a...)
	}
	if hi != nil {
		c, a := lexicographic(key, hi, "<=")
		conds, args = append(conds, c), append(args, a...)
	}
	if s.where != "" {
		conds = append(conds, "("+s.where+")")
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// lexicographic compares the key to a bound in key order, spelled as
// (k1 > ?) OR (k1 = ? AND k2 > ?) … rather than as a row constructor,
// which MariaDB's range optimizer does not turn into an index range: a
// chunk is then read through the key's index, not by a scan of the table.
// op is ">" (after the bound) or "<=" (up to it).
func lexicographic(key []string, bound Row, op string) (string, []any) {
	strict := op[:1]
	var terms []string
	var args []any
	for i := range key {
		var parts []string
		for j := 0; j < i; j++ {
			parts = append(parts, key[j]+" = ?")
			args = append(args, *bound[j])
		}
		last := strict
		if i == len(key)-1 {
			last = op
		}
		parts = append(parts, key[i]+" "+last+" ?")
		args = append(args, *bound[i])
		terms = append(terms, "("+strings.Join(parts, " AND ")+")")
	}
	return "(" + strings.Join(terms, " OR ") + ")", args
}

// keyExprs are the source's key columns, each compared in the lake's
// order.
func (s *MySQLSource) keyExprs() []string {
	var out []string
	for _, c := range s.columns {
		if !c.Key {
			continue
		}
		if c.BinaryOrder {
			out = append(out, "CAST("+c.Source+" AS BINARY)")
		} else {
			out = append(out, c.Source)
		}
	}
	return out
}

// Close ends the source's transaction and returns its connection.
func (s *MySQLSource) Close() error {
	_, err := s.conn.ExecContext(context.Background(), "ROLLBACK")
	if cerr := s.conn.Close(); err == nil {
		err = cerr
	}
	return err
}
