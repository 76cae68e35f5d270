package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	sqle "github.com/dolthub/go-mysql-server"
	gms "github.com/dolthub/go-mysql-server/server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/sirupsen/logrus"

	"github.com/lakesql/lakesql/sqlbackend"
	"github.com/lakesql/lakesql/sqlbackend/metrics"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/fileio/open"
	"github.com/lakesql/lakesql/sysprocs"
)

// Options are the dependencies of a Server that tests replace.
type Options struct {
	// FileIO is the warehouse's file system; nil is the local disk, in
	// which case a missing warehouse directory is created.
	FileIO fileio.FileIO
	// Now is the clock of commits and schemas; nil is time.Now.
	Now func() time.Time
	// Procedures are the CALL-able procedures; nil is the sys procedures
	// of package sysprocs over the warehouse.
	Procedures sql.ExternalStoredProcedureProvider
}

// Server is a lakesql MySQL server bound to its listen address.
type Server struct {
	cfg     Config
	engine  *sqle.Engine
	backend *sqlbackend.Backend
	gms     *gms.Server
	tracker *connTracker
	metrics *metrics.Metrics
	// metricsHTTP serves /metrics when the config asks for it.
	metricsHTTP *http.Server
	metricsAddr net.Addr
	accounts    *accountStore
	catalog     Catalog
	// executor is the vectorized executor, nil when there is none.
	executor executor
}

// New validates the config, opens the warehouse, sets up the accounts and
// binds the listen address. It does not serve until Serve.
func New(cfg Config, opts Options) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	localDisk := opts.FileIO == nil && !cfg.onObjectStore()
	opts, root, err := opts.withDefaults(cfg)
	if err != nil {
		return nil, err
	}
	cat, err := OpenCatalog(context.Background(), cfg.Catalog, cfg.onObjectStore(), opts.FileIO, root)
	if err != nil {
		return nil, err
	}
	s, err := newServer(cfg, opts, root, cat, localDisk)
	if err != nil {
		_ = cat.Close()
		return nil, err
	}
	return s, nil
}

// newServer is New once the catalog is open; localDisk says whether the
// warehouse is a local directory this process opened.
func newServer(cfg Config, opts Options, root string, cat Catalog, localDisk bool) (s *Server, err error) {
	tlsConfig, err := cfg.TLS.load()
	if err != nil {
		return nil, err
	}
	opts.FileIO = cat.FileIO
	recorder := metrics.New()
	exec, err := openExecutor(cfg.Executor)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil && exec != nil {
			_ = exec.Close()
		}
	}()
	backendOpts := sqlbackend.Options{FileIO: opts.FileIO, Warehouse: root, Metastore: cat.Metastore, Now: opts.Now, Metrics: recorder,
		PageCacheBytes: int64(cfg.PageCacheMB) << 20, WriteBufferBytes: int64(cfg.WriteBufferMB) << 20,
		BackgroundCompaction: cfg.Compaction == CompactionBackground}
	if exec != nil {
		backendOpts.Executor = exec
	}
	backend := sqlbackend.New(backendOpts)
	defer func() {
		if err != nil {
			backend.Close()
		}
	}()
	if opts.Procedures == nil {
		opts.Procedures = sysprocs.New(sysprocs.Options{Catalog: backend.Catalog(), FileIO: opts.FileIO, Now: opts.Now, Observer: recorder,
			Sources: cfg.Sources})
	}
	engine := sqlbackend.NewEngine(backend, opts.Procedures)
	if err := confineFileAccess(cfg.Warehouse, localDisk); err != nil {
		return nil, err
	}
	ctx := sql.NewContext(context.Background())
	accounts, err := setUpAccounts(ctx, engine.Analyzer.Catalog.MySQLDb, opts.FileIO, root, cfg)
	if err != nil {
		return nil, err
	}
	s = &Server{cfg: cfg, engine: engine, backend: backend, tracker: newConnTracker(cfg.MaxConnections), metrics: recorder, accounts: accounts, catalog: cat, executor: exec}
	if err := s.listen(backend, tlsConfig); err != nil {
		return nil, err
	}
	if err := s.listenMetrics(); err != nil {
		_ = s.gms.Close()
		return nil, err
	}
	return s, nil
}

// withDefaults fills in the defaults and returns the root of the warehouse
// in o.FileIO's paths. Without a FileIO the config's warehouse is opened:
// an s3:// URL on its object store (the root is the key prefix; manifests
// and data file footers are cached in memory), anything else on the local
// disk, creating the directory.
func (o Options) withDefaults(cfg Config) (Options, string, error) {
	root := cfg.Warehouse
	if o.FileIO == nil {
		fsys, fsRoot, err := open.CachedWarehouse(context.Background(), cfg.Warehouse, cfg.S3)
		if err != nil {
			return o, "", fmt.Errorf("open warehouse %s: %w", cfg.Warehouse, err)
		}
		o.FileIO, root = fsys, fsRoot
		if !cfg.onObjectStore() {
			if err := os.MkdirAll(root, 0o755); err != nil {
				return o, "", fmt.Errorf("create warehouse: %w", err)
			}
		}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o, root, nil
}

// FilesDir, relative to the warehouse, is the only directory LOAD DATA
// INFILE, SELECT … INTO OUTFILE and LOAD_FILE() may use. go-mysql-server
// v0.20 checks no privilege for LOAD_FILE(), so with its default
// (secure_file_priv = "", anywhere) any account could read any file the
// server can, the accounts file and the config included.
const FilesDir = "_lakesql/files"

// confineFileAccess sets secure_file_priv to FilesDir, creating it on a
// local warehouse. It is a process-wide setting in go-mysql-server. On any
// other warehouse (an s3:// URL) the directory is not created and names no
// local directory, which turns file import and export off: go-mysql-server
// reads and writes those files on the local disk, not through the FileIO.
func confineFileAccess(warehouse string, create bool) error {
	dir, err := filepath.Abs(filepath.Join(warehouse, filepath.FromSlash(FilesDir)))
	if err != nil {
		return err
	}
	if create {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	return sql.SystemVariables.AssignValues(map[string]any{"secure_file_priv": dir})
}

func (t TLSConfig) load() (*tls.Config, error) {
	if t.CertFile == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("tls: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

func (s *Server) listen(backend *sqlbackend.Backend, tlsConfig *tls.Config) error {
	l, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return err
	}
	gmsConfig := gms.Config{
		Protocol:        "tcp",
		Address:         l.Addr().String(),
		Listener:        &limitListener{Listener: l, tracker: s.tracker},
		Version:         sqlbackend.Version,
		ConnReadTimeout: time.Duration(s.cfg.ReadTimeout),
		TLSConfig:       tlsConfig,
		// RequireSecureTransport stays false: authServer refuses a
		// plaintext client with MySQL's 3159, where vitess's own check
		// sends a 1105 and then lets the client authenticate.
		// MaxConnections stays 0: the limit is limitListener's, which
		// answers the client instead of dropping it.
		ProtocolListenerFactory: func(cfg gms.Config, listenerCfg mysql.ListenerConfig, sel gms.ServerEventListener) (gms.ProtocolListener, error) {
			listenerCfg.AuthServer = authServer{AuthServer: listenerCfg.AuthServer, requireTLS: s.cfg.TLS.RequireSecureTransport, accounts: s.accounts}
			return gms.MySQLProtocolListenerFactory(cfg, listenerCfg, sel)
		},
	}
	sessions := newSessionRegistry()
	keySelects := sqlbackend.NewKeySelects(s.engine, backend)
	wrap := func(h mysql.Handler) (mysql.Handler, error) {
		bound, ok := h.(mysql.ExtendedHandler)
		if !ok {
			return nil, fmt.Errorf("go-mysql-server's handler %T cannot run plans", h)
		}
		return &handler{Handler: h, bound: bound, keySelects: keySelects, tracker: s.tracker, connectTimeout: time.Duration(s.cfg.ConnectTimeout), metrics: s.metrics,
			sessions: sessions, rerun: newRerunPolicy(time.Duration(s.cfg.ConflictRerunTimeout))}, nil
	}
	s.engine.ProcessList = newClientHosts(s.engine.ProcessList)
	srv, err := gms.NewServerWithHandler(gmsConfig, s.engine, sql.NewContext, sessionBuilder(backend, sessions, s.engine.ProcessList), nil, wrap)
	if err != nil {
		l.Close()
		return err
	}
	s.gms = srv
	return nil
}

// sessionBuilder gives every connection a lakesql session, which pins
// snapshots and stages writes, and registers it for the handler.
func sessionBuilder(backend *sqlbackend.Backend, sessions *sessionRegistry, processes sql.ProcessList) gms.SessionBuilder {
	return func(ctx context.Context, conn *mysql.Conn, addr string) (sql.Session, error) {
		base, err := sql.BaseSessionFromConnection(ctx, conn, addr)
		if err != nil {
			return nil, err
		}
		s := backend.NewSession(base)
		if err := setTLSStatus(s, conn); err != nil {
			return nil, err
		}
		sessions.add(conn.ConnectionID, s)
		// The session is built at the connection's first command, after
		// authentication. go-mysql-server names the user in the process
		// list only when the client selects a database (COM_INIT_DB), so
		// SHOW PROCESSLIST showed every other connection as
		// "unauthenticated user".
		processes.ConnectionReady(s)
		return s, nil
	}
}

// setTLSStatus fills the session's Ssl_cipher and Ssl_version status
// variables for a client that switched to TLS, which tools read (SHOW
// STATUS LIKE 'Ssl_cipher') to check that the connection is encrypted.
// Ciphers have Go's (IANA) names, versions MySQL's spelling ("TLSv1.3").
func setTLSStatus(s sql.Session, conn *mysql.Conn) error {
	tlsConn, ok := conn.Conn.(*tls.Conn)
	if !ok {
		return nil
	}
	state := tlsConn.ConnectionState()
	version := strings.Replace(tls.VersionName(state.Version), "TLS ", "TLSv", 1)
	ctx := sql.NewEmptyContext()
	return errors.Join(
		s.SetStatusVariable(ctx, "Ssl_cipher", tls.CipherSuiteName(state.CipherSuite)),
		s.SetStatusVariable(ctx, "Ssl_version", version))
}

// Addr is the address the server listens on, with the port chosen when
// the config asked for port 0.
func (s *Server) Addr() net.Addr { return s.gms.Listener.Addr() }

// listenMetrics binds the metrics endpoint, if configured.
func (s *Server) listenMetrics() error {
	if s.cfg.MetricsListen == "" {
		return nil
	}
	l, err := net.Listen("tcp", s.cfg.MetricsListen)
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", s.metrics.Handler())
	s.metricsHTTP = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	s.metricsAddr = l.Addr()
	go func() { _ = s.metricsHTTP.Serve(l) }() // returns ErrServerClosed at Shutdown
	return nil
}

// MetricsAddr is the address of the metrics endpoint, nil when disabled.
func (s *Server) MetricsAddr() net.Addr { return s.metricsAddr }

// Serve accepts connections until Shutdown.
func (s *Server) Serve() error {
	logrus.WithField("address", s.Addr().String()).WithField("warehouse", s.cfg.Warehouse).Info("lakesql serving")
	return s.gms.Start()
}

// ErrShutdownTimeout is returned by Shutdown when connections were still
// running statements at the deadline and were cut.
var ErrShutdownTimeout = errors.New("shutdown deadline passed with statements still running; their connections were closed")

// Shutdown stops accepting connections and lets every connection finish
// the statement it is running, commit included, before closing it. Idle
// connections close at once; an open explicit transaction is rolled back,
// as MySQL does. If ctx ends first, the remaining connections are cut and
// ErrShutdownTimeout is returned.
func (s *Server) Shutdown(ctx context.Context) error {
	_ = s.gms.Close()
	if s.metricsHTTP != nil {
		defer s.metricsHTTP.Close()
	}
	defer s.engine.Close()
	defer s.catalog.Close()
	defer s.backend.Close()
	if s.executor != nil {
		defer s.executor.Close()
	}
	select {
	case <-s.tracker.drain():
		return nil
	case <-ctx.Done():
		s.tracker.closeAll()
		return ErrShutdownTimeout
	}
}
