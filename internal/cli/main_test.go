package cli

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
)

// asCapbridge, when set in the environment, makes the test binary run as
// capbridge itself: the end-to-end tests start it as `capbridge serve`,
// `capbridge index` and `capbridge demo-server`, real child processes
// speaking MCP over stdio (the pattern of go-sdk's cmd_test.go).
const asCapbridge = "CAPBRIDGE_TEST_AS_CAPBRIDGE"

// runsAsCapbridge reports whether the test binary was started as capbridge:
// with asCapbridge set, or with a command as its first argument (go test
// starts it with -test. flags). The second covers the servers a capbridge
// child starts in turn (`capbridge demo`'s and bench's demo-server
// replays): capbridge gives a server only a safe set of its environment,
// so the marker does not reach them.
func runsAsCapbridge(args []string) bool {
	return os.Getenv(asCapbridge) == "1" || len(args) > 0 && !strings.HasPrefix(args[0], "-")
}

func TestMain(m *testing.M) {
	if runsAsCapbridge(os.Args[1:]) {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err := Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(ExitCode(err, os.Stderr))
	}
	// A binary built with -race sleeps a second before it exits, to let
	// other threads report: every serve, index and demo server a test
	// starts and stops would pay it (a shutdown test measures exit times).
	if !strings.Contains(os.Getenv("GORACE"), "atexit_sleep_ms") {
		os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" "+noExitSleep))
	}
	os.Exit(m.Run())
}

// noExitSleep, in GORACE, ends a -race binary without its exit sleep.
const noExitSleep = "atexit_sleep_ms=0"
