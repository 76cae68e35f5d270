package server

import (
	"net"
	"time"

	"github.com/dolthub/vitess/go/mysql"
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
type authServer struct {
	mysql.AuthServer
	requireTLS bool
}

func (a authServer) AuthMethods() []mysql.AuthMethod {
	methods := a.AuthServer.AuthMethods()
	wrapped := make([]mysql.AuthMethod, len(methods))
	for i, m := range methods {
		wrapped[i] = authMethod{AuthMethod: m, requireTLS: a.requireTLS}
	}
	return wrapped
}

type authMethod struct {
	mysql.AuthMethod
	requireTLS bool
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
