package integration

import (
	"testing"

	"github.com/lakesql/lakesql/internal/testkit/servertest"
	"github.com/lakesql/lakesql/server"
)

// lakesqlServer is a lakesql server serving a warehouse in this process.
type lakesqlServer = servertest.Server

// serverConfig serves warehouse, a directory or an s3:// URL (see
// newWarehouse), on a free loopback port.
func serverConfig(warehouse string) server.Config {
	cfg := servertest.Config(warehouse)
	cfg.S3 = testS3Config()
	return cfg
}

func startServer(t testing.TB, cfg server.Config) *lakesqlServer {
	t.Helper()
	return servertest.Start(t, cfg, server.Options{})
}
