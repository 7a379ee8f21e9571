// Command fakeengine is the fake UCI engine of polyproxy's tests as a
// program (package uci/ucitest has its behaviour). Tests build it with
// `go build -o DIR/fakeengine github.com/polyproxy/polyproxy/testdata/fakeengine`
// (from any folder of the module; ./testdata/fakeengine from the root).
//
// `fakeengine -h` lists its flags; each flag's default comes from an
// environment variable (FAKEENGINE_SEARCH_MS for -search-ms, ...), so a
// test can steer an engine that the proxy starts, and restarts, through
// the environment.
package main

import (
	"os"

	"github.com/polyproxy/polyproxy/uci/ucitest"
)

func main() {
	os.Exit(ucitest.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
