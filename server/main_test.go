package server_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/lakesql/lakesql/server"
)

// TestMain keeps go-mysql-server's per-connection info logs out of test
// output.
func TestMain(m *testing.M) {
	if err := server.ConfigureLogging(server.LogConfig{Level: "warning", Format: "text"}, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
