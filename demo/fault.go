package demo

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// FaultEnv is the environment variable that `capbridge demo-server` reads a
// fault from when no --fault flag is given, so tests can make a configured
// child process misbehave.
const FaultEnv = "CAPBRIDGE_DEMO_FAULT"

// Exit statuses of the faults that end the process.
const (
	ExitAtStart = 3 // exit-at-start
	ExitCrash   = 4 // crash-on-call
)

// FaultMode names one misbehaviour of the server.
type FaultMode string

// The fault modes; the package documentation says what each one does.
const (
	FaultNone         FaultMode = ""
	FaultBanner       FaultMode = "banner"
	FaultExitAtStart  FaultMode = "exit-at-start"
	FaultMute         FaultMode = "mute"
	FaultCrashOnCall  FaultMode = "crash-on-call"
	FaultGarbage      FaultMode = "garbage"
	FaultHang         FaultMode = "hang"
	FaultSlow         FaultMode = "slow"
	FaultHuge         FaultMode = "huge"
	FaultPagesForever FaultMode = "pages-forever"
	FaultSchemaChange FaultMode = "schema-change"
	FaultBigCatalog   FaultMode = "big-catalog"
	FaultListedTwice  FaultMode = "listed-twice"
	FaultSlowStart    FaultMode = "slow-start"
	FaultInject       FaultMode = "inject"
	FaultFlood        FaultMode = "list-changed-flood"
)

// DefaultFlood is how many notifications list-changed-flood sends when no
// count is given.
const DefaultFlood = 3000

// DefaultHugeBytes is the size of a huge answer when none is given.
const DefaultHugeBytes = 20 << 20

// maxBigCatalog bounds big-catalog:N, so a typo cannot exhaust memory.
const maxBigCatalog = 100_000

// Fault is one parsed fault mode with its parameter.
type Fault struct {
	Mode FaultMode
	// N is the call that crashes (crash-on-call, from 1), the number of
	// tools (big-catalog), the answer's size in bytes (huge) or the
	// notifications sent (list-changed-flood).
	N int
	// Delay is how long a slow server sleeps before answering, or a
	// slow-start one before it reads its first message.
	Delay time.Duration
	// Inject is what an inject fault puts into every answer (see
	// [Injections]).
	Inject string
}

// String returns the fault in the form ParseFault reads.
func (f Fault) String() string {
	switch f.Mode {
	case FaultSlow, FaultSlowStart:
		return fmt.Sprintf("%s:%s", f.Mode, f.Delay)
	case FaultInject:
		return fmt.Sprintf("%s:%s", f.Mode, f.Inject)
	case FaultCrashOnCall, FaultHuge, FaultBigCatalog, FaultFlood:
		return fmt.Sprintf("%s:%d", f.Mode, f.N)
	}
	return string(f.Mode)
}

// ParseFault reads a fault such as "crash-on-call:2" or "slow:250ms". The
// empty string is no fault.
func ParseFault(s string) (Fault, error) {
	name, arg, hasArg := strings.Cut(strings.TrimSpace(s), ":")
	f := Fault{Mode: FaultMode(name)}
	switch f.Mode {
	case FaultNone, FaultBanner, FaultExitAtStart, FaultMute, FaultGarbage, FaultHang, FaultPagesForever, FaultSchemaChange,
		FaultListedTwice:
		if hasArg {
			return Fault{}, fmt.Errorf("fault %q takes no argument", name)
		}
		return f, nil
	case FaultSlow, FaultSlowStart:
		d, err := time.ParseDuration(arg)
		if err != nil || d < 0 {
			return Fault{}, fmt.Errorf("fault %s needs a duration, as in %s:500ms (got %q)", name, name, arg)
		}
		f.Delay = d
		return f, nil
	case FaultInject:
		if _, ok := injections[arg]; !ok {
			return Fault{}, fmt.Errorf("fault inject needs one of %s, as in inject:tag (got %q)", strings.Join(Injections(), ", "), arg)
		}
		f.Inject = arg
		return f, nil
	case FaultCrashOnCall:
		return withCount(f, arg, hasArg, 1, 1, maxBigCatalog)
	case FaultHuge:
		return withCount(f, arg, hasArg, DefaultHugeBytes, 1, 1<<30)
	case FaultFlood:
		return withCount(f, arg, hasArg, DefaultFlood, 1, 1_000_000)
	case FaultBigCatalog:
		if !hasArg {
			return Fault{}, fmt.Errorf("fault big-catalog needs a tool count, as in big-catalog:5000")
		}
		return withCount(f, arg, hasArg, 0, 1, maxBigCatalog)
	}
	return Fault{}, fmt.Errorf("unknown fault %q (known: %s)", name, strings.Join(faultNames(), ", "))
}

// withCount sets f.N from arg, or to def when there is no argument.
func withCount(f Fault, arg string, hasArg bool, def, lo, hi int) (Fault, error) {
	f.N = def
	if !hasArg {
		return f, nil
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < lo || n > hi {
		return Fault{}, fmt.Errorf("fault %s needs a number from %d to %d (got %q)", f.Mode, lo, hi, arg)
	}
	f.N = n
	return f, nil
}

func faultNames() []string {
	return []string{
		string(FaultBanner), string(FaultExitAtStart), string(FaultMute), string(FaultCrashOnCall) + "[:N]",
		string(FaultGarbage), string(FaultHang), string(FaultSlow) + ":DURATION",
		string(FaultHuge) + "[:BYTES]", string(FaultPagesForever), string(FaultSchemaChange),
		string(FaultBigCatalog) + ":N", string(FaultListedTwice), string(FaultSlowStart) + ":DURATION",
		string(FaultInject) + ":" + strings.Join(Injections(), "|"), string(FaultFlood) + "[:N]",
	}
}
