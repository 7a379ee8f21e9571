package core_test

// Tests of the game observer (live learning): the calls it gets, in order.

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

// recorder is a core.GameObserver that writes down the calls; the settings it
// is given apart from the game's events.
type recorder struct {
	mu       sync.Mutex
	calls    []string
	settings []string
}

func (r *recorder) add(s string) { r.mu.Lock(); r.calls = append(r.calls, s); r.mu.Unlock() }

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

func (r *recorder) NewGame() { r.add("newgame") }

func (r *recorder) Position(p board.Position, continues bool) {
	r.add(fmt.Sprintf("position %s %v", p.FEN(), continues))
}

func (r *recorder) GameStart(at time.Time, line []board.Key, _ learn.PGNStat) {
	r.add(fmt.Sprintf("start %v line %d", !at.IsZero(), len(line)))
}

func (r *recorder) BookMove(b *book.Book, line []board.Key, stored board.Move, whiteMoved bool) {
	r.add(fmt.Sprintf("book %s %s %v", filepath.Base(b.Path()), stored, whiteMoved))
}

func (r *recorder) EngineScore(white bool, cp int, mate int, isMate bool) {
	r.add(fmt.Sprintf("score %v %d %d %v", white, cp, mate, isMate))
}

func (r *recorder) AfterBestmove(p board.Position) { r.add("after " + p.FEN()) }
func (r *recorder) GameResult(o learn.Outcome, why string) {
	r.add("result " + o.String() + " " + why)
}
func (r *recorder) Close() { r.add("close") }
func (r *recorder) UseLog(logf, warnf func(string, ...any)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.settings = append(r.settings, fmt.Sprintf("log %v %v", logf != nil, warnf != nil))
}
func (r *recorder) SetLearning(s learn.Settings) {
	r.mu.Lock()
	defer r.mu.Unlock()
	on, books := s.On, s.Books
	for i, b := range books {
		books[i] = filepath.Base(b)
	}
	r.settings = append(r.settings, fmt.Sprintf("learning %v %q resign %d/%d", on, books, s.ResignScore, s.ResignMoves))
}
func (r *recorder) gotSettings() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.settings)
}

func TestObserverCalls(t *testing.T) {
	rec := &recorder{}
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, rec)
	h.Handshake()
	h.Send("ucinewgame", "position startpos", "go")
	h.Until("bestmove")
	h.Send("position startpos moves e2e4 e7e5", "position startpos moves e2e4 e7e5", "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "go")
	h.Until("bestmove")
	h.Send("position startpos moves d2d4", "quit")
	<-h.Done
	h.Done <- nil
	want := []string{
		"newgame",
		"position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 false",
		"start true line 1",
		"book test.bin e2e4 true",
		"after rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		"position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 true",
		"position r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4 true",
		"score true 21 0 false",
		"after r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4", // a7a6 is no legal White move: unchanged? see below
		"position rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 false",
		"start true line 2",
		"close",
	}
	got := rec.got()
	// The fake engine answers a7a6 whatever the position: not legal for
	// White, so no AfterBestmove for it.
	want = slices.Delete(want, 8, 9)
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Learning follows one game through take-backs and jumps back along it;
// a line that changes the first move, or of at most one move after a
// longer game, starts another.
func TestObserverTakeBackContinuesGame(t *testing.T) {
	rec := &recorder{}
	h := start(t, proxytest.Config(t, ""), nil, rec)
	h.Handshake()
	h.Send("ucinewgame")
	var want []string
	for _, tc := range []struct {
		moves     string
		continues bool
	}{
		{"e2e4 e7e5 g1f3 b8c6", false}, // the first position after ucinewgame
		{"e2e4 e7e5", true},            // two plies taken back
		{"e2e4 e7e5 f1c4 g8f6", true},  // and other moves played
		{"e2e4 e7e5 f1c4", true},       // one ply back (a ponder miss too)
		{"d2d4 d7d5", false},           // another first move
		{"d2d4 d7d5 c2c4 e7e6", true},
		{"", false},              // a new game's first position, for White
		{"e2e4 e7e5 g1f3", true}, // its moves
		{"d2d4 d7d5 c2c4", false},
		{"d2d4", false}, // and for Black
	} {
		line := "position startpos"
		if tc.moves != "" {
			line += " moves " + tc.moves
		}
		h.Send(line, "isready")
		h.Until("readyok")
		l := fixture.Line(t, "", tc.moves)
		want = append(want, fmt.Sprintf("position %s %v", l.Pos.FEN(), tc.continues))
		if !tc.continues {
			// The game's positions from the start, for finding it in
			// the host's PGN.
			want = append(want, fmt.Sprintf("start true line %d", len(l.Keys)))
		}
	}
	h.Send("quit")
	<-h.Done
	h.Done <- nil
	var got []string
	for _, c := range rec.got() {
		if strings.HasPrefix(c, "position ") || strings.HasPrefix(c, "start ") {
			got = append(got, c)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The observer gets the engine's last score before its bestmove, even when
// later info lines carry none and arrive in another read.
func TestObserverGetsLastScore(t *testing.T) {
	rec := &recorder{}
	h := start(t, proxytest.Config(t, ""), nil, rec)
	h.Handshake()
	h.Send("position startpos moves e2e4", "go infinite")
	h.WaitReceived(0, "go infinite")
	e := h.Engine(0)
	e.Say("info depth 1 score cp 5 pv e7e5", "info depth 2 score mate 3 pv e7e5")
	h.Until("info depth 2")
	e.Say("info string thinking", "info nodes 100")
	h.Until("info nodes")
	e.Say("bestmove c7c5")
	h.Until("bestmove")
	h.Send("quit")
	<-h.Done
	h.Done <- nil
	if got := rec.got(); !slices.Contains(got, "score false 0 3 true") || slices.Contains(got, "score false 5 0 false") {
		t.Fatalf("calls %q", got)
	}
}

// The observer gets the log first, then the learning settings: at the
// start and as the GUI changes them. The caller's configuration stays as
// it was.
func TestObserverGetsLogAndLearningSettings(t *testing.T) {
	rec := &recorder{}
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.BookLearn = true
	other := proxytest.WriteBook(t, []proxytest.BookEntry{{Moves: "", Move: "g1f3", Weight: 5}})
	h := start(t, cfg, nil, rec)
	h.Handshake()
	h.Send("setoption name Polyglot BookLearn value false", "setoption name Polyglot BookFile value "+other+";"+cfg.BookFiles[0],
		"setoption name Polyglot Book value false", "setoption name Polyglot BookDepth value oops",
		"setoption name Polyglot LearnResignScore value 400", "setoption name Polyglot LearnResignMoves value 5", "isready")
	h.Until("readyok")
	h.Send("quit")
	<-h.Done
	h.Done <- nil
	want := []string{
		"log true true",
		`learning true ["test.bin"] resign 1000/3`,
		`learning false ["test.bin"] resign 1000/3`,
		`learning false ["test.bin" "test.bin"] resign 1000/3`,
		`learning false [] resign 1000/3`,
		`learning false [] resign 400/3`,
		`learning false [] resign 400/5`,
	}
	if got := rec.gotSettings(); !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !cfg.BookLearn || !cfg.Book || len(cfg.BookFiles) != 1 || cfg.BookDepth != config.DefaultBookDepth {
		t.Fatalf("the caller's configuration changed: %+v", cfg)
	}
}

// closingObserver warns as it closes, then holds the end of the run until
// released, as learning does while it counts the last games.
type closingObserver struct {
	*recorder
	warnf   func(string, ...any)
	release chan struct{}
}

func (o *closingObserver) UseLog(logf, warnf func(string, ...any)) {
	o.warnf = warnf
	o.recorder.UseLog(logf, warnf)
}

func (o *closingObserver) Close() {
	o.warnf("learn: the last games are being counted")
	<-o.release
}

// What the observer says while the run waits for it at its end reaches
// the log and stderr as it is said, not once it is done: a host that ends
// the proxy at its grace after quit (cutechess-cli's 5 s) keeps every line
// said before.
func TestObserverWordsAtTheEndAreWrittenAsSaid(t *testing.T) {
	obs := &closingObserver{recorder: &recorder{}, release: make(chan struct{})}
	h := start(t, proxytest.Config(t, ""), nil, obs)
	h.Handshake()
	h.Send("quit")
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(h.Stderr.String(), "the last games are being counted"); {
		if time.Now().After(deadline) {
			close(obs.release)
			t.Fatalf("not written while the observer closes; stderr:\n%s", h.Stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(obs.release)
	<-h.Done
	h.Done <- nil
}
