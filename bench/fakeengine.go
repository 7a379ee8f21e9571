package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
)

// fakeEngineArg as the first argument makes the runner act as a trivial UCI
// engine, so the adapters' own cost is visible without an engine's (start-up,
// flood). Re-running our own binary needs nothing built or installed.
const fakeEngineArg = "fake-engine"

// runFakeEngine answers uci and isready at once and, on go, prints flood
// info lines as fast as it can (one buffered stream, not a write per line)
// before its bestmove.
func runFakeEngine(args []string, stdin io.Reader, stdout io.Writer) int {
	fs := flag.NewFlagSet(fakeEngineArg, flag.ContinueOnError)
	flood := fs.Int("flood", 0, "info lines to print before each bestmove")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	out := bufio.NewWriterSize(stdout, 64<<10)
	for in.Scan() {
		switch firstWord(in.Text()) {
		case "uci":
			out.WriteString("id name BenchFake\nid author polyproxy bench\nuciok\n")
		case "isready":
			out.WriteString("readyok\n")
		case "go":
			var line []byte
			for i := 1; i <= *flood; i++ {
				// A realistic line: what Stockfish prints per iteration.
				line = append(line[:0], "info depth "...)
				line = strconv.AppendInt(line, int64(i%64+1), 10)
				line = append(line, " seldepth 30 multipv 1 score cp 17 nodes "...)
				line = strconv.AppendInt(line, int64(i)*1000, 10)
				line = append(line, " nps 1500000 hashfull 0 tbhits 0 time "...)
				line = strconv.AppendInt(line, int64(i), 10)
				line = append(line, " pv e2e4 e7e5 g1f3\n"...)
				out.Write(line)
			}
			out.WriteString("bestmove e2e4\n")
		case "quit":
			out.Flush()
			return 0
		}
		if err := out.Flush(); err != nil {
			fmt.Fprintln(os.Stderr, "fake engine:", err)
			return 1
		}
	}
	return 0
}
