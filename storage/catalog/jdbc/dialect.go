package jdbc

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// dialect is what differs between the databases a JDBC catalog lives in:
// the Go driver and its DSN, placeholders, and the statement that clears
// an abandoned lock (Java's PostgresqlDistributedLockDialect,
// MysqlDistributedLockDialect, SqlLiteDistributedLockDialect).
type dialect struct {
	// protocol is the JDBC URL's sub-protocol, as Java's
	// JdbcClientPool.getProtocol reads it.
	protocol string
	driver   string
	dsn      string
	// numberedParams: PostgreSQL's $1, $2 instead of ?.
	numberedParams bool
	// lockAgeOver is a condition true when the lock row is older than its
	// expire_time_seconds, in this database's date arithmetic; "" when
	// Java has no distributed lock for the protocol (MariaDB URLs).
	lockAgeOver string
	// uniqueViolation recognizes a duplicate primary key.
	uniqueViolation func(error) bool
}

// parseURI maps a JDBC URL and its jdbc.* properties to a dialect.
func parseURI(uri string, props map[string]string) (dialect, error) {
	rest, ok := strings.CutPrefix(uri, "jdbc:")
	protocol, target, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return dialect{}, fmt.Errorf("jdbc catalog: %q is not a JDBC URL (jdbc:<protocol>:…)", uri)
	}
	switch protocol {
	case "postgresql":
		return postgresDialect(target, props)
	case "mysql", "mariadb":
		return mysqlDialect(protocol, target, props)
	case "sqlite":
		return sqliteDialect(target, props)
	}
	return dialect{}, fmt.Errorf("jdbc catalog: %w: JDBC protocol %q (lakesql speaks postgresql, mysql, mariadb and sqlite)",
		lakeerr.ErrUnsupported, protocol)
}

// checkProperties refuses jdbc.* properties lakesql would silently drop.
func checkProperties(props map[string]string, known ...string) error {
	for name := range props {
		if !slices.Contains(known, name) {
			return fmt.Errorf("jdbc catalog: %w: property jdbc.%s", lakeerr.ErrUnsupported, name)
		}
	}
	return nil
}

// serverURL parses "//host[:port]/database[?query]", the part of a
// PostgreSQL or MySQL JDBC URL after the protocol.
func serverURL(target string) (*url.URL, error) {
	if !strings.HasPrefix(target, "//") {
		return nil, fmt.Errorf("jdbc catalog: %w: URL without //host (%q)", lakeerr.ErrUnsupported, target)
	}
	u, err := url.Parse("x:" + target)
	if err != nil {
		return nil, fmt.Errorf("jdbc catalog: %w", err)
	}
	return u, nil
}

func postgresDialect(target string, props map[string]string) (dialect, error) {
	u, err := serverURL(target)
	if err != nil {
		return dialect{}, err
	}
	if err := checkProperties(props, "user", "password", "sslmode"); err != nil {
		return dialect{}, err
	}
	query := u.Query()
	for name := range query {
		if name != "sslmode" && name != "user" && name != "password" {
			return dialect{}, fmt.Errorf("jdbc catalog: %w: URL parameter %s", lakeerr.ErrUnsupported, name)
		}
	}
	setFromProperty(query, props, "sslmode")
	setFromProperty(query, props, "user")
	setFromProperty(query, props, "password")
	dsn := url.URL{Scheme: "postgres", Host: u.Host, Path: u.Path, RawQuery: query.Encode()}
	return dialect{
		protocol: "postgresql", driver: "pgx", dsn: dsn.String(), numberedParams: true,
		lockAgeOver:     "EXTRACT(EPOCH FROM AGE(NOW(), acquired_at)) > expire_time_seconds",
		uniqueViolation: postgresUniqueViolation,
	}, nil
}

func setFromProperty(query url.Values, props map[string]string, name string) {
	if v, ok := props[name]; ok {
		query.Set(name, v)
	}
}

func postgresUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

func mysqlDialect(protocol, target string, props map[string]string) (dialect, error) {
	u, err := serverURL(target)
	if err != nil {
		return dialect{}, err
	}
	if err := checkProperties(props, "user", "password"); err != nil {
		return dialect{}, err
	}
	if len(u.Query()) > 0 {
		return dialect{}, fmt.Errorf("jdbc catalog: %w: URL parameters %q", lakeerr.ErrUnsupported, u.RawQuery)
	}
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd = props["user"], props["password"]
	cfg.Net, cfg.Addr = "tcp", withDefaultPort(u.Host, 3306)
	cfg.DBName = strings.TrimPrefix(u.Path, "/")
	d := dialect{protocol: protocol, driver: "mysql", dsn: cfg.FormatDSN(), uniqueViolation: mysqlUniqueViolation}
	if protocol == "mysql" {
		d.lockAgeOver = "TIMESTAMPDIFF(SECOND, acquired_at, NOW()) > expire_time_seconds"
	}
	return d, nil
}

func withDefaultPort(host string, port int) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	return net.JoinHostPort(host, strconv.Itoa(port))
}

func mysqlUniqueViolation(err error) bool {
	var myErr *mysql.MySQLError
	return errors.As(err, &myErr) && myErr.Number == 1062
}

func sqliteDialect(target string, props map[string]string) (dialect, error) {
	if err := checkProperties(props); err != nil {
		return dialect{}, err
	}
	if target == "" || strings.Contains(target, "?") {
		return dialect{}, fmt.Errorf("jdbc catalog: %w: SQLite URL %q (jdbc:sqlite:<file> only)", lakeerr.ErrUnsupported, target)
	}
	// Several processes share the file: wait for its write lock rather
	// than fail at once with SQLITE_BUSY, and use the write-ahead log,
	// without which Java's lock statements fail with SQLITE_BUSY while
	// its catalog holds a read open (the mode stays with the file).
	dsn := "file:" + target + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)"
	return dialect{
		protocol: "sqlite", driver: "sqlite", dsn: dsn,
		lockAgeOver:     "strftime('%s', 'now') - strftime('%s', acquired_at) > expire_time_seconds",
		uniqueViolation: sqliteUniqueViolation,
	}, nil
}

// SQLite's extended result codes SQLITE_CONSTRAINT_PRIMARYKEY and
// SQLITE_CONSTRAINT_UNIQUE.
const (
	sqliteConstraintPrimaryKey = 1555
	sqliteConstraintUnique     = 2067
)

func sqliteUniqueViolation(err error) bool {
	var liteErr *sqlite.Error
	if !errors.As(err, &liteErr) {
		return false
	}
	return liteErr.Code() == sqliteConstraintPrimaryKey || liteErr.Code() == sqliteConstraintUnique
}

// bind rewrites a statement written with ? placeholders for d.
func (d dialect) bind(query string) string {
	if !d.numberedParams {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
