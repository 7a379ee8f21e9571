// Package ucitest is a scriptable fake UCI engine for tests, as
// net/http/httptest is a fake server: Serve speaks UCI over any reader and
// writer, Start runs it in-process (an engine the proxy's tests drive
// directly), and Main is the command line of the process that the
// integration tests build from testdata/fakeengine and that the benchmark
// runs. Settings say how it behaves, well or badly.
//
// It speaks enough UCI for a proxy: uci (id name and author, options,
// uciok), isready (readyok, also during a search), setoption, ucinewgame,
// position, go (bestmove after an info line with a score; go infinite and
// go ponder wait for stop or ponderhit; go perft prints counts and no
// bestmove, as Stockfish), stop, ponderhit, quit; and, as Stockfish, d
// (the position's FEN) and "Unknown command: ..." for what it does not
// know. A position, ucinewgame
// or go during a search ends that search first (it still prints its
// bestmove), so a command that needs a quiet engine never waits behind go
// infinite; a go during a search is also reported as misuse, since a real
// engine would choke on it. The end of input is quit.
package ucitest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/notnil/chess"
)

// Settings say how the fake engine behaves. The zero value is a well
// behaved engine that follows the game and plays the legal move that sorts
// first.
type Settings struct {
	Name    string   // id name; "": DefaultName
	NoName  bool     // no id name line at all
	Author  string   // id author; "": DefaultAuthor
	Options []string // the option lines it announces; nil: DefaultOptions
	// Greeting is printed at start, before any command (a banner).
	Greeting []string

	// BestMove is what every search plays, whatever the position (which is
	// then not followed). "": the legal move that sorts first in UCI
	// notation ("0000" without one); the game is followed and a bad FEN or
	// an illegal move is answered with an info string.
	BestMove string
	// Ponder names, in a followed game, the reply that sorts first after
	// the move played as the bestmove's ponder move (none when it ends the
	// game).
	Ponder bool
	Score  int  // the score (centipawns) of the info line before each bestmove
	NoInfo bool // no info line before bestmove

	StartDelay time.Duration // before answering uci
	ReadyDelay time.Duration // before answering isready; nothing else is read meanwhile
	SearchTime time.Duration // how long a timed go searches (stop ends it early)
	Flood      int           // info lines printed at the start of each search
	// FloodBuffered writes a flood in 64 KB chunks rather than a write per
	// line.
	FloodBuffered bool
	// Odd prints, before each bestmove, "info string 100% sure %d %s", an
	// empty line and a line of blanks.
	Odd bool

	Mute            bool // never answers uci, as a program that does not speak UCI
	IgnoreStop      bool // a hung search: only the engine's end ends it
	IgnorePonderHit bool // keeps pondering after ponderhit
	IgnoreQuit      bool // stays after quit, until its input ends
	// ExitOn makes it exit (status 0) without answering a line whose first
	// word it is.
	ExitOn string
	// CrashOnGo makes it exit with status 3, without a word, on the Nth go
	// since it started ("setoption name Crash" and "crash" at once).
	CrashOnGo int
	// CrashIn makes it exit with status 3, without a word, on every go in
	// a position whose position line contains this text (as Stockfish on
	// a position it cannot handle).
	CrashIn string
	// CrashOnce, with the crashes above: crash only if this file does not
	// exist, and create it, so an engine restarted by the proxy (same
	// settings) does not crash again.
	CrashOnce string

	Log  io.Writer // every line received, as received, written at once
	Echo io.Writer // every line received as "fakeengine: got LINE" (e.g. stderr)
	// OnMisuse is called with each command a real engine would choke on:
	// a go while a search runs.
	OnMisuse func(line string)
}

// The fake engine's names, unless Settings say otherwise.
const (
	DefaultName   = "FakeEngine"
	DefaultAuthor = "polyproxy tests"
)

// DefaultOptions are the options it announces unless Settings say
// otherwise: one of every type, and those that steer it at run time
// (setoption name SearchMs, CrashOnGo, Flood take a number; Crash crashes
// it at once).
var DefaultOptions = []string{
	"option name Hash type spin default 16 min 1 max 1024",
	"option name Skill Level type spin default 20 min 0 max 20",
	"option name Ponder type check default false",
	"option name UCI_Chess960 type check default false",
	"option name SyzygyPath type string default <empty>",
	"option name Style type combo default Normal var Solid var Normal var Risky",
	"option name Clear Hash type button",
	"option name SearchMs type spin default 0 min 0 max 100000",
	"option name CrashOnGo type spin default 0 min 0 max 100000",
	"option name Flood type spin default 0 min 0 max 10000000",
	"option name Crash type button",
}

// Exit statuses Serve returns.
const (
	ExitOK    = 0
	ExitCrash = 3
)

// Serve is the engine: it reads commands from in and answers on out until
// quit, the end of in, a crash or exit the settings ask for, or ctx ends.
// It returns the exit status a process would have.
func Serve(ctx context.Context, in io.Reader, out io.Writer, s Settings) int {
	e := &engine{s: s, ctx: ctx, out: &output{w: bufio.NewWriterSize(out, 64<<10)}, pos: chess.StartingPosition()}
	if e.s.Name == "" {
		e.s.Name = DefaultName
	}
	if e.s.Author == "" {
		e.s.Author = DefaultAuthor
	}
	if e.s.Options == nil {
		e.s.Options = DefaultOptions
	}
	defer e.out.close() // after a crash nothing more is said
	e.out.lines(e.s.Greeting...)
	r := bufio.NewReaderSize(in, 64<<10)
	for ctx.Err() == nil {
		line, err := r.ReadString('\n')
		if line != "" {
			if code, done := e.handle(strings.TrimSuffix(line, "\n")); done {
				return code
			}
		}
		if err != nil {
			e.endSearch()
			return ExitOK
		}
	}
	return ExitOK
}

// output is the engine's stdout, shared with a running search.
type output struct {
	mu   sync.Mutex
	w    *bufio.Writer
	dead bool
}

// lines writes lines with one flush: a command's answer in one write.
func (o *output) lines(lines ...string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.dead || len(lines) == 0 {
		return
	}
	for _, l := range lines {
		o.w.WriteString(l)
		o.w.WriteByte('\n')
	}
	o.w.Flush()
}

func (o *output) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.dead = true
}

type engine struct {
	s       Settings
	ctx     context.Context
	out     *output
	pos     *chess.Position
	posLine string // the last position line
	goCount int
	// The running search: stop is closed to end it, done when it has
	// printed its bestmove; both nil when none runs.
	stop, done chan struct{}
	// answered is set when the running search has ended, just before its
	// bestmove is printed: a go after that bestmove is no misuse.
	answered *atomic.Bool
}

// sleep waits d, or less if the engine is ended.
func (e *engine) sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-e.ctx.Done():
	}
}

// handle answers one line; done says the engine ends, with code.
func (e *engine) handle(raw string) (code int, done bool) {
	if e.s.Log != nil {
		io.WriteString(e.s.Log, raw+"\n")
	}
	if e.s.Echo != nil {
		fmt.Fprintln(e.s.Echo, "fakeengine: got", raw)
	}
	fields := strings.Fields(raw) // any blanks separate words, as in real engines
	if len(fields) == 0 {
		return 0, false
	}
	if e.s.ExitOn != "" && fields[0] == e.s.ExitOn {
		return ExitOK, true
	}
	switch fields[0] {
	case "uci":
		if e.s.Mute {
			return 0, false
		}
		e.sleep(e.s.StartDelay)
		lines := []string{"id name " + e.s.Name, "id author " + e.s.Author}
		if e.s.NoName {
			lines = lines[1:]
		}
		lines = append(lines, e.s.Options...)
		e.out.lines(append(lines, "uciok")...)
	case "isready":
		e.sleep(e.s.ReadyDelay)
		e.out.lines("readyok")
	case "setoption":
		return e.setoption(fields[1:])
	case "ucinewgame":
		e.endSearch()
		e.pos = chess.StartingPosition()
	case "position":
		e.endSearch()
		e.posLine = raw
		if e.s.BestMove == "" {
			e.position(fields[1:])
		}
	case "go":
		if slices.Contains(fields, "perft") {
			e.out.lines("a1a3: 1", "", "Nodes searched: 20", "") // as Stockfish: no bestmove
			return 0, false
		}
		if e.searching() {
			if e.s.OnMisuse != nil {
				e.s.OnMisuse(raw)
			}
			if e.s.IgnoreStop {
				return 0, false // hung: the go is lost
			}
		}
		e.endSearch()
		e.goCount++
		if e.s.CrashOnGo > 0 && e.goCount == e.s.CrashOnGo && e.crash() {
			return ExitCrash, true
		}
		if e.s.CrashIn != "" && strings.Contains(e.posLine, e.s.CrashIn) && e.crash() {
			return ExitCrash, true
		}
		e.startSearch(fields[1:])
	case "stop":
		if !e.s.IgnoreStop {
			e.endSearch()
		}
	case "ponderhit":
		if !e.s.IgnorePonderHit {
			e.endSearch()
		}
	case "crash":
		if e.crash() {
			return ExitCrash, true
		}
	case "quit":
		if e.s.IgnoreQuit {
			return 0, false
		}
		e.endSearch()
		return ExitOK, true
	case "d":
		e.out.lines("", "Fen: "+e.pos.String(), "") // as Stockfish, without the board
	case "debug", "register":
	default:
		e.out.lines("Unknown command: '" + raw + "'. Type help for more information.")
	}
	return 0, false
}

// crash says whether to crash now: always, unless CrashOnce names a file
// that exists (an earlier process crashed already).
func (e *engine) crash() bool {
	if mark := e.s.CrashOnce; mark != "" {
		f, err := os.OpenFile(mark, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return false
		}
		f.Close()
	}
	return true
}

// setoption handles "name N [value V]" for the options that steer it.
func (e *engine) setoption(args []string) (code int, done bool) {
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
		if e.crash() {
			return ExitCrash, true
		}
	case "searchms":
		e.s.SearchTime = time.Duration(n) * time.Millisecond
	case "crashongo":
		e.s.CrashOnGo = n
	case "flood":
		e.s.Flood = n
	}
	return 0, false
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
			e.out.lines("info string bad fen " + fen)
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
				e.out.lines("info string illegal move " + m)
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

// bestMove is what a search in the current position plays, and its
// ponder move when Settings.Ponder asks for one ("": none).
func (e *engine) bestMove() (move, ponder string) {
	if e.s.BestMove != "" {
		return e.s.BestMove, ""
	}
	move = firstMove(e.pos)
	if move == "0000" || !e.s.Ponder {
		return move, ""
	}
	if reply := firstMove(play(e.pos, move)); reply != "0000" {
		return move, reply
	}
	return move, ""
}

// firstMove is the legal move of pos that sorts first in UCI notation,
// "0000" without one.
func firstMove(pos *chess.Position) string {
	moves := pos.ValidMoves()
	if len(moves) == 0 {
		return "0000"
	}
	names := make([]string, len(moves))
	for i, m := range moves {
		names[i] = m.String()
	}
	sort.Strings(names)
	return names[0]
}

func (e *engine) startSearch(args []string) {
	wait := slices.Contains(args, "infinite") || slices.Contains(args, "ponder")
	e.stop, e.done, e.answered = make(chan struct{}), make(chan struct{}), new(atomic.Bool)
	stop, done, answered := e.stop, e.done, e.answered
	move, ponder := e.bestMove()
	s := e.s
	go func() {
		defer close(done)
		e.flood(s.Flood, s.FloodBuffered)
		if wait {
			select {
			case <-stop:
			case <-e.ctx.Done():
			}
		} else if s.SearchTime > 0 {
			t := time.NewTimer(s.SearchTime)
			select {
			case <-stop:
			case <-t.C:
			case <-e.ctx.Done():
			}
			t.Stop()
		}
		if e.ctx.Err() != nil {
			return // ended: a dead engine says nothing
		}
		var lines []string
		pv, best := move, "bestmove "+move
		if ponder != "" {
			pv, best = move+" "+ponder, best+" ponder "+ponder
		}
		if !s.NoInfo {
			lines = append(lines, "info depth 1 score cp "+strconv.Itoa(s.Score)+" nodes 1 time 0 pv "+pv)
		}
		if s.Odd {
			lines = append(lines, "info string 100% sure %d %s", "", " \t  ")
		}
		answered.Store(true)
		e.out.lines(append(lines, best)...)
	}()
}

// flood prints n info lines such as Stockfish prints per iteration.
func (e *engine) flood(n int, buffered bool) {
	if n == 0 {
		return
	}
	o := e.out
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.dead {
		return
	}
	var line []byte
	for i := 1; i <= n; i++ {
		line = append(line[:0], "info depth "...)
		line = strconv.AppendInt(line, int64(i%64+1), 10)
		line = append(line, " seldepth 30 multipv 1 score cp 17 nodes "...)
		line = strconv.AppendInt(line, int64(i)*1000, 10)
		line = append(line, " nps 1500000 hashfull 0 tbhits 0 time "...)
		line = strconv.AppendInt(line, int64(i), 10)
		line = append(line, " pv e2e4 e7e5 g1f3\n"...)
		o.w.Write(line)
		if !buffered {
			o.w.Flush()
		}
	}
	o.w.Flush()
}

// searching reports whether a search runs: started, its bestmove not yet
// on its way.
func (e *engine) searching() bool { return e.done != nil && !e.answered.Load() }

// endSearch ends a running search (it still prints its bestmove) and waits
// for it; a hung one (IgnoreStop) is left running.
func (e *engine) endSearch() {
	if e.done == nil || e.s.IgnoreStop {
		return
	}
	close(e.stop)
	<-e.done
	e.stop, e.done = nil, nil
}
