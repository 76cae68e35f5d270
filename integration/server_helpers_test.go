package integration

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/server"
)

// lakesqlServer is a lakesql server serving a warehouse in this process.
type lakesqlServer struct {
	cfg    server.Config
	srv    *server.Server
	addr   string
	served chan error
	once   sync.Once
}

// serverConfig serves warehouse, a directory or an s3:// URL (see
// newWarehouse), on a free loopback port.
func serverConfig(warehouse string) server.Config {
	cfg := server.DefaultConfig()
	cfg.Listen = "127.0.0.1:0"
	cfg.Warehouse = warehouse
	cfg.S3 = testS3Config()
	return cfg
}

// quietLogs keeps go-mysql-server's per-connection info logs out of test
// output.
var quietLogs sync.Once

func startServer(t testing.TB, cfg server.Config) *lakesqlServer {
	t.Helper()
	quietLogs.Do(func() {
		if err := server.ConfigureLogging(server.LogConfig{Level: "warning", Format: "text"}, os.Stderr); err != nil {
			t.Fatal(err)
		}
	})
	srv, err := server.New(cfg, server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := &lakesqlServer{cfg: cfg, srv: srv, addr: srv.Addr().String(), served: make(chan error, 1)}
	go func() { s.served <- srv.Serve() }()
	t.Cleanup(func() { s.stop(t) })
	return s
}

// stop shuts the server down gracefully, once.
func (s *lakesqlServer) stop(t testing.TB) {
	s.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-s.served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
}

func (s *lakesqlServer) connect(t testing.TB, user, password string) *sql.DB {
	t.Helper()
	c := mysql.NewConfig()
	c.Net, c.Addr, c.User, c.Passwd = "tcp", s.addr, user, password
	connector, err := mysql.NewConnector(c)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(connector)
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t testing.TB, db *sql.DB, statements ...string) {
	t.Helper()
	for _, s := range statements {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func mysqlErrorNumber(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}
