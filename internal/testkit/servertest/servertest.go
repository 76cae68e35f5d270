// Package servertest runs a lakesql server in the test's process, for the
// tests that talk to it over the MySQL protocol: one home for starting,
// connecting and stopping, and for the statements, grants and error
// numbers those tests check, instead of a copy per test package.
package servertest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/server"
)

// Server is a lakesql server serving a warehouse in this process.
type Server struct {
	// Addr is the loopback address the server listens on.
	Addr string
	// Config is the configuration it serves.
	Config server.Config
	// Server is the server itself.
	Server *server.Server
	served chan error
	once   sync.Once
}

// Config serves warehouse, a local directory, on a free loopback port.
func Config(warehouse string) server.Config {
	cfg := server.DefaultConfig()
	cfg.Listen = "127.0.0.1:0"
	cfg.Warehouse = warehouse
	return cfg
}

// quietLogs keeps go-mysql-server's per-connection info logs out of test
// output.
var quietLogs sync.Once

// Start serves cfg until the test ends, then shuts the server down
// gracefully and fails the test if serving failed.
func Start(t testing.TB, cfg server.Config, opts server.Options) *Server {
	t.Helper()
	quietLogs.Do(func() {
		if err := server.ConfigureLogging(server.LogConfig{Level: "warning", Format: "text"}, os.Stderr); err != nil {
			t.Fatal(err)
		}
	})
	srv, err := server.New(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Server: srv, Config: cfg, Addr: srv.Addr().String(), served: make(chan error, 1)}
	go func() { s.served <- srv.Serve() }()
	t.Cleanup(func() { s.Stop(t) })
	return s
}

// Stop shuts the server down gracefully, unless a test did, and fails the
// test if shutting down or serving failed.
func (s *Server) Stop(t testing.TB) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// Shutdown shuts the server down within ctx and waits for Serve to
// return, joining their errors; after the first call it does nothing.
func (s *Server) Shutdown(ctx context.Context) (err error) {
	s.once.Do(func() {
		err = s.Server.Shutdown(ctx)
		if serveErr := <-s.served; serveErr != nil {
			err = errors.Join(err, fmt.Errorf("serve: %w", serveErr))
		}
	})
	return err
}

// Connect opens a connection pool to the server as user, closed when the
// test ends; options adjust the driver's configuration.
func (s *Server) Connect(t testing.TB, user, password string, options ...func(*mysql.Config)) *sql.DB {
	t.Helper()
	return Open(t, s.Addr, user, password, options...)
}

// Open opens a connection pool to the server at addr as user, closed when
// the test ends; options adjust the driver's configuration.
func Open(t testing.TB, addr, user, password string, options ...func(*mysql.Config)) *sql.DB {
	t.Helper()
	c := mysql.NewConfig()
	c.Net, c.Addr, c.User, c.Passwd = "tcp", addr, user, password
	for _, o := range options {
		o(c)
	}
	connector, err := mysql.NewConnector(c)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(connector)
	t.Cleanup(func() { db.Close() })
	return db
}
