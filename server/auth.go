package server

import (
	"context"
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
//     that ignores the error gets in over plaintext. Here authentication
//     itself fails.
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
	return wrapped
}

type authMethod struct {
	mysql.AuthMethod
	requireTLS bool
	accounts   *accountStore
}

// HandleUser is the first look at the client's account: vitess asks the
// method the client chose (or, failing that, each method) whether it
// handles the user. The accounts are refreshed first; if the warehouse
// cannot be read, the client is checked against the accounts as they were.
func (m authMethod) HandleUser(c *mysql.Conn, user string) bool {
	if err := m.accounts.refresh(sql.NewContext(context.Background())); err != nil {
		logrus.WithError(err).Warn("reading other servers' account changes failed; authenticating with the accounts known")
	}
	return m.AuthMethod.HandleUser(c, user)
}

func (m authMethod) HandleAuthPluginData(c *mysql.Conn, user string, serverAuthPluginData, clientAuthPluginData []byte, remoteAddr net.Addr) (mysql.Getter, error) {
	if m.requireTLS && !c.TLSEnabled() {
		return nil, mysql.NewSQLError(mysql.ERAccessDeniedError, mysql.SSAccessDeniedError,
			"server does not allow insecure connections, client must use SSL/TLS")
	}
	getter, err := m.AuthMethod.HandleAuthPluginData(c, user, serverAuthPluginData, clientAuthPluginData, remoteAddr)
	if err == nil {
		_ = c.Conn.SetDeadline(time.Time{})
	}
	return getter, err
}
