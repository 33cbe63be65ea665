package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// asCapbridge, when set in the environment, makes the test binary run as
// capbridge itself: the end-to-end tests start it as `capbridge serve`,
// `capbridge index` and `capbridge demo-server`, real child processes
// speaking MCP over stdio (the pattern of go-sdk's cmd_test.go).
const asCapbridge = "CAPBRIDGE_TEST_AS_CAPBRIDGE"

func TestMain(m *testing.M) {
	if os.Getenv(asCapbridge) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err := Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(ExitCode(err, os.Stderr))
	}
	os.Exit(m.Run())
}
