package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// A tournament as cutechess-cli runs one, scripted: two games at a time,
// each between polyproxy (the fake engine behind it, the gnuchess book,
// BookLearn, BookLearnPGN naming the match's PGN) and the fake engine
// alone, from the start position and from FEN openings, colours
// alternating; every game is adjudicated after a number of plies (the
// host decides the result: 1-0, 0-1 or a draw), after the proxy's move or
// after the opponent's, which the proxy is then never sent; the PGN is
// written as cutechess-cli writes it, each game in the order the games
// started (one finished early waits for the one before). Both proxies
// learn into one book; at the end its bytes must be those learn -pgn
// writes from the PGN into a copy of the book, for a Polyglot book and an
// ABK one.
func TestLiveLearningFromHostPGNEndToEnd(t *testing.T) {
	bookSource := testenv.GnuchessBook(t)
	for _, ext := range []string{".bin", ".abk"} {
		t.Run(strings.TrimPrefix(ext, "."), func(t *testing.T) {
			dir := t.TempDir()
			bookPath := filepath.Join(dir, "book"+ext)
			if ext == ".bin" {
				data, err := os.ReadFile(bookSource)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(bookPath, data, 0o644); err != nil {
					t.Fatal(err)
				}
			} else if out, err := exec.Command(testenv.Polyproxy(t), "convert-book", "-in", bookSource, "-out", bookPath).CombinedOutput(); err != nil {
				t.Fatalf("convert-book: %v\n%s", err, out)
			}
			hostedTournament(t, dir, bookPath, 12)
		})
	}
}

// openingFENs are a suite's positions, the games' FEN tags.
var openingFENs = []string{
	"", // the start position
	"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
	"rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2",
	"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
}

// hostGame is one game of the scripted host.
type hostGame struct {
	number      int
	fen         string
	proxyWhite  bool
	plies       int // adjudicated after this many
	result      string
	moves       []string // UCI
	san         []string
	termination string
}

func hostedTournament(t *testing.T, dir, bookPath string, games int) {
	before, err := os.ReadFile(bookPath)
	if err != nil {
		t.Fatal(err)
	}
	pgnPath := filepath.Join(dir, "games.pgn")
	fake := testenv.FakeEngine(t)
	rng := rand.New(rand.NewPCG(31, 7))
	var list []*hostGame
	for i := range games {
		g := &hostGame{number: i + 1, fen: openingFENs[i/2%len(openingFENs)], proxyWhite: i%2 == 0, plies: 6 + rng.IntN(30)}
		g.result = []string{"1-0", "0-1", "1/2-1/2"}[rng.IntN(3)]
		g.termination = map[string]string{"1-0": "White wins by adjudication", "0-1": "Black wins by adjudication", "1/2-1/2": "Draw by adjudication"}[g.result]
		list = append(list, g)
	}

	// Two seats, as -concurrency 2: each a proxy and its opponent, kept
	// from game to game (cutechess-cli restarts no engine by default).
	type seat struct{ proxy, opponent *proc }
	var seats []seat
	for i := range 2 {
		args := []string{"-noini", "-ec", fake, "-pg", "Book=true", "-pg", "BookFile=" + bookPath, "-pg", "BookLearn=true",
			"-log", "true", "-lf", filepath.Join(dir, fmt.Sprintf("proxy%d.log", i))}
		if i == 0 {
			args = append(args, "-pg", "BookLearnPGN="+pgnPath)
		}
		// The claims on the PGN's games go in the temporary folder: the test's.
		p := startProxy(t, []string{"TMPDIR=" + dir}, args...)
		p.send("uci")
		p.until("uciok", 10*time.Second)
		if i == 1 {
			p.send("setoption name Polyglot BookLearnPGN value " + pgnPath) // as option.Polyglot BookLearnPGN=...
		}
		o := startProc(t, nil, fake)
		o.send("uci")
		o.until("uciok", 10*time.Second)
		seats = append(seats, seat{p, o})
	}

	// The host writes a game once every game begun before it is written.
	var mu sync.Mutex
	done := map[int]*hostGame{}
	written := 0
	finish := func(g *hostGame) {
		mu.Lock()
		defer mu.Unlock()
		done[g.number] = g
		for done[written+1] != nil {
			written++
			f, err := os.OpenFile(pgnPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
			if err != nil {
				t.Error(err)
				return
			}
			f.WriteString(cutechessPGN(done[written]))
			f.Close()
		}
	}
	next := make(chan *hostGame, len(list))
	for _, g := range list {
		next <- g
	}
	close(next)
	var wg sync.WaitGroup
	errs := make(chan error, len(seats))
	for _, s := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				if err := playHosted(s.proxy, s.opponent, g); err != nil {
					errs <- err
					return
				}
				finish(g)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, s := range seats {
		s.proxy.send("quit")
		s.opponent.send("quit")
		select {
		case <-s.proxy.done:
		case <-time.After(20 * time.Second):
			t.Fatal("the proxy did not quit")
		}
	}

	model := filepath.Join(dir, "model"+filepath.Ext(bookPath))
	if err := os.WriteFile(model, before, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(testenv.Polyproxy(t), "learn", "-book", model, "-pgn", pgnPath, "-player", "proxy").CombinedOutput(); err != nil {
		t.Fatalf("learn -pgn: %v\n%s", err, out)
	}
	live, _ := os.ReadFile(bookPath)
	want, _ := os.ReadFile(model)
	logs := ""
	for i := range seats {
		l, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("proxy%d.log", i)))
		logs += string(l)
	}
	if bytes.Equal(live, before) {
		t.Fatalf("nothing learned; logs:\n%s", grepLines(logs, "learn:"))
	}
	if !bytes.Equal(live, want) {
		t.Fatalf("the live-learned book differs from learn -pgn's; logs:\n%s", grepLines(logs, "learn:"))
	}
	if n := strings.Count(logs, ") is \"proxy\" - \"fake\"") + strings.Count(logs, ") is \"fake\" - \"proxy\""); n != games {
		t.Errorf("%d games found in the PGN, want %d:\n%s", n, games, grepLines(logs, "learn:"))
	}
	for _, bad := range []string{"not found", "not learned", "fit it alike"} {
		if strings.Contains(logs, bad) {
			t.Errorf("log says %q:\n%s", bad, grepLines(logs, "learn:"))
		}
	}
}

func grepLines(text, s string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// playHosted plays g between proxy and opponent as cutechess-cli does:
// ucinewgame and isready to both, then each move's position and go to the
// side to move, until the host adjudicates.
func playHosted(proxy, opponent *proc, g *hostGame) error {
	for _, p := range []*proc{proxy, opponent} {
		p.send("ucinewgame", "isready")
		p.until("readyok", 10*time.Second)
	}
	base := "startpos"
	start := board.StartFEN
	if g.fen != "" {
		base, start = "fen "+g.fen, g.fen
	}
	pos, err := board.ParseFEN(start)
	if err != nil {
		return err
	}
	for len(g.moves) < g.plies && len(pos.LegalMoves()) > 0 {
		mover := opponent
		if pos.WhiteToMove() == g.proxyWhite {
			mover = proxy
		}
		line := "position " + base
		if len(g.moves) > 0 {
			line += " moves " + strings.Join(g.moves, " ")
		}
		mover.send(line, "go wtime 10000 btime 10000 winc 100 binc 100")
		out := mover.until("bestmove", 10*time.Second)
		f := strings.Fields(out[len(out)-1])
		if len(f) < 2 {
			return fmt.Errorf("game %d: %q", g.number, out[len(out)-1])
		}
		m, err := board.ParseMove(f[1])
		if err != nil {
			return fmt.Errorf("game %d: %v", g.number, err)
		}
		m = pos.ToPlayed(m)
		if _, err := pos.LegalMove(m); err != nil {
			return fmt.Errorf("game %d: illegal %s after %v", g.number, f[1], g.moves)
		}
		g.san = append(g.san, pos.SAN(m))
		g.moves = append(g.moves, f[1])
		pos.Play(m)
	}
	if len(pos.LegalMoves()) == 0 { // the rules ended it first
		g.result, g.termination = "1/2-1/2", "Stalemate"
		if pos.InCheck() {
			g.result, g.termination = map[bool]string{true: "0-1", false: "1-0"}[pos.WhiteToMove()], "mate"
		}
	}
	return nil
}

// cutechessPGN writes g as cutechess-cli does.
func cutechessPGN(g *hostGame) string {
	var b strings.Builder
	white, black := "proxy", "fake"
	if !g.proxyWhite {
		white, black = black, white
	}
	fmt.Fprintf(&b, "[Event \"?\"]\n[Site \"?\"]\n[Date \"2026.07.30\"]\n[Round \"%d\"]\n[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n", g.number, white, black, g.result)
	start := board.StartFEN
	if g.fen != "" {
		start = g.fen
		fmt.Fprintf(&b, "[FEN \"%s\"]\n[SetUp \"1\"]\n", g.fen)
	}
	fmt.Fprintf(&b, "[GameDuration \"00:00:01\"]\n[PlyCount \"%d\"]\n[Termination \"adjudication\"]\n[TimeControl \"10+0.1\"]\n\n", len(g.moves))
	pos, _ := board.ParseFEN(start)
	for i, san := range g.san {
		if pos.WhiteToMove() {
			fmt.Fprintf(&b, "%d. ", pos.FullMove())
		} else if i == 0 {
			fmt.Fprintf(&b, "%d... ", pos.FullMove())
		}
		fmt.Fprintf(&b, "%s {+0.%02d/%d 0.1s} ", san, i%100, 1+i%20)
		m, _ := board.ParseMove(g.moves[i])
		pos.Play(pos.ToPlayed(m))
		if i%7 == 6 {
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "{%s} %s\n\n", g.termination, g.result)
	return b.String()
}
