package server_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"database/sql"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
	"github.com/lakesql/lakesql/sqlbackend"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// handshakeVersion reads the server version from the first packet the
// server sends, the protocol-10 handshake.
func handshakeVersion(t *testing.T, addr string) string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	header := make([]byte, 4)
	if _, err := io.ReadFull(conn, header); err != nil {
		t.Fatal(err)
	}
	payload := make([]byte, int(header[0])|int(header[1])<<8|int(header[2])<<16)
	if _, err := io.ReadFull(conn, payload); err != nil {
		t.Fatal(err)
	}
	if payload[0] != 10 {
		t.Fatalf("first packet is not a protocol-10 handshake: % x", payload)
	}
	end := bytes.IndexByte(payload[1:], 0)
	if end < 0 {
		t.Fatalf("unterminated server version: % x", payload)
	}
	return string(payload[1 : 1+end])
}

func TestVersionStringsAgree(t *testing.T) {
	r := start(t, testConfig(t))
	if got := handshakeVersion(t, r.Addr); got != sqlbackend.Version {
		t.Errorf("handshake version %q, want %q", got, sqlbackend.Version)
	}
	db := r.Connect(t, "root", "")
	for query, want := range map[string]string{
		"SELECT @@version":         sqlbackend.Version,
		"SELECT VERSION()":         sqlbackend.Version,
		"SELECT @@version_comment": "lakesql",
	} {
		if got := queryString(t, db, query); got != want {
			t.Errorf("%s = %q, want %q", query, got, want)
		}
	}
}

func TestLoopbackRootHasNoPassword(t *testing.T) {
	r := start(t, testConfig(t))
	if got := queryString(t, r.Connect(t, "root", ""), "SELECT CURRENT_USER()"); got != "root@localhost" {
		t.Errorf("CURRENT_USER() = %q, want root@localhost", got)
	}
	err := r.Connect(t, "root", "guess").Ping()
	if servertest.ErrorNumber(err) != 1045 {
		t.Errorf("root with a password: %v, want error 1045", err)
	}
}

// An account that does not exist is refused as MySQL refuses it: 1045,
// naming the user and host and whether a password was sent, never a
// handshake error the client reads as a malformed packet.
func TestUnknownAccountIsAccessDenied(t *testing.T) {
	r := start(t, testConfig(t))
	for password, using := range map[string]string{"": "NO", "guess": "YES"} {
		err := r.Connect(t, "nosuch", password).Ping()
		var denied *mysql.MySQLError
		want := "Access denied for user 'nosuch'@'127.0.0.1' (using password: " + using + ")"
		if !errors.As(err, &denied) || denied.Number != 1045 || string(denied.SQLState[:]) != "28000" || denied.Message != want {
			t.Errorf("unknown user, password %q: %v, want 1045 (28000) %q", password, err, want)
		}
	}
}

func TestNonLoopbackListenNeedsPasswords(t *testing.T) {
	cfg := testConfig(t)
	cfg.Listen = "0.0.0.0:0"
	if _, err := server.New(cfg, server.Options{}); err == nil || !strings.Contains(err.Error(), "at least one user with a password") {
		t.Fatalf("no users on 0.0.0.0: %v, want a refusal", err)
	}
	cfg.Users = []server.User{{Name: "admin", Password: "s3cret"}, {Name: "nopass"}}
	if _, err := server.New(cfg, server.Options{}); err == nil || !strings.Contains(err.Error(), "'nopass'@'%' has no password") {
		t.Fatalf("user without password on 0.0.0.0: %v, want a refusal naming it", err)
	}

	cfg.Users = cfg.Users[:1]
	r := start(t, cfg)
	_, port, _ := net.SplitHostPort(r.Addr)
	addr := net.JoinHostPort("127.0.0.1", port)
	if err := servertest.Open(t, addr, "root", "").Ping(); servertest.ErrorNumber(err) != 1045 {
		t.Errorf("passwordless root on 0.0.0.0: %v, want error 1045", err)
	}
	if got := queryString(t, servertest.Open(t, addr, "admin", "s3cret"), "SELECT CURRENT_USER()"); got != "admin@%" {
		t.Errorf("CURRENT_USER() = %q, want admin@%%", got)
	}
}

// A passwordless account saved by CREATE USER on a loopback server keeps
// the same warehouse from being served on other addresses.
func TestNonLoopbackListenRefusesSavedAccountWithoutPassword(t *testing.T) {
	cfg := testConfig(t)
	r := start(t, cfg)
	servertest.Exec(t, r.Connect(t, "root", ""), "CREATE USER 'bob'@'%'")
	r.Stop(t)

	cfg.Listen = "0.0.0.0:0"
	cfg.Users = []server.User{{Name: "admin", Password: "s3cret"}}
	_, err := server.New(cfg, server.Options{})
	if err == nil || !strings.Contains(err.Error(), "'bob'@'%'") {
		t.Fatalf("saved passwordless bob on 0.0.0.0: %v, want a refusal naming bob", err)
	}
}

// Configured users come from the config at every start: a changed
// password replaces the old one.
func TestConfiguredUserPasswordFollowsConfig(t *testing.T) {
	cfg := testConfig(t)
	cfg.Users = []server.User{{Name: "admin", Password: "first"}}
	r := start(t, cfg)
	servertest.Exec(t, r.Connect(t, "admin", "first"), "CREATE USER 'analyst'@'%' IDENTIFIED BY 'pw'")
	r.Stop(t)

	cfg.Users[0].Password = "second"
	r = start(t, cfg)
	if err := r.Connect(t, "admin", "first").Ping(); servertest.ErrorNumber(err) != 1045 {
		t.Errorf("old password: %v, want error 1045", err)
	}
	if err := r.Connect(t, "admin", "second").Ping(); err != nil {
		t.Errorf("new password: %v", err)
	}
	if err := r.Connect(t, "analyst", "pw").Ping(); err != nil {
		t.Errorf("saved account after restart: %v", err)
	}
}

func TestTLSFromCertAndKeyFiles(t *testing.T) {
	certFile, keyFile, pool := selfSignedCert(t)
	cfg := testConfig(t)
	cfg.TLS = server.TLSConfig{CertFile: certFile, KeyFile: keyFile, RequireSecureTransport: true}
	r := start(t, cfg)

	verified := &tls.Config{RootCAs: pool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
	db := r.Connect(t, "root", "", func(c *mysql.Config) { c.TLS = verified })
	if got := queryString(t, db, "SELECT 'over tls'"); got != "over tls" {
		t.Errorf("query over TLS returned %q", got)
	}
	var name, cipher, version string
	if err := db.QueryRow("SHOW STATUS LIKE 'Ssl_cipher'").Scan(&name, &cipher); err != nil || !strings.HasPrefix(cipher, "TLS_") {
		t.Errorf("SHOW STATUS LIKE 'Ssl_cipher' over TLS: %q, %v; want the cipher", cipher, err)
	}
	if err := db.QueryRow("SHOW STATUS LIKE 'Ssl_version'").Scan(&name, &version); err != nil || !strings.HasPrefix(version, "TLSv1.") {
		t.Errorf("SHOW STATUS LIKE 'Ssl_version' over TLS: %q, %v; want TLSv1.x", version, err)
	}
	err := r.Connect(t, "root", "").Ping()
	var refused *mysql.MySQLError
	if !errors.As(err, &refused) || refused.Number != 3159 || !strings.Contains(refused.Message, "insecure transport") {
		t.Errorf("plaintext client with require_secure_transport: %v, want MySQL's error 3159", err)
	}
}

func TestTooManyConnectionsIsError1040(t *testing.T) {
	cfg := testConfig(t)
	cfg.MaxConnections = 2
	r := start(t, cfg)
	ctx := context.Background()

	held := r.Connect(t, "root", "")
	held.SetMaxIdleConns(0) // a released connection is closed, not pooled
	first, err := held.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	second, err := held.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()

	other := r.Connect(t, "root", "")
	err = other.Ping()
	if servertest.ErrorNumber(err) != 1040 {
		t.Fatalf("third connection: %v, want error 1040", err)
	}
	if !strings.Contains(err.Error(), "Too many connections") {
		t.Errorf("error message %q", err)
	}
	if _, err := second.ExecContext(ctx, "SELECT 1"); err != nil {
		t.Errorf("a connection within the limit broke: %v", err)
	}

	first.Close()
	waitFor(t, "a slot to free after a disconnect", func() bool { return other.Ping() == nil })
}

// waitFor polls cond until it holds; the server reacts to disconnects
// asynchronously.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// connectionID is the server's id of a client connection.
func connectionID(t *testing.T, conn *sql.Conn) int64 {
	t.Helper()
	var id int64
	if err := conn.QueryRowContext(context.Background(), "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// AS OF ? panics inside go-mysql-server v0.20.0 (go-mysql-server.md §0.6);
// through COM_QUERY PREPARE and through the binary protocol's
// COM_STMT_PREPARE the client gets an error and keeps its connection.
func TestPreparedAsOfPlaceholderKeepsConnection(t *testing.T) {
	r := start(t, testConfig(t))
	ctx := context.Background()
	db := r.Connect(t, "root", "")
	servertest.Exec(t, db, "CREATE DATABASE db", "CREATE TABLE db.t (id BIGINT PRIMARY KEY, v VARCHAR(10))")
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	id := connectionID(t, conn)

	if _, err := conn.ExecContext(ctx, "PREPARE s FROM 'SELECT * FROM db.t AS OF ?'"); err == nil {
		t.Error("PREPARE … AS OF ? succeeded, want an error")
	} else {
		t.Logf("PREPARE: %v", err)
	}
	if got := connectionID(t, conn); got != id {
		t.Fatalf("connection changed from %d to %d after PREPARE", id, got)
	}

	rows, err := conn.QueryContext(ctx, "SELECT * FROM db.t AS OF ?", 1) // COM_STMT_PREPARE
	if err == nil {
		rows.Close()
		t.Error("binary-protocol AS OF ? succeeded, want an error")
	} else {
		t.Logf("COM_STMT_PREPARE: %v", err)
	}
	if got := connectionID(t, conn); got != id {
		t.Fatalf("connection changed from %d to %d after COM_STMT_PREPARE", id, got)
	}
}

// waitForStatement waits until the process list shows a statement
// containing text.
func waitForStatement(t *testing.T, db *sql.DB, text string) {
	t.Helper()
	waitFor(t, "statement "+text, func() bool {
		rows, err := db.Query("SELECT info FROM information_schema.processlist")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var info sql.NullString
			if err := rows.Scan(&info); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(info.String, text) && !strings.Contains(info.String, "processlist") {
				return true
			}
		}
		return false
	})
}

func TestShutdownFinishesRunningStatement(t *testing.T) {
	r := start(t, testConfig(t))
	ctx := context.Background()
	db := r.Connect(t, "root", "")
	busy, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	idle, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	result := make(chan error, 1)
	go func() {
		var v int
		result <- busy.QueryRowContext(ctx, "SELECT SLEEP(1)").Scan(&v)
	}()
	waitForStatement(t, db, "SLEEP(1)")

	shutdownCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := r.Shutdown(shutdownCtx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if err := <-result; err != nil {
		t.Errorf("statement running at shutdown: %v, want its result", err)
	}
	if _, err := idle.ExecContext(ctx, "SELECT 1"); err == nil {
		t.Error("an idle connection still works after shutdown")
	}
	if conn, err := net.Dial("tcp", r.Addr); err == nil {
		conn.Close()
		t.Error("the server still accepts connections after shutdown")
	}
}

func TestShutdownDeadlineCutsConnections(t *testing.T) {
	r := start(t, testConfig(t))
	ctx := context.Background()
	db := r.Connect(t, "root", "")
	busy, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	result := make(chan error, 1)
	go func() {
		var v int
		result <- busy.QueryRowContext(ctx, "SELECT SLEEP(5)").Scan(&v)
	}()
	waitForStatement(t, db, "SLEEP(5)")

	expired, cancel := context.WithCancel(ctx)
	cancel()
	if err := r.Shutdown(expired); !errors.Is(err, server.ErrShutdownTimeout) {
		t.Fatalf("shutdown past its deadline: %v, want ErrShutdownTimeout", err)
	}
	if err := <-result; err == nil {
		t.Error("the cut statement returned a result")
	}
}

// LOAD_FILE() checks no privilege in go-mysql-server v0.20.0, so file
// access is confined to the warehouse's files directory.
func TestFileAccessConfinedToFilesDir(t *testing.T) {
	cfg := testConfig(t)
	r := start(t, cfg)
	db := r.Connect(t, "root", "")
	servertest.Exec(t, db, "CREATE USER 'analyst'@'%' IDENTIFIED BY 'pw'")

	filesDir := filepath.Join(cfg.Warehouse, filepath.FromSlash(server.FilesDir))
	if err := os.WriteFile(filepath.Join(filesDir, "in.txt"), []byte("allowed"), 0o600); err != nil {
		t.Fatal(err)
	}
	var allowed sql.NullString
	if err := db.QueryRow("SELECT LOAD_FILE(?)", filepath.Join(filesDir, "in.txt")).Scan(&allowed); err != nil || allowed.String != "allowed" {
		t.Errorf("LOAD_FILE in the files directory = %q, %v; want its content", allowed.String, err)
	}

	privileges := filepath.Join(cfg.Warehouse, filepath.FromSlash(server.PrivilegesFile))
	if _, err := os.Stat(privileges); err != nil {
		t.Fatal(err)
	}
	var leaked sql.NullString
	err := r.Connect(t, "analyst", "pw").QueryRow("SELECT LOAD_FILE(?)", privileges).Scan(&leaked)
	if err == nil && leaked.Valid {
		t.Errorf("LOAD_FILE of the accounts file returned %d bytes", len(leaked.String))
	}
}

// A client that connects and never authenticates is cut after
// connect_timeout and frees its slot; an authenticated client is not.
func TestConnectTimeoutFreesSlotOfSilentClient(t *testing.T) {
	cfg := testConfig(t)
	cfg.MaxConnections = 1
	cfg.ConnectTimeout = server.Duration(200 * time.Millisecond)
	r := start(t, cfg)

	silent, err := net.Dial("tcp", r.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	if err := silent.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, silent); err != nil {
		t.Fatalf("silent client: %v, want the server to close the connection", err)
	}

	db := r.Connect(t, "root", "")
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatalf("connection after the silent one was cut: %v", err)
	}
	defer conn.Close()
	time.Sleep(3 * time.Duration(cfg.ConnectTimeout))
	if _, err := conn.ExecContext(context.Background(), "SELECT 1"); err != nil {
		t.Errorf("authenticated connection idle past connect_timeout: %v", err)
	}
}

// Configuring a root user removes the passwordless root of loopback
// servers.
func TestConfiguredRootReplacesPasswordlessRoot(t *testing.T) {
	cfg := testConfig(t)
	cfg.Users = []server.User{{Name: "root", Password: "rootpw"}}
	r := start(t, cfg)
	if err := r.Connect(t, "root", "").Ping(); servertest.ErrorNumber(err) != 1045 {
		t.Errorf("root without password: %v, want error 1045", err)
	}
	if got := queryString(t, r.Connect(t, "root", "rootpw"), "SELECT CURRENT_USER()"); got != "root@%" {
		t.Errorf("CURRENT_USER() = %q, want root@%%", got)
	}
}

func TestCorruptAccountsFileRefusesToStart(t *testing.T) {
	cfg := testConfig(t)
	path := filepath.Join(cfg.Warehouse, filepath.FromSlash(server.PrivilegesFile))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("not an accounts file"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := server.New(cfg, server.Options{}); !errors.Is(err, lakeerr.ErrCorruption) {
		t.Errorf("corrupt accounts file: %v, want ErrCorruption", err)
	}
}

func TestMetricsEndpoint(t *testing.T) {
	cfg := testConfig(t)
	cfg.MetricsListen = "127.0.0.1:0"
	s := start(t, cfg)
	db := s.Connect(t, "root", "")
	for _, q := range []string{"CREATE DATABASE m", "CREATE TABLE m.t (id BIGINT NOT NULL PRIMARY KEY, v INT)", "INSERT INTO m.t VALUES (1, 2)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	resp, err := http.Get("http://" + s.Server.MetricsAddr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, want := range []string{`lakesql_commits_total{`, `outcome="committed"`, `lakesql_statements_total{`,
		"lakesql_page_cache_hits_total ", "lakesql_page_cache_misses_total ", "lakesql_page_cache_bytes "} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// SHOW PROCESSLIST names each connection's user and host, also for
// clients that never select a database.
func TestProcessListNamesUsers(t *testing.T) {
	r := start(t, testConfig(t))
	root := r.Connect(t, "root", "")
	if _, err := root.Exec("CREATE USER analyst IDENTIFIED BY 'pw'"); err != nil {
		t.Fatal(err)
	}
	analyst := r.Connect(t, "analyst", "pw")
	var user, host string
	if err := analyst.QueryRow("SELECT user, host FROM information_schema.processlist WHERE id = CONNECTION_ID()").Scan(&user, &host); err != nil {
		t.Fatal(err)
	}
	if user != "analyst" || !strings.HasPrefix(host, "127.0.0.1:") {
		t.Errorf("own connection listed as user %q host %q, want analyst from 127.0.0.1", user, host)
	}
	rows, err := root.Query("SHOW PROCESSLIST")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	users := map[string]bool{}
	for rows.Next() {
		var id, command, state, info sql.NullString
		var time sql.NullInt64
		var u, h, db sql.NullString
		if err := rows.Scan(&id, &u, &h, &db, &command, &time, &state, &info); err != nil {
			t.Fatal(err)
		}
		users[u.String] = true
	}
	if !users["root"] || !users["analyst"] || users["unauthenticated user"] {
		t.Errorf("SHOW PROCESSLIST users %v, want root and analyst", users)
	}
}

// SET PASSWORD FOR an account, and a user's SET PASSWORD of its own,
// change the password that logs in, also after a restart.
func TestSetPassword(t *testing.T) {
	cfg := testConfig(t)
	r := start(t, cfg)
	root := r.Connect(t, "root", "")
	servertest.Exec(t, root, "CREATE USER 'analyst'@'%' IDENTIFIED BY 'first'")
	servertest.Exec(t, root, "SET PASSWORD FOR 'analyst'@'%' = 'second'")
	servertest.Exec(t, r.Connect(t, "analyst", "second"), "SET PASSWORD = 'third'")
	_, err := root.Exec("SET PASSWORD FOR nosuch = 'x'")
	if n := servertest.ErrorNumber(err); n != 1396 {
		t.Errorf("SET PASSWORD FOR an unknown account: %v, want 1396", err)
	}
	r.Stop(t)

	r = start(t, cfg)
	for password, works := range map[string]bool{"first": false, "second": false, "third": true} {
		err := r.Connect(t, "analyst", password).Ping()
		if works != (err == nil) {
			t.Errorf("analyst with password %q after restart: %v", password, err)
		}
	}
}
