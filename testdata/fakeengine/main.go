// Command fakeengine is a small, scriptable UCI engine for polyproxy's tests.
// Tests build it with `go build -o DIR/fakeengine github.com/polyproxy/polyproxy/testdata/fakeengine`
// (from any folder of the module; ./testdata/fakeengine from the root).
//
// It speaks enough UCI for a proxy: uci (id name / id author / one option of
// every type / uciok), isready (readyok, also during a search), ucinewgame,
// position startpos|fen F [moves ...] (tracked with notnil/chess), go (after
// "info depth 1 score cp 0 ...", bestmove of the legal move that sorts first
// in UCI notation; "bestmove 0000" when there is none), go infinite / go ponder
// (bestmove only after stop / ponderhit), stop, quit. EOF on stdin is quit.
// A position, go, ucinewgame or quit during a search ends that search first.
//
// Behaviour is set by environment variables at start and by setoption at run
// time (same names, so a test can change it between searches):
//
//	FAKEENGINE_LOG=FILE        append every line received (as received, minus "\n") to FILE, written at once
//	FAKEENGINE_NAME=NAME       id name (default FakeEngine)
//	FAKEENGINE_START_MS=N      wait N ms after "uci" before answering it (slow start)
//	FAKEENGINE_SEARCH_MS=N     setoption name SearchMs value N: each timed go takes N ms (stop ends it early)
//	FAKEENGINE_CRASH_ON_GO=N   setoption name CrashOnGo value N: exit 3 without a word on the Nth go (counted from start)
//	                           setoption name Crash: exit 3 at once
//	FAKEENGINE_CRASH_ONCE=FILE with the crashes above: crash only if FILE does not exist, creating it
//	                           first, so an engine restarted by the proxy (same env) does not crash again
//	FAKEENGINE_EXIT_ON=CMD     exit 0 without answering when a line's first word is CMD (e.g. uci, isready, go)
//	FAKEENGINE_IGNORE_QUIT=1   ignore quit (stays until killed or stdin closes)
//	FAKEENGINE_FLOOD=N         setoption name Flood value N: print N info lines before each bestmove
//	FAKEENGINE_FLOOD_BUFFERED=1  write the flood through one buffer flushed at the end (default: flush every line)
//	FAKEENGINE_ODD=1           before each bestmove print "info string 100% sure %d %s", an empty line and a line of blanks
//	FAKEENGINE_STDERR=1        echo every line received to stderr as "fakeengine: got LINE"
//	FAKEENGINE_CHILD_PID=FILE  start a sleeping child process and write its pid to FILE (process-group tests)
//
// Illegal moves in a position line are answered with "info string illegal move M"
// and the rest of the line is ignored.
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/notnil/chess"
)

// out is stdout; every line is flushed at once unless a buffered flood is running.
type out struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (o *out) println(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Fprintf(o.w, format+"\n", args...)
	o.w.Flush()
}

type engine struct {
	out       *out
	log       *os.File
	pos       *chess.Position
	goCount   int
	searchMs  int
	crashOnGo int
	flood     int
	buffered  bool
	odd       bool
	stopCh    chan struct{} // closed by stop/ponderhit; nil when no search runs
	done      chan struct{} // closed when the running search has printed bestmove
	stopOnce  sync.Once
}

func envInt(name string) int {
	n, _ := strconv.Atoi(os.Getenv(name))
	return n
}

func main() {
	if os.Getenv("FAKEENGINE_SLEEPER") == "1" {
		time.Sleep(time.Hour)
		return
	}
	e := &engine{
		out:       &out{w: bufio.NewWriter(os.Stdout)},
		pos:       chess.StartingPosition(),
		searchMs:  envInt("FAKEENGINE_SEARCH_MS"),
		crashOnGo: envInt("FAKEENGINE_CRASH_ON_GO"),
		flood:     envInt("FAKEENGINE_FLOOD"),
		buffered:  os.Getenv("FAKEENGINE_FLOOD_BUFFERED") == "1",
		odd:       os.Getenv("FAKEENGINE_ODD") == "1",
	}
	if path := os.Getenv("FAKEENGINE_LOG"); path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakeengine:", err)
			os.Exit(2)
		}
		e.log = f
	}
	if path := os.Getenv("FAKEENGINE_CHILD_PID"); path != "" {
		startChild(path)
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	for {
		line, err := in.ReadString('\n')
		if line != "" {
			e.handle(strings.TrimSuffix(line, "\n"))
		}
		if err != nil {
			e.endSearch()
			return
		}
	}
}

func startChild(pidFile string) {
	self, err := os.Executable()
	if err == nil {
		cmd := exec.Command(self)
		cmd.Env = append(os.Environ(), "FAKEENGINE_SLEEPER=1")
		if err = cmd.Start(); err == nil {
			err = os.WriteFile(pidFile, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeengine: child:", err)
	}
}

func (e *engine) handle(raw string) {
	if e.log != nil {
		e.log.WriteString(raw + "\n")
	}
	if os.Getenv("FAKEENGINE_STDERR") == "1" {
		fmt.Fprintln(os.Stderr, "fakeengine: got", raw)
	}
	fields := strings.Fields(raw)
	if len(fields) == 0 {
		return
	}
	if exitOn := os.Getenv("FAKEENGINE_EXIT_ON"); exitOn != "" && fields[0] == exitOn {
		os.Exit(0)
	}
	switch fields[0] {
	case "uci":
		time.Sleep(time.Duration(envInt("FAKEENGINE_START_MS")) * time.Millisecond)
		name := os.Getenv("FAKEENGINE_NAME")
		if name == "" {
			name = "FakeEngine"
		}
		for _, l := range []string{
			"id name " + name,
			"id author polyproxy tests",
			"option name Hash type spin default 16 min 1 max 1024",
			"option name Ponder type check default false",
			"option name UCI_Chess960 type check default false",
			"option name SyzygyPath type string default <empty>",
			"option name Style type combo default Normal var Solid var Normal var Risky",
			"option name Clear Hash type button",
			"option name SearchMs type spin default 0 min 0 max 100000",
			"option name CrashOnGo type spin default 0 min 0 max 100000",
			"option name Flood type spin default 0 min 0 max 10000000",
			"option name Crash type button",
			"uciok",
		} {
			e.out.println("%s", l)
		}
	case "isready":
		e.out.println("readyok")
	case "setoption":
		e.setoption(fields[1:])
	case "ucinewgame":
		e.endSearch()
		e.pos = chess.StartingPosition()
	case "position":
		e.endSearch()
		e.position(fields[1:])
	case "go":
		e.endSearch()
		e.goCount++
		if e.crashOnGo > 0 && e.goCount == e.crashOnGo {
			crash()
		}
		e.startSearch(fields[1:])
	case "stop", "ponderhit":
		e.endSearch()
	case "quit":
		if os.Getenv("FAKEENGINE_IGNORE_QUIT") == "1" {
			return
		}
		e.endSearch()
		os.Exit(0)
	}
}

// crash exits with status 3 at once, unless FAKEENGINE_CRASH_ONCE names a
// file that exists (an earlier process crashed already).
func crash() {
	if mark := os.Getenv("FAKEENGINE_CRASH_ONCE"); mark != "" {
		f, err := os.OpenFile(mark, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return
		}
		f.Close()
	}
	os.Exit(3)
}

// setoption handles "name N [value V]" for the options that change behaviour.
func (e *engine) setoption(args []string) {
	var name, value []string
	cur := &[]string{}
	for _, a := range args {
		switch a {
		case "name":
			cur = &name
		case "value":
			cur = &value
		default:
			*cur = append(*cur, a)
		}
	}
	n, _ := strconv.Atoi(strings.Join(value, " "))
	switch strings.ToLower(strings.Join(name, " ")) {
	case "crash":
		crash()
	case "searchms":
		e.searchMs = n
	case "crashongo":
		e.crashOnGo = n
	case "flood":
		e.flood = n
	}
}

func (e *engine) position(args []string) {
	if len(args) == 0 {
		return
	}
	var pos *chess.Position
	rest := args[1:]
	switch args[0] {
	case "startpos":
		pos = chess.StartingPosition()
	case "fen":
		end := len(rest)
		for i, a := range rest {
			if a == "moves" {
				end = i
				break
			}
		}
		fen := strings.Join(rest[:end], " ")
		if end == 4 {
			fen += " 0 1"
		}
		pos = &chess.Position{}
		if err := pos.UnmarshalText([]byte(fen)); err != nil {
			e.out.println("info string bad fen %s", fen)
			return
		}
		rest = rest[end:]
	default:
		return
	}
	if len(rest) > 0 && rest[0] == "moves" {
		for _, m := range rest[1:] {
			next := play(pos, m)
			if next == nil {
				e.out.println("info string illegal move %s", m)
				break
			}
			pos = next
		}
	}
	e.pos = pos
}

// play applies a UCI move found among the legal moves (never a decoded one:
// notnil sets check state only from the move's tags).
func play(pos *chess.Position, uci string) *chess.Position {
	for _, m := range pos.ValidMoves() {
		if m.String() == uci {
			return pos.Update(m)
		}
	}
	return nil
}

func (e *engine) startSearch(args []string) {
	wait := false
	for _, a := range args {
		if a == "infinite" || a == "ponder" {
			wait = true
		}
	}
	e.stopCh = make(chan struct{})
	e.stopOnce = sync.Once{}
	e.done = make(chan struct{})
	stop, done := e.stopCh, e.done
	move := "0000"
	moves := e.pos.ValidMoves()
	if len(moves) > 0 {
		names := make([]string, len(moves))
		for i, m := range moves {
			names[i] = m.String()
		}
		sort.Strings(names)
		move = names[0]
	}
	searchMs, flood := e.searchMs, e.flood
	go func() {
		defer close(done)
		e.out.println("info depth 1 score cp 0 nodes 1 time 0 pv %s", move)
		e.printFlood(flood, move)
		if wait {
			<-stop
		} else if searchMs > 0 {
			select {
			case <-stop:
			case <-time.After(time.Duration(searchMs) * time.Millisecond):
			}
		}
		if e.odd {
			e.out.println("info string 100%% sure %%d %%s")
			e.out.println("")
			e.out.println(" \t  ")
		}
		e.out.println("bestmove %s", move)
	}()
}

func (e *engine) printFlood(n int, move string) {
	if n == 0 {
		return
	}
	e.out.mu.Lock()
	defer e.out.mu.Unlock()
	for i := 1; i <= n; i++ {
		fmt.Fprintf(e.out.w, "info depth %d seldepth %d score cp %d nodes %d nps 1000000 time %d pv %s\n", i%64+1, i%64+3, i%200-100, i*1000, i, move)
		if !e.buffered {
			e.out.w.Flush()
		}
	}
	e.out.w.Flush()
}

// endSearch stops a running search (it still prints its bestmove) and waits
// for it, so a command that needs a quiet engine never deadlocks behind
// "go infinite"; the FAKEENGINE_LOG shows whether a stop came first.
func (e *engine) endSearch() {
	if e.done == nil {
		return
	}
	e.stopOnce.Do(func() { close(e.stopCh) })
	<-e.done
	e.done, e.stopCh = nil, nil
}
