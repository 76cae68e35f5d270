package server_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"database/sql"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/server"
)

// testConfig serves a fresh warehouse on a free loopback port.
func testConfig(t *testing.T) server.Config {
	cfg := server.DefaultConfig()
	cfg.Listen = "127.0.0.1:0"
	cfg.Warehouse = filepath.Join(t.TempDir(), "warehouse")
	cfg.Log.Level = "warning"
	return cfg
}

// running is a server serving in this process.
type running struct {
	srv    *server.Server
	addr   string
	served chan error
	once   sync.Once
}

func start(t *testing.T, cfg server.Config) *running {
	t.Helper()
	srv, err := server.New(cfg, server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &running{srv: srv, addr: srv.Addr().String(), served: make(chan error, 1)}
	go func() { r.served <- srv.Serve() }()
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop shuts the server down, unless a test did, and waits for Serve.
func (r *running) stop(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.shutdown(ctx); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// shutdown shuts the server down and waits for Serve to return; after
// the first call it does nothing.
func (r *running) shutdown(ctx context.Context) (err error) {
	r.once.Do(func() {
		err = r.srv.Shutdown(ctx)
		if serveErr := <-r.served; serveErr != nil {
			err = errors.Join(err, serveErr)
		}
	})
	return err
}

// connect opens a client pool; options adjust the driver config.
func connect(t *testing.T, addr, user, password string, options ...func(*mysql.Config)) *sql.DB {
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

func exec(t *testing.T, db interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, statements ...string) {
	t.Helper()
	for _, s := range statements {
		if _, err := db.ExecContext(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func queryString(t *testing.T, db *sql.DB, query string) string {
	t.Helper()
	var s string
	if err := db.QueryRow(query).Scan(&s); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return s
}

// mysqlErrorNumber is the MySQL error number of err, or 0.
func mysqlErrorNumber(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// selfSignedCert writes a certificate for 127.0.0.1 and its key, and
// returns their paths and a pool that trusts the certificate.
func selfSignedCert(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "lakesql test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	writePEM(t, certFile, "CERTIFICATE", der)
	writePEM(t, keyFile, "EC PRIVATE KEY", keyDER)
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

func writePEM(t *testing.T, path, kind string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}
