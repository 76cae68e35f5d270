package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/lakesql/lakesql/storage/fileio/s3io"
	"github.com/lakesql/lakesql/sysprocs/reconcile"
)

// Config is everything `lakesql serve` can be told: the JSON config file
// (see docs/lakesql-server.example.json), with command-line flags applied on
// top of it.
type Config struct {
	// Listen is the TCP address, HOST:PORT. Port 0 picks a free port.
	Listen string `json:"listen"`
	// Warehouse is the warehouse directory, created if missing, or an
	// s3://bucket/prefix URL of a warehouse on an S3-compatible object
	// store, reached as S3 says.
	Warehouse string `json:"warehouse"`
	// S3 says how to reach the object store of an s3:// warehouse: endpoint,
	// region, path-style addressing and, if not from the standard AWS
	// environment and config chain, credentials.
	S3 s3io.Config `json:"s3"`
	// Catalog holds Paimon catalog options, with the keys Flink's CREATE
	// CATALOG takes. Empty is the filesystem catalog. "metastore": "jdbc"
	// selects Paimon's JDBC catalog (uri, jdbc.user, jdbc.password,
	// catalog-key, lock.enabled, …): databases and tables are listed in
	// and created through its tables, and with lock.enabled every
	// snapshot and schema is published under Java's catalog lock, which
	// Java writers sharing the warehouse need (see README, Writes).
	Catalog map[string]string `json:"catalog"`
	// MaxConnections caps concurrent client connections; a client over the
	// cap gets MySQL error 1040. 0 means no cap.
	MaxConnections int `json:"max_connections"`
	// ReadTimeout closes connections idle for longer. It stays 0 (off) by
	// default because go-mysql-server v0.20 also applies it to the wait for
	// the next result row, which fails slow analytic queries
	// (go-mysql-server.md §0.10).
	ReadTimeout Duration `json:"read_timeout"`
	// ConnectTimeout bounds a client's TLS and authentication exchange,
	// as MySQL's connect_timeout does.
	ConnectTimeout Duration `json:"connect_timeout"`
	// ShutdownTimeout bounds how long a SIGTERM waits for running
	// statements before the remaining connections are cut.
	ShutdownTimeout Duration `json:"shutdown_timeout"`
	// ConflictRerunTimeout bounds how long an autocommit statement whose
	// commit loses write-write conflicts is run again on newer snapshots
	// before the client gets the conflict (1213), as InnoDB's
	// innodb_lock_wait_timeout bounds a wait for a row lock.
	ConflictRerunTimeout Duration `json:"conflict_rerun_timeout"`
	// MetricsListen, when set, serves Prometheus metrics (commits by
	// outcome, conflicts, latency, scans, statements) over HTTP at
	// /metrics on this HOST:PORT. Empty disables it.
	MetricsListen string `json:"metrics_listen"`
	// PageCacheMB bounds, in MiB, the decompressed Parquet pages that
	// point and short range reads keep for the next ones, as InnoDB's
	// buffer pool keeps pages; 0 turns the cache off.
	PageCacheMB int `json:"page_cache_mb"`
	// WriteBufferMB bounds, in MiB, what each writing transaction buffers
	// in memory before it writes data files, below each table's
	// write-buffer-size; 0 leaves the tables' own.
	WriteBufferMB int `json:"write_buffer_mb"`
	// Compaction is where primary-key tables written through the server
	// are compacted: "inline" (the default), by each statement before its
	// commit returns, or "background", by a worker of the server after the
	// commit, as a dedicated Paimon compaction job does for write-only
	// writers; statements then never compact.
	Compaction string `json:"compaction"`
	// Executor configures the vectorized executor of analytic reads.
	Executor ExecutorConfig `json:"executor"`
	// Sources are the source databases CALL sys.reconcile compares lake
	// tables with, by name: MySQL or MariaDB servers and the account to
	// read them with, kept here so that no password is in SQL text.
	Sources map[string]reconcile.SourceConfig `json:"sources"`
	Log     LogConfig                         `json:"log"`
	TLS     TLSConfig                         `json:"tls"`
	// Users are administrator accounts (all privileges) defined by the
	// config: they are recreated with these passwords at every start and
	// never written to the warehouse. Other accounts are made with CREATE
	// USER and GRANT, which persist in the warehouse.
	Users []User `json:"users"`
}

// LogConfig configures the process-wide logrus logger, which
// go-mysql-server and vitess log through too.
type LogConfig struct {
	// Level is a logrus level: trace, debug, info, warning, error.
	// Debug logs every statement.
	Level string `json:"level"`
	// Format is "text" or "json".
	Format string `json:"format"`
}

// TLSConfig enables TLS from PEM files.
type TLSConfig struct {
	CertFile string `json:"cert_file"`
	KeyFile  string `json:"key_file"`
	// RequireSecureTransport refuses clients that do not switch to TLS.
	RequireSecureTransport bool `json:"require_secure_transport"`
}

// User is one configured administrator account.
type User struct {
	Name string `json:"name"`
	// Host is the MySQL account host: "%" (any, the default), "localhost",
	// or an address.
	Host     string `json:"host"`
	Password string `json:"password"`
}

// Duration is a time.Duration written in JSON as a Go duration string
// ("30s", "5m").
type Duration time.Duration

// MarshalJSON implements json.Marshaler, so that a Config written out
// (a test's server process) loads back as the same Config.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON implements json.Unmarshaler.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration must be a string such as \"30s\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// Defaults of a Config, also the values the config file starts from.
const (
	DefaultListen          = "127.0.0.1:3306"
	DefaultWarehouse       = "./warehouse"
	DefaultMaxConnections  = 151              // MySQL's default max_connections
	DefaultConnectTimeout  = 10 * time.Second // MySQL's default connect_timeout
	DefaultShutdownTimeout = 30 * time.Second
	// DefaultConflictRerunTimeout is InnoDB's default innodb_lock_wait_timeout.
	DefaultConflictRerunTimeout = 50 * time.Second
	// DefaultPageCacheMB holds the pages of about 10 M rows of a narrow
	// table.
	DefaultPageCacheMB = 256
	// DefaultWriteBufferMB keeps a 50 MB INSERT within about 4 times its
	// size in the server's resident set (BenchmarkWireLargeInsert:
	// 3.6–4.6 times at 32 MiB, 6 of 8 runs under 4; 4.7 at 64); Paimon's own 256 MiB is a Flink
	// task's managed memory, and a server runs a writer per writing
	// connection. Past it the writer sorts and spills to local disk, so a
	// smaller buffer writes no more data files, and LOAD DATA of 1 M rows
	// ran as fast at 32 as at 64 MiB.
	DefaultWriteBufferMB = 32
)

// The values of Config.Compaction.
const (
	CompactionInline     = "inline"
	CompactionBackground = "background"
)

// DefaultConfig is the configuration without a config file or flags.
func DefaultConfig() Config {
	return Config{
		Listen:               DefaultListen,
		Warehouse:            DefaultWarehouse,
		MaxConnections:       DefaultMaxConnections,
		ConnectTimeout:       Duration(DefaultConnectTimeout),
		ShutdownTimeout:      Duration(DefaultShutdownTimeout),
		ConflictRerunTimeout: Duration(DefaultConflictRerunTimeout),
		PageCacheMB:          DefaultPageCacheMB,
		WriteBufferMB:        DefaultWriteBufferMB,
		Compaction:           CompactionInline,
		Log:                  LogConfig{Level: "info", Format: "text"},
	}
}

// LoadConfig reads a JSON config file over DefaultConfig. Unknown keys are
// an error, so a misspelt setting never silently falls back to a default.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}

// ParseConfig parses the JSON of a config file over DefaultConfig.
func ParseConfig(data []byte) (Config, error) {
	cfg := DefaultConfig()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return Config{}, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Config{}, errors.New("trailing data after the JSON object")
	}
	return cfg, nil
}

// Validate checks a config before the server starts, including the rule
// that a server reachable from other machines has no account without a
// password.
func (c Config) Validate() error {
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		return fmt.Errorf("listen address %q: %w", c.Listen, err)
	}
	if c.Warehouse == "" {
		return errors.New("warehouse directory is empty")
	}
	if c.onObjectStore() {
		if _, _, err := s3io.ParseURL(c.Warehouse); err != nil {
			return err
		}
	}
	if err := validateCatalogOptions(c.Catalog); err != nil {
		return err
	}
	if c.MaxConnections < 0 {
		return fmt.Errorf("max_connections %d is negative", c.MaxConnections)
	}
	if c.PageCacheMB < 0 || c.WriteBufferMB < 0 {
		return errors.New("page_cache_mb and write_buffer_mb must not be negative")
	}
	if c.Compaction != "" && c.Compaction != CompactionInline && c.Compaction != CompactionBackground {
		return fmt.Errorf("compaction %q: want %q or %q", c.Compaction, CompactionInline, CompactionBackground)
	}
	if c.ReadTimeout < 0 || c.ShutdownTimeout < 0 || c.ConflictRerunTimeout < 0 {
		return errors.New("read_timeout, shutdown_timeout and conflict_rerun_timeout must not be negative")
	}
	if c.ConnectTimeout <= 0 {
		return errors.New("connect_timeout must be positive")
	}
	if err := c.Log.validate(); err != nil {
		return err
	}
	if err := c.TLS.validate(); err != nil {
		return err
	}
	return c.validateUsers()
}

func (c Config) validateUsers() error {
	seen := map[string]bool{}
	for _, u := range c.Users {
		if u.Name == "" {
			return errors.New("a configured user has no name")
		}
		account := u.account()
		if seen[account] {
			return fmt.Errorf("user %s is configured twice", account)
		}
		seen[account] = true
		if u.Password == "" && !c.loopbackOnly() {
			return fmt.Errorf("user %s has no password, which is only allowed when listening on a loopback address (listen is %s)", account, c.Listen)
		}
	}
	return nil
}

// loopbackOnly reports whether only this machine can reach the listen
// address.
func (c Config) loopbackOnly() bool {
	host, _, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// onObjectStore reports whether the warehouse is an s3:// URL rather than a
// local directory.
func (c Config) onObjectStore() bool { return strings.HasPrefix(c.Warehouse, s3io.Scheme) }

func (c Config) hasUser(name string) bool {
	for _, u := range c.Users {
		if u.Name == name {
			return true
		}
	}
	return false
}

func (u User) host() string {
	if u.Host == "" {
		return "%"
	}
	return u.Host
}

func (u User) account() string { return fmt.Sprintf("'%s'@'%s'", u.Name, u.host()) }

func (l LogConfig) validate() error {
	if _, err := logrus.ParseLevel(l.Level); err != nil {
		return fmt.Errorf("log level: %w", err)
	}
	if l.Format != "text" && l.Format != "json" {
		return fmt.Errorf("log format %q: want \"text\" or \"json\"", l.Format)
	}
	return nil
}

func (t TLSConfig) validate() error {
	if (t.CertFile == "") != (t.KeyFile == "") {
		return errors.New("tls needs both cert_file and key_file")
	}
	if t.RequireSecureTransport && t.CertFile == "" {
		return errors.New("tls.require_secure_transport needs cert_file and key_file")
	}
	return nil
}

// ConfigureLogging sets the process-wide logrus logger: level, format and
// output. go-mysql-server and vitess log through it as well.
func ConfigureLogging(l LogConfig, out io.Writer) error {
	if err := l.validate(); err != nil {
		return err
	}
	level, _ := logrus.ParseLevel(l.Level)
	logrus.SetLevel(level)
	logrus.SetOutput(out)
	if l.Format == "json" {
		logrus.SetFormatter(&logrus.JSONFormatter{})
	} else {
		logrus.SetFormatter(&logrus.TextFormatter{FullTimestamp: true})
	}
	return nil
}
