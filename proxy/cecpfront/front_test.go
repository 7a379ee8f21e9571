package cecpfront_test

// Scenario tests of the CECP front: a scripted xboard GUI against the
// fake engine.

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy/cecpfront"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

func TestXboardFeatures(t *testing.T) {
	_, lines := startXboard(t, proxytest.Config(t, ""), nil)
	if lines[0] != "feature done=0" {
		t.Errorf("first line %q, want feature done=0", lines[0])
	}
	for _, want := range []string{
		"feature ping=1", "feature setboard=1", "feature usermove=1", "feature sigint=0", "feature sigterm=0",
		"feature reuse=1", "feature analyze=1", "feature colors=0", `feature myname="FakeEngine"`,
		"feature memory=1", "feature smp=1", `feature egt="syzygy"`,
		`feature option="Skill Level -spin 20 0 20"`,
		`feature option="Style -combo Solid /// *Normal /// Risky"`,
		`feature option="Clear Hash -button"`,
		`feature option="Polyglot Book -check 0"`,
		`feature option="Polyglot Resign -check 0"`,
		`feature option="Polyglot ResignScore -spin 600 0 10000"`,
		`feature option="Polyglot QueenNeverResigns -check 1"`,
	} {
		if !proxytest.Contains(lines, want) {
			t.Errorf("no %s in\n%s", want, strings.Join(lines, "\n"))
		}
	}
	for _, l := range lines {
		// Set by memory, cores, egtpath and hard: not options.
		if strings.HasPrefix(l, `feature option="Hash `) || strings.HasPrefix(l, `feature option="SyzygyPath `) || strings.HasPrefix(l, `feature option="Ponder `) {
			t.Errorf("%s: set by a CECP command, not an option", l)
		}
	}
}

func TestXboardGameAgainstEngine(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, ""), nil)
	h.Send("new", "post", "level 40 5 0", "time 30000", "otim 29000", "usermove e2e4")
	lines := h.Until("move ")
	// The first legal move in UCI order for Black after 1.e4 is a7a5.
	if got := lines[len(lines)-1]; got != "move a7a5" {
		t.Fatalf("got %q, want move a7a5", got)
	}
	// Thinking in CECP's units: ply score(cp) time(cs) nodes pv(SAN).
	if !proxytest.Contains(lines, "1 -35 0 1 a5") {
		t.Errorf("no thinking line in %q", lines)
	}
	got := h.WaitReceived(0, "go ")
	if !proxytest.Contains(got, "position startpos moves e2e4") || !proxytest.Contains(got, "go wtime 290000 btime 300000 movestogo 40") {
		t.Errorf("engine got %q", got)
	}
	// Playing on: the game continues from the engine's move.
	h.Send("time 29900", "otim 28000", "usermove d2d4")
	if l := h.Until("move "); l[len(l)-1] != "move a5a4" {
		t.Errorf("second move %q", l[len(l)-1])
	}
	if !proxytest.Contains(h.Engine(0).Received(), "position startpos moves e2e4 a7a5 d2d4") {
		t.Errorf("engine got %q", h.Engine(0).Received())
	}
}

func TestXboardIllegalAndUnknownInputGoOn(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, ""), nil)
	long := strings.Repeat("x", 200<<10)
	h.Send("new", "force", "usermove e2e5", "usermove e9e4", "frobnicate 3", long, "setboard not a fen",
		"level 40 x 0", "sd x", "level 40 nan 0", "st +Inf", "time 99999999999999999", "memory lots",
		"undo", "usermove e2e4", "ping 1")
	lines := h.WaitFor("pong 1")
	for _, want := range []string{
		"Illegal move: e2e5", "Illegal move: e9e4", "Error (unknown command): frobnicate 3",
		"Error (bad level): level 40 x 0", "Error (bad depth): sd x", "Error (bad level): level 40 nan 0",
		"Error (bad time): st +Inf", "Error (bad time): time 99999999999999999", "Error (bad number): memory lots",
	} {
		if !proxytest.Contains(lines, want) {
			t.Errorf("no %q in %q", want, lines)
		}
	}
	if !proxytest.HasPrefix(lines, "tellusererror Illegal position") {
		t.Errorf("no tellusererror for the bad FEN in %q", lines)
	}
	if !proxytest.HasPrefix(lines, "Error (unknown command): xxxx") {
		t.Errorf("the long line got no error in %q", lines)
	}
	// e2e4 was played after all that: the engine answers it.
	h.Send("go")
	if l := h.Until("move "); l[len(l)-1] != "move a7a5" {
		t.Errorf("got %q", l[len(l)-1])
	}
}

func TestXboardPingAnsweredInOrder(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, ""), nil)
	h.Send("new", "ping 1", "foo", "ping 2")
	lines := []string{h.Next(), h.Next(), h.Next()}
	want := []string{"pong 1", "Error (unknown command): foo", "pong 2"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", lines, want)
	}
}

func TestXboardBookMoveAndTakeBacks(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	h, _ := startXboard(t, cfg, nil)
	h.Send("new", "force", "usermove e2e4", "usermove e7e5", "usermove g1f3", "undo", "remove", "go")
	// Back at the start, White to move: the book's 1.e4 at once.
	if l := h.Until("move "); l[len(l)-1] != "move e2e4" {
		t.Fatalf("got %q", l)
	}
	h.Send("usermove e7e5")
	if l := h.Until("move "); l[len(l)-1] != "move g1f3" {
		t.Fatalf("got %q", l)
	}
	for _, l := range h.Engine(0).Received() {
		if strings.HasPrefix(l, "go") {
			t.Errorf("the engine searched a book position: %q", h.Engine(0).Received())
		}
	}
}

func TestXboardSetboardDepthAndMoveTime(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, ""), nil)
	fen := "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
	h.Send("new", "force", "setboard "+fen, "sd 7", "st 2", "go")
	h.Until("move ")
	got := h.Engine(0).Received()
	// st 2 is a bound: the engine gets 20 ms (STFudge) less, as from PolyGlot.
	if !proxytest.Contains(got, "position fen "+fen) || !proxytest.Contains(got, "go depth 7 movetime 1980") {
		t.Errorf("engine got %q", got)
	}
}

func TestXboardClaimsMate(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, ""), nil)
	// Fool's mate: the GUI's Black mates, with the engine playing White.
	h.Send("new", "force", "setboard rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
		"playother", "usermove d8h4", "ping 3")
	lines := h.WaitFor("pong 3")
	if !proxytest.Contains(lines, "0-1 {Black mates}") {
		t.Errorf("no mate claimed: %q", lines)
	}
	if proxytest.HasPrefix(lines, "move ") {
		t.Errorf("moved after mate: %q", lines)
	}
}

func TestXboardClaimsRepetition(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, ""), nil)
	h.Send("new", "force")
	for range 2 {
		h.Send("usermove g1f3", "usermove g8f6", "usermove f3g1", "usermove f6g8")
	}
	h.Send("go", "ping 4")
	// The engine, White, plays a2a3: no repetition; the claim needs the
	// position thrice.
	lines := h.WaitFor("pong 4")
	if proxytest.Contains(lines, "1/2-1/2 {Draw by repetition}") {
		t.Errorf("claimed too early: %q", lines)
	}
	h.Send("force", "undo", "usermove g1f3", "usermove g8f6", "usermove f3g1", "playother", "usermove f6g8", "ping 5")
	lines = h.WaitFor("pong 5")
	if !proxytest.Contains(lines, "1/2-1/2 {Draw by repetition}") {
		t.Errorf("no repetition claimed: %q", lines)
	}
}

func TestXboardAnalyze(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) { s.BestMove, s.Flood = "", 1 }, nil)
	h.Send("xboard", "protover 2")
	h.Until("feature done=1")
	h.Send("new", "force", "post", "analyze")
	// The analysis shows its line, in SAN from the position searched.
	h.WaitFor("2 17 0 1000 e4 e5 Nf3")
	h.Send("usermove e2e4")
	// The analysis goes on after the move, from there: the flood's line
	// does not play after 1.e4 and is shown as given.
	h.WaitFor("2 17 0 1000 e2e4 e7e5 g1f3")
	h.Send("exit", "ping 1")
	lines := h.WaitFor("pong 1")
	if proxytest.HasPrefix(lines, "move ") {
		t.Errorf("analysis made a move: %q", lines)
	}
}

func TestXboardOptionsAndResources(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, ""), nil)
	h.Send("memory 64", "cores 2", "egtpath syzygy /tb", "option Skill Level=5", "option Clear Hash",
		"option Polyglot BookDepth=3", "option Nope=1", "ping 1")
	lines := h.WaitFor("pong 1")
	for _, want := range []string{"Error (the engine has no Threads): cores 2", "Error (unknown option): option Nope=1"} {
		if !proxytest.Contains(lines, want) {
			t.Errorf("no %q in %q", want, lines)
		}
	}
	got := h.Engine(0).Received()
	for _, want := range []string{"setoption name Hash value 64", "setoption name SyzygyPath value /tb",
		"setoption name Skill Level value 5", "setoption name Clear Hash"} {
		if !proxytest.Contains(got, want) {
			t.Errorf("engine did not get %q: %q", want, got)
		}
	}
	if h.Core.Settings().BookDepth != 3 {
		t.Errorf("BookDepth %d, want 3", h.Core.Settings().BookDepth)
	}
}

func TestXboardResigns(t *testing.T) {
	// The fake engine scores -35 every move: two in a row at or below
	// -30 resign, unless QueenNeverResigns keeps an engine with a queen
	// playing.
	for _, queen := range []bool{false, true} {
		cfg := proxytest.Config(t, "")
		cfg.Resign, cfg.ResignMoves, cfg.ResignScore, cfg.QueenNeverResigns = true, 2, 30, queen
		h, _ := startXboard(t, cfg, nil)
		h.Send("new", "level 0 1 0", "usermove e2e4")
		if l := h.Until("move "); l[len(l)-1] != "move a7a5" {
			t.Fatalf("got %q", l)
		}
		h.Send("usermove d2d4")
		var answer string
		for answer == "" {
			if l := h.Next(); l == "resign" || strings.HasPrefix(l, "move ") {
				answer = l
			}
		}
		if (answer == "resign") == queen {
			t.Errorf("QueenNeverResigns %t: got %q", queen, answer)
		}
	}
}

// HandleDraws accepts a draw offer when the engine's last score is at or
// below -ContemptScore; otherwise an offer gets no answer (declined).
func TestXboardDrawOffers(t *testing.T) {
	for _, c := range []struct {
		handle   bool
		contempt int
		accept   bool
	}{{false, 30, false}, {true, 30, true}, {true, 40, false}} {
		cfg := proxytest.Config(t, "")
		cfg.HandleDraws, cfg.ContemptScore = c.handle, c.contempt
		h, _ := startXboard(t, cfg, nil)
		h.Send("new", "level 0 1 0", "usermove e2e4")
		h.Until("move ")
		h.Send("draw", "ping 1")
		lines := h.WaitFor("pong 1")
		if proxytest.Contains(lines, "offer draw") != c.accept {
			t.Errorf("HandleDraws %t, ContemptScore %d, score -35: got %q", c.handle, c.contempt, lines)
		}
	}
}

func TestXboardPondersOnTheBookReply(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	h, _ := startXboard(t, cfg, nil)
	h.Send("new", "hard", "level 0 1 0", "go")
	if l := h.Until("move "); l[len(l)-1] != "move e2e4" {
		t.Fatalf("got %q", l)
	}
	// The book's reply c7c5 is pondered on, by the engine.
	h.WaitReceived(0, "go ponder")
	if !proxytest.Contains(h.Engine(0).Received(), "position startpos moves e2e4 c7c5") {
		t.Fatalf("engine got %q", h.Engine(0).Received())
	}
	h.Send("usermove c7c5")
	h.Until("move ")
	if !proxytest.Contains(h.Engine(0).Received(), "ponderhit") {
		t.Errorf("no ponderhit: %q", h.Engine(0).Received())
	}
	// A ponder miss: the search stops, its move is not played; the book
	// answers the move played.
	h.Send("new", "go")
	h.Until("move e2e4")
	h.WaitReceived(0, "go ponder")
	n := len(h.Engine(0).Received())
	h.Send("usermove e7e5")
	if l := h.Until("move "); l[len(l)-1] != "move g1f3" {
		t.Errorf("got %q", l)
	}
	if got := h.Engine(0).Received()[n:]; !proxytest.Contains(got, "stop") || proxytest.Contains(got, "ponderhit") {
		t.Errorf("after the miss the engine got %q", got)
	}
}

// The learn fields a game's result writes through the CECP front equal
// those learn -pgn writes for the same game.
func TestXboardResultLearnsAsLearnPGN(t *testing.T) {
	src := proxytest.SmallBook(t)
	data := fixture.ReadFile(t, src)
	copyBook := fixture.CopyFile(t, src)
	cfg := proxytest.Config(t, src)
	cfg.BookLearn = true
	session := learn.NewSession(learn.Settings{}, nil)
	h, _ := startXboard(t, cfg, session)
	h.Send("new", "level 0 1 0", "go")
	h.Until("move e2e4")
	h.Send("usermove e7e5")
	h.Until("move g1f3")
	h.Send("usermove b8c6")
	h.Until("move f1b5")
	h.Send("usermove a7a6")
	h.Until("move a2a3") // the engine's own move now
	h.Send("result 1-0 {White wins on time}", "quit")
	select {
	case <-h.Done:
		h.Done <- nil // for the cleanup
	case <-time.After(5 * time.Second):
		t.Fatal("no end after quit")
	}
	// The same game, as a tournament writes it.
	pgn := `[White "polyproxy"]
[Black "human"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. a3 1-0
`
	b, err := formats.Open(copyBook)
	if err != nil {
		t.Fatal(err)
	}
	updates, _, err := learn.FromPGN(strings.NewReader(pgn), b, "polyproxy", nil)
	b.Close()
	if err != nil || len(updates) != 3 {
		t.Fatalf("learn -pgn: %d updates, %v", len(updates), err)
	}
	lf, err := formats.OpenLearnFile(copyBook)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lf.Apply(t.Context(), updates); err != nil {
		t.Fatal(err)
	}
	lf.Close()
	live, want := fixture.ReadFile(t, src), fixture.ReadFile(t, copyBook)
	if bytes.Equal(live, data) {
		t.Fatal("the result learned nothing")
	}
	if !bytes.Equal(live, want) {
		t.Errorf("learned through result differs from learn -pgn")
	}
}

// FuzzXboardLines drives the CECP front with arbitrary GUI lines against
// the fake engine: it must neither crash nor hang, and a ping after them
// is answered, so the session goes on whatever came before.
func FuzzXboardLines(f *testing.F) {
	for _, s := range []string{
		"new\nlevel 40 5 0\ntime 100\notim 100\nusermove e2e4\nusermove e7e5",
		"new\nforce\ne2e4\ne7e5\nundo\nremove\nremove\ngo\n?\nplayother",
		"setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\nsd 3\nst 1.5\ngo\nresult 1-0 {x}\nnew\nhard\ngo\nusermove c7c5\neasy",
		"analyze\nusermove e2e4\n.\nundo\nsetboard 8/8/8/8/8/8/8/8 w - - 0 1\nexit\ngo",
		"memory 64\ncores 2\negtpath syzygy /tb\noption Style=Risky\noption Polyglot BookDepth=x\noption =\nvariant suicide",
		"level\nlevel 0 1:xx 0\ntime -5\notim x\nsd -1\nst nan\nusermove\nusermove e1e1\nping\nprotover\n\x00\xff\r",
	} {
		f.Add(s)
	}
	bookPath := proxytest.SmallBook(f)
	f.Fuzz(func(t *testing.T, input string) {
		lower := strings.ToLower(input)
		if strings.Contains(lower, "log") {
			t.Skip("log options would write files outside the test's folder")
		}
		if strings.Contains(lower, "flood") || strings.Contains(lower, "searchms") || strings.Contains(lower, "crash") {
			t.Skip("engine settings that make searches long or crash the engine")
		}
		for _, l := range strings.Split(input, "\n") {
			if w, _, _ := strings.Cut(strings.TrimSpace(l), " "); w == "quit" {
				t.Skip("ends the session")
			}
		}
		h := start(t, proxytest.Config(t, bookPath), proxytest.LegalEngine(0), nil)
		h.Send("xboard", "protover 2")
		h.Until("feature done=1")
		h.Send(input, "ping 424242")
		deadline := time.After(5 * time.Second)
		for {
			select {
			case l, ok := <-h.Out:
				if !ok {
					t.Fatalf("the session ended on %q", input)
				}
				if l == "pong 424242" {
					h.Send("quit")
					if err := <-h.Done; err != nil {
						t.Fatalf("%q: run ended with %v", input, err)
					}
					h.Done <- nil
					return
				}
			case <-deadline:
				t.Fatalf("no pong 5 s after %q", input)
			}
		}
	})
}

// Commands sent before the engine's handshake completes wait for it, and
// a quit (or the end of the GUI's input) after them waits its turn: the
// search asked for is started, and ended by the quit without a move (a
// CECP GUI that quits wants none).
func TestXboardQuitAfterCommandsHeldForTheHandshake(t *testing.T) {
	for _, eof := range []bool{false, true} {
		h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) {
			s.BestMove, s.StartDelay = "", 100*time.Millisecond
		}, nil)
		h.Send("xboard", "protover 2", "new", "force", "usermove e2e4", "go")
		if eof {
			h.GUI.Close()
		} else {
			h.Send("quit")
		}
		var lines []string
		for l := range h.Out {
			lines = append(lines, l)
		}
		if proxytest.HasPrefix(lines, "move ") || !proxytest.Contains(lines, "feature done=1") {
			t.Errorf("eof %t: got %q", eof, lines)
		}
		if got := h.Engine(0).Received(); !proxytest.Contains(got, "position startpos moves e2e4") || !proxytest.HasPrefix(got, "go") {
			t.Errorf("eof %t: the engine got %q", eof, got)
		}
	}
}

// variant fischerandom: UCI_Chess960 on; castling comes and goes as O-O
// and O-O-O, and reaches the engine as the king taking its rook.
func TestXboardFischerRandomCastling(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) { s.BestMove = "f1h1" }, nil)
	h.Send("xboard", "protover 2")
	if lines := h.Until("feature done=1"); !proxytest.Contains(lines, `feature variants="normal,fischerandom"`) {
		t.Fatalf("no fischerandom in %q", lines)
	}
	// King f1, rooks b1 and h1: O-O is f1h1, O-O-O f1b1 (king to c1).
	h.Send("new", "variant fischerandom", "force", "setboard 1r3k1r/8/8/8/8/8/8/1R3K1R b KQkq - 0 1",
		"usermove O-O-O", "ping 1")
	h.WaitFor("pong 1")
	got := h.Engine(0).Received()
	if !proxytest.Contains(got, "setoption name UCI_Chess960 value true") {
		t.Fatalf("engine got %q", got)
	}
	// The engine castles, f1h1: O-O in CECP.
	h.Send("go")
	if l := h.Until("move "); l[len(l)-1] != "move O-O" {
		t.Fatalf("got %q", l)
	}
	if !proxytest.HasPrefix(h.Engine(0).Received(), "position fen 1r3k1r/8/8/8/8/8/8/1R3K1R b") {
		t.Errorf("engine got %q", h.Engine(0).Received())
	}
	want := "moves f8b8"
	if l := lastPrefixed(h.Engine(0).Received(), "position"); !strings.HasSuffix(l, want) {
		t.Errorf("position %q, want it to end %q", l, want)
	}
	// Its board follows: the king on g1, the rook on f1.
	h.Send("force", "undo", "usermove O-O", "ping 2")
	if lines := h.WaitFor("pong 2"); proxytest.HasPrefix(lines, "Illegal") {
		t.Errorf("the castling taken back and played again: %q", lines)
	}
	h.Send("new", "ping 3")
	h.WaitFor("pong 3")
	if !proxytest.Contains(h.Engine(0).Received(), "setoption name UCI_Chess960 value false") {
		t.Errorf("new left Chess960 on: %q", h.Engine(0).Received())
	}
}

func lastPrefixed(lines []string, prefix string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], prefix) {
			return lines[i]
		}
	}
	return ""
}

// An answer to a command sent while the engine thinks comes at once, not
// after the engine's move; a tab separates words as a space does.
func TestXboardAnswersWhileThinking(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) {
		s.BestMove, s.SearchTime = "", 300*time.Millisecond
	}, nil)
	h.Send("xboard", "protover 2")
	h.Until("feature done=1")
	h.Send("new", "level\t40 5 0", "usermove\te2e4", "usermove e2e4")
	lines := h.Until("move ")
	if len(lines) < 2 || lines[0] != "Illegal move: e2e4" {
		t.Errorf("got %q, want the illegal move answered before the engine's move", lines)
	}
}

// An engine that gives no move in a game that goes on resigns it, rather
// than leave it to be lost on time.
func TestXboardNoMoveResigns(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) { s.BestMove = "0000" }, nil)
	h.Send("xboard", "protover 2")
	h.Until("feature done=1")
	h.Send("new", "usermove e2e4")
	lines := h.Until("resign")
	if proxytest.HasPrefix(lines, "move ") {
		t.Errorf("got %q", lines)
	}
}

// An engine that dies in a search is restarted by the core and searches
// again: the CECP GUI still gets its move, and the game goes on.
func TestXboardEngineRestartedMidSearch(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(n int, s *ucitest.Settings) {
		s.BestMove = ""
		if n == 0 {
			s.CrashOnGo = 1
		}
	}, nil)
	h.Send("xboard", "protover 2")
	h.Until("feature done=1")
	h.Send("new", "level 0 1 0", "usermove e2e4")
	if l := h.Until("move "); l[len(l)-1] != "move a7a5" {
		t.Fatalf("got %q", l)
	}
	h.Send("usermove d2d4")
	if l := h.Until("move "); l[len(l)-1] != "move a5a4" {
		t.Fatalf("got %q", l)
	}
	if got := h.Engine(1).Received(); !proxytest.Contains(got, "position startpos moves e2e4 a7a5 d2d4") {
		t.Errorf("the restarted engine got %q", got)
	}
}

// The book's policies hold in CECP mode as in UCI mode: the core decides.
// BookMaxMoves 1: the book's 1.e4, then the engine, though the book has
// 2.Nf3.
func TestXboardBookPolicies(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.BookMaxMoves = 1
	h, _ := startXboard(t, cfg, nil)
	h.Send("new", "level 0 1 0", "go")
	h.Until("move e2e4")
	h.Send("usermove e7e5")
	if l := h.Until("move "); l[len(l)-1] == "move g1f3" {
		t.Errorf("a second book move: %q", l)
	}
	if !proxytest.HasPrefix(h.Engine(0).Received(), "go wtime") {
		t.Errorf("the engine did not search: %q", h.Engine(0).Received())
	}
}

// start runs the proxy for cfg and obs behind the CECP front.
func start(t testing.TB, cfg *config.Config, setup func(n int, s *ucitest.Settings), obs core.GameObserver, adjust ...func(*core.Options)) *proxytest.Harness {
	return proxytest.Start(t, cfg, func(c *core.Core) core.Front { return cecpfront.New(c) }, setup, obs, adjust...)
}

// startXboard runs the proxy as a CECP engine, its engines playing
// LegalEngine(-35), and reads its features.
func startXboard(t testing.TB, cfg *config.Config, obs core.GameObserver) (*proxytest.Harness, []string) {
	t.Helper()
	h := start(t, cfg, proxytest.LegalEngine(-35), obs)
	h.Send("xboard", "protover 2")
	return h, h.Until("feature done=1")
}

// Every test of the package again, on the poll loop.
func TestSuiteOnPollLoop(t *testing.T) { proxytest.RunOnPollLoop(t) }

// A restarted engine gets the settings the GUI gave the dead one through
// CECP's option command, never its actions: a button (Clear Hash, or one
// that crashes the engine) is pressed once, on the engine it was pressed
// for.
func TestRestartReplaysSettingsNotButtons(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, ""), nil)
	h.Send("option Skill Level=5", "option Clear Hash", "option Crash")
	h.WaitReceived(0, "setoption name Crash")
	got := h.WaitReceived(1, "ucinewgame")
	if !proxytest.Contains(got, "setoption name Skill Level value 5") {
		t.Errorf("the setting was not replayed: new engine got %q", got)
	}
	for _, l := range got {
		if strings.HasPrefix(l, "setoption name Clear Hash") || strings.HasPrefix(l, "setoption name Crash") {
			t.Errorf("a button was pressed again: new engine got %q", got)
			break
		}
	}
	h.Send("ping 7")
	h.WaitFor("pong 7")
	select {
	case err := <-h.Done:
		t.Fatalf("the run ended: %v", err)
	default:
	}
}
