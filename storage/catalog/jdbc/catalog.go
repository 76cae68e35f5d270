package jdbc

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	// The drivers of the databases a JDBC catalog can live in.
	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"
)

// Catalog is a connection to a JDBC catalog's database. It is both a
// catalog.Metastore and, with lock.enabled, a tablelock.Locker; it is
// safe for concurrent use.
type Catalog struct {
	db      *sql.DB
	dialect dialect
	opts    Options
	now     func() time.Time
	sleep   func(context.Context, time.Duration) error
	// holders serializes this process's acquirers of one lock, so that
	// they hand it over at once instead of each polling the database
	// with backoff.
	holders sync.Map // lock id -> *sync.Mutex
	// releaseFailed hears about locks this process could not delete;
	// they block other writers until they expire.
	releaseFailed func(lockID string, err error)
	// sessionZone is PostgreSQL's TimeZone of this process's sessions
	// (see SessionTimeZone); "" elsewhere.
	sessionZone string
}

// Settings are the injectable parts of a Catalog.
type Settings struct {
	// Now and Sleep time the lock's retries; defaults time.Now and a
	// timer.
	Now   func() time.Time
	Sleep func(context.Context, time.Duration) error
	// ReleaseFailed is told when a lock row could not be deleted after
	// the work it guarded (the work's own outcome is unaffected); nil
	// ignores it.
	ReleaseFailed func(lockID string, err error)
}

// Open connects to the catalog database of opts and creates Java's
// catalog tables where they are missing, as JdbcCatalog's constructor
// does; the lock table only with lock.enabled.
func Open(ctx context.Context, opts Options, s Settings) (*Catalog, error) {
	d, err := parseURI(opts.URI, opts.Properties)
	if err != nil {
		return nil, err
	}
	if opts.LockEnabled && d.lockAgeOver == "" {
		return nil, fmt.Errorf("jdbc catalog: Paimon has no distributed lock for %s URLs (DistributedLockDialectFactory); use jdbc:mysql: or set lock.enabled=false", d.protocol)
	}
	db, err := sql.Open(d.driver, d.dsn)
	if err != nil {
		return nil, fmt.Errorf("jdbc catalog: %w", err)
	}
	c := &Catalog{db: db, dialect: d, opts: opts, now: s.Now, sleep: s.Sleep, releaseFailed: s.ReleaseFailed}
	c.setDefaults()
	if err := c.createTables(ctx); err == nil {
		err = c.readSessionZone(ctx)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return c, nil
}

// SessionTimeZone is the PostgreSQL session time zone lakesql's lock
// statements run in, "" for other databases. It must be the zone of every
// Java writer's sessions (pgjdbc uses the JVM's user.timezone): Java's
// paimon_distributed_locks.acquired_at is a TIMESTAMP without time zone
// written in the acquirer's session zone, and the expiry test
// AGE(NOW(), acquired_at) reads it in the checker's, so a skew makes
// writers delete each other's live locks, or keep dead ones for hours
// (FINDINGS.md, F23). lakesql keeps the server's default zone and logs it.
func (c *Catalog) SessionTimeZone() string { return c.sessionZone }

func (c *Catalog) readSessionZone(ctx context.Context) error {
	if c.dialect.protocol != "postgresql" {
		return nil
	}
	if err := c.db.QueryRowContext(ctx, "SELECT current_setting('TimeZone')").Scan(&c.sessionZone); err != nil {
		return fmt.Errorf("jdbc catalog: reading the session time zone: %w", err)
	}
	return nil
}

func (c *Catalog) setDefaults() {
	if c.now == nil {
		c.now = time.Now
	}
	if c.sleep == nil {
		c.sleep = sleepTimer
	}
	if c.releaseFailed == nil {
		c.releaseFailed = func(string, error) {}
	}
}

func sleepTimer(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close closes the connections.
func (c *Catalog) Close() error { return c.db.Close() }

// LockEnabled reports whether writers must publish under the catalog lock.
func (c *Catalog) LockEnabled() bool { return c.opts.LockEnabled }

// String names the catalog in logs and errors, without credentials.
func (c *Catalog) String() string {
	return fmt.Sprintf("jdbc catalog %q (%s)", c.opts.CatalogKey, c.dialect.protocol)
}

// createTables runs Java's CREATE TABLE statements (JdbcUtils,
// *DistributedLockDialect) for the tables missing.
func (c *Catalog) createTables(ctx context.Context) error {
	statements := []string{createTablesTable, createDatabasePropertiesTable, createTablePropertiesTable}
	if c.opts.LockEnabled {
		statements = append(statements, fmt.Sprintf(createLocksTable, c.opts.LockKeyMaxLength))
	}
	for _, stmt := range statements {
		if _, err := c.db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("jdbc catalog: creating its tables: %w", err)
		}
	}
	return nil
}

// The catalog tables, as JdbcUtils and the lock dialects create them;
// IF NOT EXISTS stands for Java's DatabaseMetaData.getTables check.
const (
	createTablesTable = `CREATE TABLE IF NOT EXISTS paimon_tables(` +
		`catalog_key VARCHAR(255) NOT NULL, database_name VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT NULL, ` +
		`PRIMARY KEY (catalog_key, database_name, table_name))`
	createDatabasePropertiesTable = `CREATE TABLE IF NOT EXISTS paimon_database_properties(` +
		`catalog_key VARCHAR(255) NOT NULL, database_name VARCHAR(255) NOT NULL, ` +
		`property_key VARCHAR(255), property_value VARCHAR(1000), ` +
		`PRIMARY KEY (catalog_key, database_name, property_key))`
	createTablePropertiesTable = `CREATE TABLE IF NOT EXISTS paimon_table_properties(` +
		`catalog_key VARCHAR(255) NOT NULL, database_name VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT NULL, ` +
		`property_key VARCHAR(255) NOT NULL, property_value VARCHAR(1000), ` +
		`PRIMARY KEY (catalog_key, database_name, table_name, property_key))`
	createLocksTable = `CREATE TABLE IF NOT EXISTS paimon_distributed_locks(` +
		`lock_id VARCHAR(%d) NOT NULL, acquired_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL, ` +
		`expire_time_seconds BIGINT DEFAULT 0 NOT NULL, PRIMARY KEY (lock_id))`
)

// exec runs a statement written with ? placeholders.
func (c *Catalog) exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := c.db.ExecContext(ctx, c.dialect.bind(query), args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// strings runs a query of one string column.
func (c *Catalog) strings(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := c.db.QueryContext(ctx, c.dialect.bind(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
