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
	conn    *sql.Conn
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
	s := &MySQLSource{conn: conn, table: quoteTable(table), columns: columns, where: where}
	s.checksumSQL = fmt.Sprintf("SELECT COUNT(*), COALESCE(BIT_XOR(%s), 0) FROM %s", ChecksumExpr(columns), s.table)
	exprs := make([]string, len(columns))
	for i, c := range columns {
		exprs[i] = c.Source
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
		return 0, 0, fmt.Errorf("source checksum of %s: %w", s.table, err)
	}
	return count, sum, nil
}

// Rows implements Source.
func (s *MySQLSource) Rows(ctx context.Context, lo, hi Row, each func(Row) error) error {
	where, args := s.condition(lo, hi)
	rows, err := s.conn.QueryContext(ctx, s.rowsSQL+where, args...)
	if err != nil {
		return fmt.Errorf("source rows of %s: %w", s.table, err)
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
	return rows.Err()
}

// condition is the WHERE of a key range (lo, hi] and of the source's own
// condition, with its arguments: the key bounds' texts, which MySQL
// converts to the key columns' types.
func (s *MySQLSource) condition(lo, hi Row) (string, []any) {
	var conds []string
	var args []any
	key := s.keyTuple()
	for _, bound := range []struct {
		row Row
		op  string
	}{{lo, ">"}, {hi, "<="}} {
		if bound.row == nil {
			continue
		}
		marks := make([]string, len(bound.row))
		for i, v := range bound.row {
			marks[i] = "?"
			args = append(args, *v)
		}
		conds = append(conds, fmt.Sprintf("%s %s (%s)", key, bound.op, strings.Join(marks, ", ")))
	}
	if s.where != "" {
		conds = append(conds, "("+s.where+")")
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// keyTuple is the source's key as a row constructor, each column compared
// in the lake's order.
func (s *MySQLSource) keyTuple() string {
	var parts []string
	for _, c := range s.columns {
		if !c.Key {
			continue
		}
		if c.BinaryOrder {
			parts = append(parts, "CAST("+c.Source+" AS BINARY)")
		} else {
			parts = append(parts, c.Source)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Close ends the source's transaction and returns its connection.
func (s *MySQLSource) Close() error {
	_, err := s.conn.ExecContext(context.Background(), "ROLLBACK")
	if cerr := s.conn.Close(); err == nil {
		err = cerr
	}
	return err
}
