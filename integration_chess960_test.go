package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/randgames"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// chess960Result is what one game through the proxy gave.
type chess960Result struct {
	plies, bookMoves, castlings int
	decided                     bool // ended by the rules or by the learner's scores
	firstFromBook               bool // the learner's first move was a book move
}

// playChess960Game plays a Chess960 game from fen between the learner (the
// proxy over Stockfish) and a weak Stockfish, as a GUI drives them: every
// move must be legal in Chess960 (castling king takes rook) and every book
// move one of the book's moves there. It ends by the rules, or once the
// learner's engine scores beyond 1000 cp three moves running (as the
// proxy's learning adjudicates), or after 200 plies.
func playChess960Game(t *testing.T, learner, opponent *proc, learnerWhite bool, fen string, b *book.Book) chess960Result {
	t.Helper()
	line, err := board.NewLineVariant(fen, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*proc{learner, opponent} {
		p.send("ucinewgame", "isready")
		p.until("readyok", 10*time.Second)
	}
	var res chess960Result
	var moves []string
	big := 0
	for ; res.plies < 200; res.plies++ {
		if line.Pos.Status() != board.Playing {
			res.decided = true
			break
		}
		if big >= 3 {
			res.decided = true
			break
		}
		learnerMoves := line.Pos.WhiteToMove() == learnerWhite
		mover, goCmd := opponent, "go depth 1"
		if learnerMoves {
			mover, goCmd = learner, "go movetime 25"
		}
		cmd := "position fen " + fen
		if len(moves) > 0 {
			cmd += " moves " + strings.Join(moves, " ")
		}
		mover.send(cmd, goCmd)
		out := mover.until("bestmove", 20*time.Second)
		move := strings.Fields(out[len(out)-1])[1]
		m, err := board.ParseMove(move)
		if err != nil {
			t.Fatalf("%s: bestmove %q after %v", fen, move, moves)
		}
		fromBook, lastBig := false, false // lastBig: the search's last score
		for _, l := range out {
			if strings.HasPrefix(l, "info string book move "+move+" ") {
				fromBook = true
			}
			if f := strings.Fields(l); len(f) > 0 && f[0] == "info" {
				for i := 0; i+2 < len(f); i++ {
					if f[i] == "score" {
						n, _ := strconv.Atoi(f[i+2])
						lastBig = f[i+1] == "mate" || n > 1000 || n < -1000
					}
				}
			}
		}
		if learnerMoves && !fromBook {
			if lastBig {
				big++
			} else {
				big = 0
			}
		}
		if learnerMoves && res.plies < 2 {
			res.firstFromBook = fromBook
		}
		if fromBook {
			res.bookMoves++
			inBook := false
			for _, e := range b.Entries(line.Pos.Key()) {
				inBook = inBook || e.Move == m
			}
			if !inBook {
				t.Fatalf("%s: book move %s after %v is not the book's (king takes rook)", fen, move, moves)
			}
		}
		if strings.HasPrefix(line.Pos.SAN(m), "O-O") {
			res.castlings++
		}
		if _, err := line.Play(m); err != nil || line.Pos.ToPlayed(m) != m {
			t.Fatalf("%s: illegal move %s after %v: %v", fen, move, moves, err)
		}
		moves = append(moves, move)
	}
	return res
}

// A GUI plays Chess960 games through the proxy (UCI_Chess960 on, over
// Stockfish) with a book made by make-book from Chess960 games, from
// X-FEN and Shredder-FEN starts: all moves legal, book moves in king-
// takes-rook notation, and the learn fields written, nothing else.
func TestChess960GamesThroughProxy(t *testing.T) {
	testenv.Stockfish(t)
	lichess, cutechess := randgames.WriteChess960PGN(t, 400)
	dir := t.TempDir()
	bin := filepath.Join(dir, "960.bin")
	if out, err := exec.Command(testenv.Polyproxy(t), "make-book", "-pgn", lichess, "-pgn", cutechess, "-bin", bin, "-min-game", "1", "-q").CombinedOutput(); err != nil {
		t.Fatalf("make-book: %v\n%s", err, out)
	}
	before, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	b, err := formats.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	learner, opponent, logPath := startLearning(t, bin)
	for _, p := range []*proc{learner, opponent} {
		p.send("setoption name UCI_Chess960 value true")
	}
	opponent.send("setoption name Skill Level value 0")

	var total chess960Result
	decided := 0
	for i, n := range randgames.TestStarts {
		start, err := board.ParseFENVariant(board.Chess960StartFEN(n), true)
		if err != nil {
			t.Fatal(err)
		}
		fen := start.FEN()
		if i%2 == 1 {
			fen = start.ShredderFEN()
		}
		r := playChess960Game(t, learner, opponent, i%2 == 0, fen, b)
		if i%2 == 0 && !r.firstFromBook {
			// Every start is in the book for White (its games' wins and draws).
			t.Errorf("start %d: the learner's first move as White was not a book move", n)
		}
		total.plies += r.plies
		total.bookMoves += r.bookMoves
		total.castlings += r.castlings
		if r.decided {
			decided++
		}
	}
	learner.send("ucinewgame", "isready")
	learner.until("readyok", 10*time.Second)
	after, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(logPath)
	t.Logf("%d games (%d decided), %d plies, %d book moves, %d castlings", len(randgames.TestStarts), decided, total.plies, total.bookMoves, total.castlings)
	if total.bookMoves < len(randgames.TestStarts)/2 {
		t.Fatalf("only %d book moves in %d games\n%s", total.bookMoves, len(randgames.TestStarts), log)
	}
	learned := map[int]bool{}
	for i := range min(len(before), len(after)) / book.EntrySize {
		if fixture.LearnAt(before, i) != fixture.LearnAt(after, i) {
			learned[i] = true
		}
	}
	fixture.AssertOnlyLearnChanged(t, before, after, learned)
	if len(learned) == 0 || !strings.Contains(string(log), "learn: game ended") {
		t.Fatalf("no learn field written (%d games decided)\n%s", decided, log)
	}
}
