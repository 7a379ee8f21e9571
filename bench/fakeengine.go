package main

import (
	"io"
	"os"
	"slices"

	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// fakeEngineArg as the first argument makes the runner act as a trivial UCI
// engine, so the adapters' own cost is visible without an engine's (start-up,
// flood). Re-running our own binary needs nothing built or installed.
const fakeEngineArg = "fake-engine"

// benchEngineFlags make the tests' fake engine (package ucitest) a trivial
// one: no options to announce, one move whatever the position (none to
// follow), no line before its bestmove but a flood (-flood N) written in
// 64 KB chunks, as fast as it can.
var benchEngineFlags = []string{"-name=BenchFake", "-author=polyproxy bench", "-options=false", "-bestmove=e2e4", "-no-info", "-flood-buffered"}

// runFakeEngine runs the fake engine with the bench's flags, then args.
func runFakeEngine(args []string, stdin io.Reader, stdout io.Writer) int {
	return ucitest.Main(append(slices.Clone(benchEngineFlags), args...), stdin, stdout, os.Stderr)
}
