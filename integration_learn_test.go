package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// Learning through the built binary: from the games' ends the proxy
// sees (BookLearn), into Polyglot and ABK books, and from the host's PGN
// (BookLearnPGN).

// learnGame plays one game from fen between the learner (polyproxy with
// BookLearn) and plain Stockfish, both as a GUI drives them, until the
// rules end it; it returns the moves.
func learnGame(t *testing.T, learner, opponent *proc, learnerWhite bool, fen string) []string {
	t.Helper()
	opt, err := chess.FEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	pos := chess.NewGame(opt).Position()
	var moves []string
	for _, p := range []*proc{learner, opponent} {
		p.send("ucinewgame", "isready")
		p.until("readyok", 10*time.Second)
	}
	for len(pos.ValidMoves()) > 0 {
		if len(moves) >= 150 {
			t.Fatalf("no end after %d plies: %v", len(moves), moves)
		}
		mover := opponent
		if (pos.Turn() == chess.White) == learnerWhite {
			mover = learner
		}
		cmd := "position fen " + fen
		if len(moves) > 0 {
			cmd += " moves " + strings.Join(moves, " ")
		}
		mover.send(cmd, "go movetime 40")
		out := mover.until("bestmove", 20*time.Second)
		move := strings.Fields(out[len(out)-1])[1]
		var played *chess.Move
		for _, m := range pos.ValidMoves() {
			if m.String() == move {
				played = m
			}
		}
		if played == nil {
			t.Fatalf("illegal move %q after %v", move, moves)
		}
		pos = pos.Update(played)
		moves = append(moves, move)
	}
	if pos.Status() != chess.Checkmate {
		t.Fatalf("game ended without mate (%v): %v", pos.Status(), moves)
	}
	return moves
}

// startLearning starts a learner, polyproxy over Stockfish playing from
// and learning into bookPath with its log on (set in a polyglot.ini in the
// book's folder, as a GUI user writes it), and its opponent, Stockfish
// alone; it returns them after their uci handshake, and the log's path.
func startLearning(t *testing.T, bookPath string) (learner, opponent *proc, logPath string) {
	t.Helper()
	dir := filepath.Dir(bookPath)
	ini := filepath.Join(dir, "polyglot.ini")
	logPath = filepath.Join(dir, "polyglot.log")
	if err := os.WriteFile(ini, []byte(fmt.Sprintf(`[PolyGlot]
EngineCommand = %s
EngineDir = %s
Book = true
BookFile = %s
BookLearn = true
Log = true
LogFile = %s
[Engine]
Threads = 1
Hash = 16
`, stockfishPath, dir, bookPath, logPath)), 0o644); err != nil {
		t.Fatal(err)
	}
	learner = startProxy(t, nil, ini)
	opponent = startProc(t, nil, stockfishPath)
	for _, p := range []*proc{learner, opponent} {
		p.send("uci")
		p.until("uciok", 10*time.Second)
	}
	return learner, opponent, logPath
}

// learnedLog waits up to 10 s for the learner's log to say that learning,
// which runs beside the proxy's loop, is done (done), and returns the log
// as it is then.
func learnedLog(logPath string, done func(log string) bool) []byte {
	var log []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		log, _ = os.ReadFile(logPath)
		if done(string(log)) {
			break
		}
	}
	return log
}

func learnFieldOf(t *testing.T, data []byte, key board.Key, move board.Move) (games, points uint16) {
	t.Helper()
	i, ok := fixture.FirstMatch(data, key, move)
	if !ok {
		t.Fatalf("no entry %v %v", key, move)
	}
	l := fixture.LearnAt(data, i)
	return l.Games(), l.Points()
}

// Games through the proxy against Stockfish that end in mate, one won and
// one lost by the learner, then the learn fields of the book moves it
// played are checked.
func TestLiveLearningAgainstStockfish(t *testing.T) {
	testenv.Stockfish(t)
	// Won: White's book move Kb6 forces Kb8, then Rh8 mates; the learner's
	// engine delivers the mate itself.
	const wonFEN = "k7/8/2K5/8/8/8/8/7R w - - 0 1"
	// Lost: Black, a lone king against king and queen, plays its book move
	// and is mated some moves later; the learner never sees the final
	// position, only its engine's mate scores.
	const lostFEN = "8/8/8/4k3/8/8/8/3QK3 b - - 0 1"
	key := func(fen string) board.Key {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		return p.Key()
	}
	mv := func(s string) board.Move {
		m, err := board.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	wonKey, lostKey := key(wonFEN), key(lostFEN)
	won, lost := mv("c6b6"), mv("e5e4")
	entries := []book.Entry{
		{Key: wonKey, Move: won, Weight: 10, Learn: 0},
		{Key: lostKey, Move: lost, Weight: 10, Learn: 2<<16 | 3},
	}
	bookPath := fixture.WriteEntries(t, entries)
	before := fixture.ReadFile(t, bookPath)
	learner, opponent, logPath := startLearning(t, bookPath)

	wonMoves := learnGame(t, learner, opponent, true, wonFEN)
	if wonMoves[0] != "c6b6" {
		t.Fatalf("book move not played: %v", wonMoves)
	}
	lostMoves := learnGame(t, learner, opponent, false, lostFEN)
	if lostMoves[0] != "e5e4" {
		t.Fatalf("book move not played: %v", lostMoves)
	}
	// The next game's ucinewgame ends the last one. Learning runs beside
	// the proxy's loop (a locked book never delays an answer): it is done
	// once the log says the last entry was updated.
	learner.send("ucinewgame", "isready")
	learner.until("readyok", 10*time.Second)
	log := learnedLog(logPath, func(log string) bool { return strings.Contains(log, "move e5e4: ") })
	after, err := os.ReadFile(bookPath)
	if err != nil {
		t.Fatal(err)
	}
	if g, p := learnFieldOf(t, after, wonKey, won); g != 1 || p != 2 {
		t.Errorf("won game's book move: %d games %d points, want 1 game 2 points\nlog:\n%s", g, p, log)
	}
	if g, p := learnFieldOf(t, after, lostKey, lost); g != 3 || p != 3 {
		t.Errorf("lost game's book move: %d games %d points, want 3 games 3 points (was 2 games 3 points)\nlog:\n%s", g, p, log)
	}
	fixture.AssertOnlyLearnChanged(t, before, after, map[int]bool{0: true, 1: true})
	for _, want := range []string{"learn: game ended (ucinewgame): 1-0 by checkmate", "learn: game ended (ucinewgame): 1-0 by engine reported black mate -"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// A book deleted during a game with BookLearn, through the built binary:
// the GUI is told that its book move was not learned, and why, and the log
// claims no update of a file that no longer exists.
func TestLearningIntoADeletedBookBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows may refuse to delete an open file")
	}
	start, err := board.ParseFEN(board.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	e4, _ := board.ParseMove("e2e4")
	bookPath := fixture.WriteEntries(t, []book.Entry{{Key: start.Key(), Move: e4, Weight: 10}})
	logPath := filepath.Join(filepath.Dir(bookPath), "polyglot.log")
	p := startProxy(t, nil, "-noini", "-ec", testenv.FakeEngine(t), "-pg", "Book=true", "-pg", "BookFile="+bookPath,
		"-pg", "BookLearn=true", "-log", "true", "-lf", logPath)
	p.send("uci")
	p.until("uciok", 10*time.Second)
	p.send("ucinewgame", "position startpos", "go movetime 20")
	if l := p.until("bestmove", 10*time.Second); l[len(l)-1] != "bestmove e2e4" {
		t.Fatalf("got %q", l)
	}
	if err := os.Remove(bookPath); err != nil {
		t.Fatal(err)
	}
	// Scholar's mate: a game with a result, ended by the next ucinewgame.
	p.send("position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7", "ucinewgame", "isready")
	// The GUI is told (learning runs beside the loop: the book may have
	// been gone before it was first opened for learning, which is said
	// too), and the log accounts for the book move.
	for l := ""; !strings.HasPrefix(l, "info string learn: ") || !strings.Contains(l, bookPath); {
		l = p.next(10 * time.Second)
	}
	p.send("quit")
	if code := p.waitExit(5 * time.Second); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	log, _ := os.ReadFile(logPath)
	if want := "learn: " + bookPath + " key " + start.Key().String() + " move e2e4: not learned ("; !strings.Contains(string(log), want) || strings.Contains(string(log), "->") {
		t.Fatalf("the log lacks %q or claims an update:\n%s", want, log)
	}
}

// TestLiveLearningIntoABK: through the built binary, a proxy with BookLearn
// plays Black from an ABK book against a proxy playing White from a copy,
// the fool's mate all from the books (the learner's last book move mates);
// the live-learned book is the one "polyproxy learn -pgn" makes of the
// game, and only Black's two records changed (Black's win, a loss in
// White's view: games and losses counted).
func TestLiveLearningIntoABK(t *testing.T) {
	testenv.Stockfish(t)
	line := []string{"f2f3", "e7e5", "g2g4", "d8h4"}
	var entries []book.Entry
	for i, s := range line {
		l := fixture.Line(t, "", strings.Join(line[:i], " "))
		m, err := board.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, book.Entry{Key: l.Pos.Key(), Move: m, Weight: 10, Learn: book.MakeLearn(4, 4)})
	}
	dir := t.TempDir()
	abkPath := filepath.Join(dir, "fool.abk")
	if _, err := abk.Write(abkPath, book.FromEntries("fool", entries), 10); err != nil {
		t.Fatal(err)
	}
	before := fixture.ReadFile(t, abkPath)
	byHand := filepath.Join(t.TempDir(), "byhand.abk")
	theirs := filepath.Join(t.TempDir(), "theirs.abk")
	for _, p := range []string{byHand, theirs} {
		if err := os.WriteFile(p, before, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	learner, _, logPath := startLearning(t, abkPath)
	opponent := startProxy(t, nil, "-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile="+theirs)
	opponent.send("uci")
	opponent.until("uciok", 10*time.Second)
	moves := learnGame(t, learner, opponent, false, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	if strings.Join(moves, " ") != strings.Join(line, " ") {
		t.Fatalf("the game left the books: %v", moves)
	}
	learner.send("ucinewgame", "isready")
	learner.until("readyok", 10*time.Second)
	log := learnedLog(logPath, func(log string) bool { return strings.Count(log, "learn: "+abkPath+" key") >= 2 })
	live := fixture.ReadFile(t, abkPath)
	pgn := filepath.Join(t.TempDir(), "game.pgn")
	if err := os.WriteFile(pgn, []byte("[White \"other\"]\n[Black \"learner\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(testenv.Polyproxy(t), "learn", "-book", byHand, "-pgn", pgn, "-player", "learner").CombinedOutput(); err != nil {
		t.Fatalf("learn -pgn: %v: %s", err, out)
	}
	if string(live) != string(fixture.ReadFile(t, byHand)) {
		t.Errorf("the live-learned book differs from learn -pgn's\nlog:\n%s", log)
	}
	changed := 0
	for rec := abk.FirstRecord; (rec+1)*abk.RecordSize <= len(live); rec++ {
		was, now := abk.DecodeRecord(before[rec*abk.RecordSize:]), abk.DecodeRecord(live[rec*abk.RecordSize:])
		if was == now {
			continue
		}
		changed++
		want := was
		want.Games, want.Losses = was.Games+1, was.Losses+1
		if now != want || rec-abk.FirstRecord > 3 || (rec-abk.FirstRecord)%2 != 1 {
			t.Errorf("record %d: %+v, was %+v", rec, now, was)
		}
	}
	if changed != 2 {
		t.Errorf("%d records changed, want Black's 2\nlog:\n%s", changed, log)
	}
}

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
