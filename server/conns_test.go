package server

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/dolthub/vitess/go/mysql"
)

func TestTooManyConnectionsPacket(t *testing.T) {
	packet := tooManyConnectionsPacket()
	// 3-byte length, sequence 0, 0xff, error 1040 little-endian, message.
	want := append([]byte{23, 0, 0, 0, 0xff, 0x10, 0x04}, "Too many connections"...)
	if string(packet) != string(want) {
		t.Errorf("packet % x, want % x", packet, want)
	}
}

func TestConnTrackerLimit(t *testing.T) {
	tr := newConnTracker(2)
	for i := range 2 {
		if !tr.reserve() {
			t.Fatalf("connection %d of 2 was refused", i+1)
		}
	}
	if tr.reserve() {
		t.Fatal("a third connection was let in over a limit of 2")
	}
	server, client := net.Pipe()
	defer client.Close()
	c := &mysql.Conn{Conn: server}
	tr.add(c)
	tr.remove(c)
	if !tr.reserve() {
		t.Error("a closed connection did not free its slot")
	}
}

func TestDrainWaitsForOpenConnections(t *testing.T) {
	tr := newConnTracker(0)
	tr.reserve()
	server, client := net.Pipe()
	defer client.Close()
	c := &mysql.Conn{Conn: server}
	tr.add(c)
	drained := tr.drain()
	select {
	case <-drained:
		t.Fatal("drained with a connection open")
	default:
	}
	// net.Pipe cannot be half-closed, so draining closed it.
	if _, err := client.Read(make([]byte, 1)); err == nil {
		t.Error("the drained connection is still open")
	}
	tr.remove(c)
	<-drained
}

// panicking is a handler whose every command panics.
type panicking struct{ mysql.Handler }

func (panicking) ComQuery(context.Context, *mysql.Conn, string, mysql.ResultSpoolFn) error {
	panic("boom")
}

func (panicking) ComInitDB(*mysql.Conn, string) error { panic("boom") }

func TestPanicBecomesError1105(t *testing.T) {
	h := &handler{Handler: panicking{}, tracker: newConnTracker(0)}
	c := &mysql.Conn{}
	for name, run := range map[string]func() error{
		"ComQuery":  func() error { return h.ComQuery(context.Background(), c, "SELECT 1", nil) },
		"ComInitDB": func() error { return h.ComInitDB(c, "db") },
	} {
		err := run()
		var sqlErr *mysql.SQLError
		if !errors.As(err, &sqlErr) || sqlErr.Number() != mysql.ERUnknownError || !strings.Contains(sqlErr.Error(), "boom") {
			t.Errorf("%s: %v, want error 1105 naming the panic", name, err)
		}
	}
}

// accepting is an auth method that accepts everyone and records calls.
type accepting struct {
	mysql.AuthMethod
	called *bool
}

func (a accepting) HandleAuthPluginData(*mysql.Conn, string, []byte, []byte, net.Addr) (mysql.Getter, error) {
	*a.called = true
	return nil, nil
}

// A client that ignores vitess's "must use SSL/TLS" error and goes on
// authenticating over plaintext is refused by authentication itself.
func TestRequireSecureTransportRefusesPlaintextAuthentication(t *testing.T) {
	var called bool
	m := authMethod{AuthMethod: accepting{called: &called}, requireTLS: true}
	_, err := m.HandleAuthPluginData(&mysql.Conn{}, "root", nil, nil, nil)
	var sqlErr *mysql.SQLError
	if !errors.As(err, &sqlErr) || sqlErr.Number() != erSecureTransportRequired {
		t.Errorf("plaintext authentication: %v, want error 3159", err)
	}
	if called {
		t.Error("the password was checked for a plaintext client")
	}
}
