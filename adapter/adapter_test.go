package adapter

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
)

func contains(lines []string, want string) bool { return slices.Contains(lines, want) }

func hasPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

func TestUCIReplyWrapsEngine(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.send("uci")
	lines := h.until("uciok")
	if lines[0] != "id name Fake 1.0 (polyproxy)" {
		t.Errorf("first line %q", lines[0])
	}
	for _, want := range []string{
		"id author Testers",
		"option name Hash type spin default 16 min 1 max 1024",
		"option name Polyglot Book type check default true",
		"option name Polyglot BookDepth type spin default 256 min 0 max 1000",
		"option name Polyglot BookTreshold type spin default 5 min 0 max 1000",
		"option name Polyglot BookMode type combo default best var weighted var best var uniform",
		"option name Polyglot BookLearn type check default false",
		"option name Polyglot BookAvoidRepetition type check default false",
	} {
		if !contains(lines, want) {
			t.Errorf("missing %q in %q", want, lines)
		}
	}
	if !hasPrefix(lines, "option name Polyglot BookFile type string default /") {
		t.Errorf("no BookFile option in %q", lines)
	}
	if lines[len(lines)-1] != "uciok" {
		t.Errorf("last line %q", lines[len(lines)-1])
	}
	// A second uci is answered from what we know; the engine sees one.
	h.send("uci")
	again := h.until("uciok")
	if !slices.Equal(again, lines) {
		t.Errorf("second reply differs: %q", again)
	}
	n := 0
	for _, l := range h.engine(0).got() {
		if l == "uci" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("engine got uci %d times", n)
	}
}

func TestEngineNameOverride(t *testing.T) {
	cfg := testConfig(t, "")
	cfg.EngineName = "My Engine"
	h := startHarness(t, cfg, nil, nil)
	if l := h.handshake()[0]; l != "id name My Engine" {
		t.Fatalf("got %q", l)
	}
}

func TestEngineOptionsFromConfig(t *testing.T) {
	cfg := testConfig(t, "")
	cfg.EngineOptions = []config.Option{{Name: "hash", Value: "64"}, {Name: "Nope", Value: "1"}, {Name: "skill level", Value: "3"}}
	h := startHarness(t, cfg, nil, nil)
	lines := h.handshake()
	got := h.waitReceived(0, "isready")
	want := []string{"uci", "setoption name Hash value 64", "setoption name Skill Level value 3", "isready"}
	if !slices.Equal(got, want) {
		t.Errorf("engine got %q, want %q", got, want)
	}
	// Announced with the configured values as defaults, as PolyGlot does.
	for _, want := range []string{
		"option name Hash type spin default 64 min 1 max 1024",
		"option name Skill Level type spin default 3 min 0 max 20",
		"option name UCI_Chess960 type check default false",
	} {
		if !contains(lines, want) {
			t.Errorf("no %q in %q", want, lines)
		}
	}
	if !hasPrefix(lines, `info string [Engine] option "Nope" is not an option of the engine`) {
		t.Errorf("no info string about Nope in %q", lines)
	}
	if !strings.Contains(h.stderr.String(), `"Nope"`) {
		t.Errorf("stderr: %q", h.stderr.String())
	}
}

func TestSetOptionRouting(t *testing.T) {
	cfg := testConfig(t, smallBook(t))
	h := startHarness(t, cfg, nil, nil)
	h.handshake()
	h.send("setoption name Hash value 32", "setoption name Polyglot Book value false", "isready")
	h.until("readyok")
	got := h.waitReceived(0, "setoption name Hash")
	for _, l := range got {
		if strings.Contains(l, "Polyglot") {
			t.Errorf("our option reached the engine: %q", l)
		}
	}
	if !contains(got, "setoption name Hash value 32") {
		t.Errorf("engine got %q", got)
	}
	// Book now off: go goes to the engine.
	if l := h.bestmoveAfter("position startpos", "go wtime 1000 btime 1000"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	// And on again.
	if l := h.bestmoveAfter("setoption name Polyglot Book value true", "position startpos", "go wtime 1000 btime 1000"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	// A bad value is reported, not applied.
	h.send("setoption name Polyglot BookDepth value lots")
	if l := h.next(); !strings.HasPrefix(l, "info string setoption Polyglot BookDepth") {
		t.Fatalf("got %q", l)
	}
}

func TestBookAnswer(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	h.send("position startpos", "go wtime 1000 btime 1000 winc 10 binc 10")
	got := h.until("bestmove")
	want := []string{
		"info string book move e2e4 (weight 300, 75.0%, book.bin)",
		"info depth 1 score cp 0 time 0 nodes 0 pv e2e4",
		"bestmove e2e4 ponder c7c5",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// The book answered: the engine heard nothing of it.
	for _, l := range h.engine(0).got() {
		if strings.HasPrefix(l, "position") || strings.HasPrefix(l, "go") {
			t.Errorf("engine got %q", l)
		}
	}
	// Book move without a reply in the book: no ponder.
	if l := h.bestmoveAfter("position startpos moves e2e4 e7e5 g1f3 b8c6", "go"); l != "bestmove f1b5" {
		t.Fatalf("got %q", l)
	}
}

func TestOutOfBookForwardsPositionThenGo(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	pos := "position  startpos moves e2e4 e7e5 g1f3 b8c6 f1b5\ta7a6"
	h.send(pos, "go wtime 900 btime 900")
	got := h.until("bestmove")
	if got[len(got)-1] != "bestmove a7a6" || !contains(got, "info depth 5 score cp 21 nodes 100 pv a7a6") {
		t.Fatalf("got %q", got)
	}
	rec := h.engine(0).got()
	i := slices.Index(rec, pos)
	if i < 0 || i+1 >= len(rec) || rec[i+1] != "go wtime 900 btime 900" {
		t.Fatalf("engine got %q", rec)
	}
}

func TestReadyOKComesBeforeBookBestmove(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	e := h.engine(0)
	e.mu.Lock()
	e.readyWait = 100 * time.Millisecond
	e.mu.Unlock()
	h.send("isready", "position startpos", "go wtime 1000 btime 1000")
	got := h.until("bestmove")
	if got[0] != "readyok" || got[len(got)-1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("order: %q", got)
	}
	// fastchess: isready right after bestmove.
	h.send("isready")
	if l := h.next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
}

func TestStopWithoutSearchIsSwallowed(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	h.send("stop", "ponderhit")
	h.quiet(50 * time.Millisecond)
	h.send("isready")
	h.until("readyok")
	for _, l := range h.engine(0).got() {
		if l == "stop" || l == "ponderhit" {
			t.Fatalf("engine got %q", l)
		}
	}
}

func TestStopDuringEngineSearch(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	// go infinite is analysis: never from the book, even in book.
	h.send("position startpos", "go infinite")
	h.waitReceived(0, "go infinite")
	h.quiet(30 * time.Millisecond)
	if l := h.bestmoveAfter("stop", "stop"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	h.send("isready")
	if l := h.next(); l != "readyok" {
		t.Fatalf("a second bestmove or other output: %q", l)
	}
	n := 0
	for _, l := range h.engine(0).got() {
		if l == "stop" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("engine got stop %d times", n)
	}
}

func TestGoMateUsesEngine(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	if l := h.bestmoveAfter("position startpos", "go mate 3"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
}

func TestBookPonder(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	h.send("position startpos", "go ponder wtime 1000 btime 1000")
	h.quiet(50 * time.Millisecond)
	if l := h.bestmoveAfter("ponderhit"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	h.send("position startpos", "go ponder")
	h.quiet(30 * time.Millisecond)
	if l := h.bestmoveAfter("stop"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	h.send("stop", "isready")
	if l := h.next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
}

func TestSearchMoves(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	if l := h.bestmoveAfter("position startpos", "go searchmoves d2d4 g1f3"); l != "bestmove d2d4" {
		t.Fatalf("got %q", l)
	}
	h.send("position startpos", "go searchmoves g1f3")
	got := h.until("bestmove")
	if got[len(got)-1] != "bestmove a7a6" {
		t.Fatalf("book ignored searchmoves: %q", got)
	}
}

func TestBookDepth(t *testing.T) {
	cfg := testConfig(t, smallBook(t))
	cfg.BookDepth = 1
	h := startHarness(t, cfg, nil, nil)
	h.handshake()
	if l := h.bestmoveAfter("position startpos moves e2e4", "go"); l != "bestmove c7c5" {
		t.Fatalf("move 1 for Black is within depth 1: %q", l)
	}
	if l := h.bestmoveAfter("position startpos moves e2e4 e7e5", "go"); l != "bestmove a7a6" {
		t.Fatalf("move 2 is beyond depth 1: %q", l)
	}
	// The FEN's move counter counts: the start position said to be move 5.
	if l := h.bestmoveAfter("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 5", "go"); l != "bestmove a7a6" {
		t.Fatalf("move 5 is beyond depth 1: %q", l)
	}
	// A 4-field FEN is move 1.
	if l := h.bestmoveAfter("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("4-field FEN: %q", l)
	}
}

func TestIllegalMoveTurnsBookOffUntilNextGoodPosition(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	bad := "position startpos moves e2e5"
	h.send(bad)
	if l := h.next(); !strings.HasPrefix(l, "info string position not followed") || !strings.Contains(l, "e2e5") {
		t.Fatalf("got %q", l)
	}
	if l := h.bestmoveAfter("go"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	rec := h.engine(0).got()
	if !contains(rec, bad) {
		t.Fatalf("engine did not get the GUI's line: %q", rec)
	}
	h.send("position startpos moves e2e4 zz")
	if l := h.next(); !strings.HasPrefix(l, "info string position not followed") {
		t.Fatalf("got %q", l)
	}
	if l := h.bestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("book not back: %q", l)
	}
}

// A position we cannot read never reaches the engine (Stockfish crashes on
// a bad FEN, and a restart would replay it into a fatal second crash): a
// go on it gets bestmove 0000 at once, and the next good position plays
// on as usual.
func TestUnreadablePositionNotSentToEngine(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	for _, bad := range []string{
		"position fen bad fen x y",
		"position fen 8/8/8/8/8/8/8/8 w - - 0 1",
		"position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1 moves g1g2", // Black in check, White to move
		"position",
	} {
		h.send(bad)
		if l := h.next(); !strings.HasPrefix(l, "info string position not sent to the engine") {
			t.Fatalf("%s: got %q", bad, l)
		}
		if l := h.bestmoveAfter("go wtime 1000 btime 1000"); l != "bestmove 0000" {
			t.Fatalf("%s: got %q", bad, l)
		}
		for _, got := range h.engine(0).got() {
			if got == bad || strings.HasPrefix(got, "go") {
				t.Fatalf("%s: the engine got %q", bad, got)
			}
		}
	}
	// Out of book: the engine searches the good position.
	if l := h.bestmoveAfter("position startpos moves a2a3", "go wtime 1000 btime 1000"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	if !contains(h.engine(0).got(), "position startpos moves a2a3") {
		t.Fatal("good position not forwarded")
	}
}

func TestChess960TurnsBookOff(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	h.send("setoption name UCI_Chess960 value true")
	if l := h.next(); !strings.Contains(l, "Chess960") {
		t.Fatalf("got %q", l)
	}
	if l := h.bestmoveAfter("position startpos", "go"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	if !contains(h.engine(0).got(), "setoption name UCI_Chess960 value true") {
		t.Fatal("UCI_Chess960 not forwarded")
	}
}

func TestUnknownCommandsForwarded(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), nil, nil)
	h.handshake()
	h.send("debug on", "register later", "xyzzy  plugh", "ucinewgame", "", "isready")
	h.until("readyok")
	got := h.engine(0).got()
	for _, want := range []string{"debug on", "register later", "xyzzy  plugh", "ucinewgame"} {
		if !contains(got, want) {
			t.Errorf("engine did not get %q: %q", want, got)
		}
	}
}

func TestEngineLinesRelayedByteForByte(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), nil, nil)
	h.handshake()
	odd := "info string 100% sure\t tabs  and %s %d é"
	// Lines that are not UCI (an empty line, "Unknown command: ...") are
	// logged, not relayed: stdout carries UCI only.
	h.engine(0).say(odd, "info string crlf\r", "", "   ", "Unknown command: xyzzy", "info depth 3 score cp 5 pv e2e4")
	for _, want := range []string{odd, "info string crlf", "info depth 3 score cp 5 pv e2e4"} {
		if l := h.next(); l != want {
			t.Fatalf("got %q want %q", l, want)
		}
	}
}

func TestBestmoveWithoutGoDropped(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), nil, nil)
	h.handshake()
	h.engine(0).say("bestmove e2e4", "info string after")
	if l := h.next(); l != "info string after" {
		t.Fatalf("got %q", l)
	}
}

func TestQuitStopsEngine(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), nil, nil)
	h.handshake()
	h.send("quit")
	select {
	case err := <-h.done:
		if err != nil {
			t.Fatal(err)
		}
		h.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("no exit after quit")
	}
	if !contains(h.engine(0).got(), "quit") {
		t.Fatal("engine did not get quit")
	}
}

func TestEOFStopsEngine(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), nil, nil)
	h.handshake()
	h.guiW.Close()
	select {
	case err := <-h.done:
		if err != nil {
			t.Fatal(err)
		}
		h.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("no exit after EOF")
	}
	select {
	case <-h.engine(0).Exited():
	default:
		t.Fatal("engine still running")
	}
}

func TestMissingEngineIsFatal(t *testing.T) {
	var stderr strings.Builder
	a := New(testConfig(t, ""), Options{
		StartEngine: func() (Engine, error) { return nil, errors.New("no such file") },
		Stderr:      &stderr,
	})
	err := a.Run(strings.NewReader("uci\n"), &strings.Builder{})
	if err == nil || !strings.Contains(stderr.String(), "cannot start the engine: no such file") {
		t.Fatalf("err %v, stderr %q", err, stderr.String())
	}
}

func TestEngineDeathRestartsAndReissuesGo(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	h.send("setoption name Hash value 8", "ucinewgame", "position startpos moves d2d4", "go infinite")
	h.waitReceived(0, "go infinite")
	h.engine(0).die()
	if l := h.next(); !strings.HasPrefix(l, "info string the engine died") {
		t.Fatalf("got %q", l)
	}
	got := h.waitReceived(1, "go infinite")
	want := []string{"uci", "setoption name Hash value 8", "ucinewgame", "position startpos moves d2d4", "go infinite"}
	if !slices.Equal(got, want) {
		t.Fatalf("new engine got %q\nwant %q", got, want)
	}
	if l := h.bestmoveAfter("stop"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	if !strings.Contains(h.stderr.String(), "the engine died") {
		t.Fatalf("stderr %q", h.stderr.String())
	}
	// A second death within a minute ends polyproxy with an error.
	h.engine(1).die()
	select {
	case err := <-h.done:
		if !errors.Is(err, ErrEngineDied) {
			t.Fatalf("err %v", err)
		}
		h.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("still running after a second death")
	}
}

func TestEngineDeathDuringHandshakeIsFatal(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), func(f *fakeEngine) { f.die() }, nil)
	select {
	case err := <-h.done:
		if !errors.Is(err, ErrEngineDied) {
			t.Fatalf("err %v", err)
		}
		h.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("still running")
	}
}

func TestBadBookIsReportedNotFatal(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.bin")
	h := startHarness(t, testConfig(t, missing), nil, nil)
	lines := h.handshake()
	if !hasPrefix(lines, "info string book "+missing+" not used") {
		t.Fatalf("no info string: %q", lines)
	}
	if !strings.Contains(h.stderr.String(), "nope.bin") {
		t.Fatalf("stderr %q", h.stderr.String())
	}
	if l := h.bestmoveAfter("position startpos", "go"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
}

func TestUnsortedBookIsReported(t *testing.T) {
	path := smallBook(t)
	data, _ := os.ReadFile(path)
	// Swap the first and last entries.
	n := len(data)
	first := slices.Clone(data[:16])
	copy(data[:16], data[n-16:])
	copy(data[n-16:], first)
	os.WriteFile(path, data, 0o644)
	h := startHarness(t, testConfig(t, path), nil, nil)
	lines := h.handshake()
	if !hasPrefix(lines, "info string book "+path+" is not sorted") {
		l := h.next() // the check runs in the background: it may come later
		if !strings.HasPrefix(l, "info string book "+path+" is not sorted") {
			t.Fatalf("got %q then %q", lines, l)
		}
	}
	// Still answers exactly.
	if l := h.bestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
}

// A long game (2,000 plies, 10 KB of moves) is followed and reaches the
// engine unchanged.
func TestLongPositionLine(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	moves := strings.Repeat(" g1f3 g8f6 f3g1 f6g8", 500)
	line := "position startpos moves" + moves
	if l := h.bestmoveAfter(line, "go"); l != "bestmove a7a6" { // move 1001: beyond BookDepth
		t.Fatalf("got %q", l)
	}
	if !contains(h.engine(0).got(), line) {
		t.Fatal("engine did not get the long line")
	}
	// One more ply on top: followed incrementally, still no complaint.
	h.send(line+" e2e4", "isready")
	if l := h.next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
}

// recorder is a GameObserver that writes down the calls.
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) add(s string) { r.mu.Lock(); r.calls = append(r.calls, s); r.mu.Unlock() }
func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}
func (r *recorder) NewGame() { r.add("newgame") }
func (r *recorder) Position(l *board.Line, continues bool) {
	r.add(fmt.Sprintf("position %s %v", l.Pos.FEN(), continues))
}
func (r *recorder) BookMove(b *book.Book, key book.Key, stored book.Move, whiteMoved bool) {
	r.add(fmt.Sprintf("book %s %s %v", filepath.Base(b.Path()), stored, whiteMoved))
}
func (r *recorder) EngineScore(white bool, cp int, mate int, isMate bool) {
	r.add(fmt.Sprintf("score %v %d %d %v", white, cp, mate, isMate))
}
func (r *recorder) AfterBestmove(l *board.Line) { r.add("after " + l.Pos.FEN()) }
func (r *recorder) Close()                      { r.add("close") }

func TestObserverCalls(t *testing.T) {
	rec := &recorder{}
	h := startHarness(t, testConfig(t, smallBook(t)), nil, rec)
	h.handshake()
	h.send("ucinewgame", "position startpos", "go")
	h.until("bestmove")
	h.send("position startpos moves e2e4 e7e5", "position startpos moves e2e4 e7e5", "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "go")
	h.until("bestmove")
	h.send("position startpos moves d2d4", "quit")
	<-h.done
	h.done <- nil
	want := []string{
		"newgame",
		"position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 false",
		"book book.bin e2e4 true",
		"after rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		"position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 true",
		"position r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4 true",
		"score true 21 0 false",
		"after r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4", // a7a6 is no legal White move: unchanged? see below
		"position rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 false",
		"close",
	}
	got := rec.got()
	// The fake engine answers a7a6 whatever the position: not legal for
	// White, so no AfterBestmove for it.
	want = slices.Delete(want, 7, 8)
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLogRecordsTrafficAndDecisions(t *testing.T) {
	cfg := testConfig(t, smallBook(t))
	cfg.Log = true
	cfg.LogFile = filepath.Join(t.TempDir(), "polyproxy.log")
	h := startHarness(t, cfg, nil, nil)
	h.handshake()
	h.send("position startpos", "go")
	h.until("bestmove")
	h.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "go")
	h.until("bestmove")
	h.send("quit")
	<-h.done
	h.done <- nil
	data, err := os.ReadFile(cfg.LogFile)
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	for _, want := range []string{
		">engine uci", "engine> uciok", "gui> uci", ">gui uciok", "gui> position startpos",
		"book: " + cfg.BookFiles[0] + ": e2e4 chosen (best, weight 300 of 400, 75.0%)",
		">gui bestmove e2e4 ponder c7c5",
		"book: no (" + cfg.BookFiles[0] + ": not in book)",
		">engine go", "engine> bestmove a7a6", ">gui bestmove a7a6",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q", want)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		if _, err := time.Parse("15:04:05.000", l[:12]); err != nil {
			t.Fatalf("line without a millisecond time stamp: %q", l)
		}
	}
}

// Every reason the book gives no move, or skips an entry, is in the log.
func TestLogRecordsEveryBookReason(t *testing.T) {
	cfg := testConfig(t, filepath.Join("..", "testdata", "book", "oddities.bin"))
	cfg.BookThreshold = 5
	cfg.BookDepth = 50
	cfg.Log = true
	cfg.LogFile = filepath.Join(t.TempDir(), "polyproxy.log")
	h := startHarness(t, cfg, nil, nil)
	h.handshake()
	for _, l := range []string{
		"position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "go",
		"position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 90", "go",
		"position startpos moves e2e4", "go",
		"position startpos", "go infinite", "stop",
		"position startpos", "go mate 2",
		"position startpos moves e2e5", "go",
		"setoption name UCI_Chess960 value true", "position startpos", "go",
	} {
		h.send(l)
		if strings.HasPrefix(l, "go") && l != "go infinite" || l == "stop" {
			h.until("bestmove")
		}
	}
	h.send("quit")
	<-h.done
	h.done <- nil
	data, err := os.ReadFile(cfg.LogFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"e2e4 chosen (best, weight 1000 of 1004, 99.6%); not eligible: e2e3 below threshold (0.4%), e1e3 illegal here",
		"book: no (beyond BookDepth (move 90 > 50))",
		"all weights 0",
		"book: no (analysis (go infinite))",
		"book: no (mate search (go mate))",
		"book: no (position not followed)",
		"book: no (Chess960)",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("log lacks %q\n%s", want, data)
		}
	}
}

func TestLogSwitchedOnAtRunTime(t *testing.T) {
	cfg := testConfig(t, "")
	h := startHarness(t, cfg, nil, nil)
	h.handshake()
	logFile := filepath.Join(t.TempDir(), "late.log")
	h.send("setoption name Polyglot LogFile value "+logFile, "setoption name Polyglot Log value true", "isready")
	h.until("readyok")
	data, err := os.ReadFile(logFile)
	if err != nil || !strings.Contains(string(data), "gui> isready") {
		t.Fatalf("log %q, %v", data, err)
	}
}

func TestBookFileChangedAtRunTime(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	other := writeBook(t, []bookEntry{{"", "g1f3", 5}})
	h.send("setoption name Polyglot BookFile value "+other, "position startpos", "go")
	if l := h.until("bestmove"); l[len(l)-1] != "bestmove g1f3" || !strings.Contains(l[0], "(weight 5, 100.0%, book.bin)") {
		t.Fatalf("got %q", l)
	}
}

func TestBookFilesInPriorityOrder(t *testing.T) {
	first := writeBook(t, []bookEntry{{"e2e4", "e7e5", 1}})
	cfg := testConfig(t, first)
	cfg.BookFiles = append(cfg.BookFiles, smallBook(t))
	h := startHarness(t, cfg, nil, nil)
	h.handshake()
	if l := h.bestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder e7e5" {
		t.Fatalf("second book answers, first gives the ponder reply: %q", l)
	}
	if l := h.bestmoveAfter("position startpos moves e2e4", "go"); l != "bestmove e7e5 ponder g1f3" {
		t.Fatalf("first book first, the reply from the second: %q", l)
	}
}

// A ponder search the GUI already turned into a real one (ponderhit) is
// re-issued without "ponder" after an engine death: the GUI waits for a
// bestmove, not for another ponderhit. The mover's clock is charged with
// the time since the ponder hit, the other clock left alone.
func TestRestartAfterPonderHitDropsPonder(t *testing.T) {
	first := true
	h := startHarness(t, testConfig(t, ""), func(f *fakeEngine) {
		f.ignorePonderHit, first = first, false
	}, nil)
	h.handshake()
	h.send("position startpos moves e2e4 e7e5", "go ponder wtime 10000 btime 10000")
	h.waitReceived(0, "go ponder")
	time.Sleep(time.Second) // the opponent's time: not charged
	h.send("ponderhit")
	h.waitReceived(0, "ponderhit")
	time.Sleep(100 * time.Millisecond)
	h.engine(0).die()
	got := h.waitReceived(1, "go")
	var wtime int
	if n, err := fmt.Sscanf(got[len(got)-1], "go wtime %d btime 10000", &wtime); n != 1 || err != nil || wtime > 9900 || wtime <= 8900 {
		t.Fatalf("re-issued %q", got[len(got)-1])
	}
	if l := h.bestmoveAfter(); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	h.send("isready")
	if l := h.next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
}

// The observer gets the engine's last score before its bestmove, even when
// later info lines carry none and arrive in another read.
func TestObserverGetsLastScore(t *testing.T) {
	rec := &recorder{}
	h := startHarness(t, testConfig(t, ""), nil, rec)
	h.handshake()
	h.send("position startpos moves e2e4", "go infinite")
	h.waitReceived(0, "go infinite")
	e := h.engine(0)
	e.say("info depth 1 score cp 5 pv e7e5", "info depth 2 score mate 3 pv e7e5")
	h.until("info depth 2")
	e.say("info string thinking", "info nodes 100")
	h.until("info nodes")
	e.say("bestmove c7c5")
	h.until("bestmove")
	h.send("quit")
	<-h.done
	h.done <- nil
	if got := rec.got(); !slices.Contains(got, "score false 0 3 true") || slices.Contains(got, "score false 5 0 false") {
		t.Fatalf("calls %q", got)
	}
}

// bestmoves reads the GUI's output until n bestmoves have come, then
// checks nothing else follows; it returns the bestmove lines in order.
func (h *harness) bestmoves(n int) []string {
	h.t.Helper()
	var got []string
	for len(got) < n {
		if l := h.next(); strings.HasPrefix(l, "bestmove") {
			got = append(got, l)
		}
	}
	h.send("isready")
	if rest := h.until("readyok"); len(rest) != 1 {
		h.t.Fatalf("more output after %d bestmoves: %q", n, rest)
	}
	return got
}

// A GUI that sends stop, then the next position and go in one burst, gets
// two bestmoves: the stopped search's and the new one's.
func TestStopPositionGoInOneBurst(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	h.send("position startpos moves a2a3", "go ponder wtime 1000 btime 1000")
	h.waitReceived(0, "go ponder")
	h.send("stop", "position startpos moves a2a3 h7h6", "go wtime 1000 btime 1000")
	if got := h.bestmoves(2); got[0] != "bestmove a7a6" || got[1] != "bestmove a7a6" {
		t.Fatalf("got %q", got)
	}
	if m := h.engine(0).misused(); len(m) > 0 {
		t.Fatalf("engine got a go while searching: %q", m)
	}
}

// A go while the engine still searches (a GUI error): the engine is
// stopped first, so it never sees a go during a search (Stockfish would
// wait forever behind go infinite), and each go gets one bestmove, in
// order, whether the new one is answered by the book or the engine.
func TestGoDuringEngineSearch(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	h.send("position startpos moves a2a3", "go infinite")
	h.waitReceived(0, "go infinite")
	h.send("position startpos", "go wtime 1000 btime 1000") // in book
	got := h.bestmoves(2)
	if got[0] != "bestmove a7a6" || got[1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("engine's then book's bestmove expected, got %q", got)
	}
	h.send("stop") // nothing runs: swallowed
	h.quiet(30 * time.Millisecond)

	h.send("position startpos moves a2a3", "go infinite")
	h.waitReceived(0, "go infinite")
	h.send("position startpos moves a2a3 h7h6", "go wtime 1000 btime 1000") // out of book
	if got := h.bestmoves(2); len(got) != 2 {
		t.Fatalf("got %q", got)
	}
	h.send("position startpos moves a2a3", "go wtime 1000 btime 1000")
	h.bestmoves(1)
	if m := h.engine(0).misused(); len(m) > 0 {
		t.Fatalf("engine got a go while searching: %q", m)
	}
}

// A go while a book answer waits for ponderhit: that answer goes out as
// stopped, then the new go is answered.
func TestGoDuringBookPonder(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	h.send("position startpos", "go ponder")
	h.quiet(30 * time.Millisecond)
	h.send("position startpos moves a2a3", "go wtime 1000 btime 1000")
	got := h.bestmoves(2)
	if got[0] != "bestmove e2e4 ponder c7c5" || got[1] != "bestmove a7a6" {
		t.Fatalf("got %q", got)
	}
}

// The engine dies owing the bestmove of a search the GUI stopped, with our
// book answer to the next go waiting behind it: the GUI gets bestmove 0000
// for the lost one, then the book's, in order.
func TestEngineDeathOwingStoppedSearch(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), func(f *fakeEngine) { f.ignoreStop = true }, nil)
	h.handshake()
	h.send("position startpos moves a2a3", "go infinite")
	h.waitReceived(0, "go infinite")
	h.send("stop", "position startpos", "go wtime 1000 btime 1000")
	h.waitReceived(0, "stop")
	h.quiet(30 * time.Millisecond) // the book answer waits for the engine's
	h.engine(0).die()
	var got []string
	for len(got) < 2 {
		if l := h.next(); strings.HasPrefix(l, "bestmove") {
			got = append(got, l)
		}
	}
	if got[0] != "bestmove 0000" || got[1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", got)
	}
	h.waitReceived(1, "ucinewgame")
	h.send("isready")
	h.until("readyok")
}

// UCI_Chess960 set by the ini's [Engine] section (or -uci) turns the book
// off as setoption does; setting it false again turns it back on.
func TestChess960FromConfig(t *testing.T) {
	cfg := testConfig(t, smallBook(t))
	cfg.EngineOptions = append(cfg.EngineOptions, config.Option{Name: "uci_chess960", Value: "true"})
	h := startHarness(t, cfg, nil, nil)
	lines := h.handshake()
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "Chess960 is on") }) {
		t.Fatalf("no notice: %q", lines)
	}
	if !contains(h.engine(0).got(), "setoption name UCI_Chess960 value true") {
		t.Fatal("option not sent in the engine's spelling")
	}
	if l := h.bestmoveAfter("position startpos", "go"); l != "bestmove a7a6" {
		t.Fatalf("book used in a Chess960 game: %q", l)
	}
	h.send("setoption name UCI_Chess960 value false")
	if l := h.next(); !strings.Contains(l, "Chess960 is off") {
		t.Fatalf("got %q", l)
	}
	if l := h.bestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("book not back: %q", l)
	}
}

// Nothing reaches the GUI before it says uci, even when the engine talks
// at start-up (info strings, a banner).
func TestEngineStartupTalkNotRelayed(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), func(f *fakeEngine) {
		go f.say("info string loading network", "Fake engine by testers", "info string ready")
	}, nil)
	h.waitReceived(0, "uci")
	time.Sleep(20 * time.Millisecond)
	h.quiet(20 * time.Millisecond)
	h.send("uci")
	if l := h.next(); !strings.HasPrefix(l, "id name") {
		t.Fatalf("first line to the GUI %q", l)
	}
}

// "go perft" (Stockfish) counts move paths and sends no bestmove: it goes
// to the engine even in book, and nothing waits for a bestmove after it.
func TestGoPerftIsForwarded(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	h.send("position startpos", "go perft 1")
	h.waitReceived(0, "go perft 1")
	if l := h.bestmoveAfter("go wtime 1000 btime 1000"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
}

// Our options as the GUI sees them, and "<empty>", UCI's empty string,
// echoed back by a GUI.
func TestOurOptions(t *testing.T) {
	cfg := testConfig(t, smallBook(t))
	cfg.LogFile = ""
	h := startHarness(t, cfg, nil, nil)
	lines := h.handshake()
	for _, name := range []string{"Book", "BookFile", "BookDepth", "BookTreshold", "BookRandom", "BookMode",
		"BookAvoidRepetition", "BookLearn", "BookLearnWeight", "BookSeed", "LearnResignScore", "LearnResignMoves", "Log", "LogFile"} {
		if !hasPrefix(lines, "option name Polyglot "+name+" type ") {
			t.Errorf("option Polyglot %s not announced", name)
		}
	}
	if !contains(lines, "option name Polyglot LogFile type string default <empty>") {
		t.Errorf("empty LogFile not announced as <empty>: %q", lines)
	}
	h.send("setoption name Polyglot BookFile value <empty>", "isready")
	if got := h.until("readyok"); len(got) != 1 {
		t.Fatalf("an empty book list is no error: %q", got)
	}
	if l := h.bestmoveAfter("position startpos", "go"); l != "bestmove a7a6" {
		t.Fatalf("book still on: %q", l)
	}
}

// The engine dies owing a readyok: the new engine is asked again, and the
// GUI gets its readyok.
func TestEngineDeathOwingReadyOK(t *testing.T) {
	starts := 0
	h := startHarness(t, testConfig(t, ""), func(f *fakeEngine) {
		starts++
		if starts == 1 {
			f.readyWait = time.Hour // never answers isready
		}
	}, nil)
	h.send("uci")
	h.until("uciok")
	h.send("isready")
	h.waitReceived(0, "isready")
	h.engine(0).die()
	if l := h.until("readyok"); !strings.HasPrefix(l[0], "info string the engine died") {
		t.Fatalf("got %q", l)
	}
	if got := h.waitReceived(1, "isready"); !contains(got, "isready") {
		t.Fatalf("new engine got %q", got)
	}
}

// An engine that never answers uci (not a UCI engine) is reported on
// stderr, where the operator looks when the GUI says the engine hangs.
func TestSlowHandshakeReported(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), func(f *fakeEngine) { f.mute = true }, nil)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(h.stderr.String(), "has not answered uci") {
		if time.Now().After(deadline) {
			t.Fatalf("no warning on stderr: %q", h.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(h.stderr.String(), `is "fake" a UCI engine?`) {
		t.Fatalf("the warning does not name the command: %q", h.stderr.String())
	}
	h.engine(0).die() // a death before the handshake ends the run
	if err := <-h.done; !errors.Is(err, ErrEngineDied) {
		t.Fatalf("err %v", err)
	}
	h.done <- nil
}
