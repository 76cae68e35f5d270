package server

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/sirupsen/logrus"
)

// authServer wraps go-mysql-server's account checks with two rules vitess
// leaves open:
//
//   - require_secure_transport: vitess sends the client an error when it
//     does not switch to TLS but then goes on authenticating it, so a client
//     that ignores the error gets in over plaintext; and its error is a
//     1105. Here authentication itself fails, with MySQL's 3159 (vitess's
//     own check is left off).
//   - unknown accounts: when no method handles the user, vitess sends a
//     handshake error that clients read as "2027 Received malformed
//     packet". Here the first method takes such a user, and its password
//     check refuses it with 1045, as MySQL refuses every unknown account,
//     in MySQL's words ("Access denied for user 'u'@'h' (using password:
//     YES)").
//   - connect_timeout: the handshake runs under a deadline set when the
//     connection arrives (handler.NewConnection), and the deadline is lifted
//     once the client has authenticated; otherwise clients that connect and
//     send nothing would hold connection slots forever.
//
// It also brings in the account changes other servers on the warehouse
// made (accountStore.refresh) before it looks the client's account up.
type authServer struct {
	mysql.AuthServer
	requireTLS bool
	accounts   *accountStore
}

func (a authServer) AuthMethods() []mysql.AuthMethod {
	methods := a.AuthServer.AuthMethods()
	wrapped := make([]mysql.AuthMethod, len(methods))
	for i, m := range methods {
		wrapped[i] = authMethod{AuthMethod: m, requireTLS: a.requireTLS, accounts: a.accounts}
	}
	if len(methods) > 0 {
		first := wrapped[0].(authMethod)
		first.others = methods[1:]
		wrapped[0] = first
	}
	return wrapped
}

type authMethod struct {
	mysql.AuthMethod
	requireTLS bool
	accounts   *accountStore
	// others is set on the first method only: the methods after it, which
	// it asks before taking a user none of them handles.
	others []mysql.AuthMethod
}

// erSecureTransportRequired is ER_SECURE_TRANSPORT_REQUIRED, which vitess
// does not name.
const erSecureTransportRequired = 3159

// HandleUser is the first look at the client's account: vitess asks the
// method the client chose (or, failing that, each method) whether it
// handles the user. The accounts are refreshed first; if the warehouse
// cannot be read, the client is checked against the accounts as they were.
func (m authMethod) HandleUser(c *mysql.Conn, user string) bool {
	if err := m.accounts.refresh(sql.NewContext(context.Background())); err != nil {
		logrus.WithError(err).Warn("reading other servers' account changes failed; authenticating with the accounts known")
	}
	if m.AuthMethod.HandleUser(c, user) {
		return true
	}
	if m.others == nil {
		return false
	}
	for _, other := range m.others {
		if other.HandleUser(c, user) {
			return false
		}
	}
	return true
}

func (m authMethod) HandleAuthPluginData(c *mysql.Conn, user string, serverAuthPluginData, clientAuthPluginData []byte, remoteAddr net.Addr) (mysql.Getter, error) {
	if m.requireTLS && !c.TLSEnabled() {
		return nil, mysql.NewSQLError(erSecureTransportRequired, mysql.SSUnknownSQLState,
			"Connections using insecure transport are prohibited while --require_secure_transport=ON.")
	}
	getter, err := m.AuthMethod.HandleAuthPluginData(c, user, serverAuthPluginData, clientAuthPluginData, remoteAddr)
	if err != nil {
		return nil, accessDenied(err, user, remoteAddr, len(clientAuthPluginData) > 0)
	}
	_ = c.Conn.SetDeadline(time.Time{})
	return getter, nil
}

// accessDenied puts a refused login in MySQL's words, which name the host
// and whether a password was sent: go-mysql-server names only the user.
func accessDenied(err error, user string, remoteAddr net.Addr, withPassword bool) error {
	var se *mysql.SQLError
	if !errors.As(err, &se) || se.Num != mysql.ERAccessDeniedError {
		return err
	}
	host := "localhost"
	if remoteAddr != nil && remoteAddr.Network() != "unix" {
		if h, _, splitErr := net.SplitHostPort(remoteAddr.String()); splitErr == nil {
			host = h
		}
	}
	using := "NO"
	if withPassword {
		using = "YES"
	}
	return mysql.NewSQLError(mysql.ERAccessDeniedError, mysql.SSAccessDeniedError,
		"Access denied for user '%s'@'%s' (using password: %s)", user, host, using)
}
