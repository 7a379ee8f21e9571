package main

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// TestXboardGameWithStockfish: a scripted CECP GUI plays a whole game
// against polyproxy running Stockfish, with the gnuchess book, pondering
// and thinking output on. The GUI plays the legal move that sorts first
// (a weak game, which Stockfish ends by mate), checks every move it gets
// on its own board, the thinking lines' form, pings answered in order,
// and the mate claimed as the board shows it.
func TestXboardGameWithStockfish(t *testing.T) {
	needStockfishAndBook(t)
	p := startProxy(t, nil, "-noini", "-ec", testenv.StockfishPath, "-pg", "Book=true",
		"-pg", "BookFile="+testenv.GnuchessBookPath, "-uci", "Hash=16")
	p.send("xboard", "protover 2")
	features := p.until("feature done=1", 10*time.Second)
	if !hasLinePrefix(features, `feature myname="Stockfish`) {
		t.Errorf("no myname in %q", features)
	}
	p.send("new", "hard", "post", "level 0 0:05 0", "time 500", "otim 500", "go")
	l, err := board.NewLine("")
	if err != nil {
		t.Fatal(err)
	}
	thinking := regexp.MustCompile(`^-?\d+ -?\d+ \d+ \d+ \S`)
	claim := ""
	pings, pongs := 0, 0
	for ply := 0; ply < 400 && claim == ""; ply++ {
		var m string
		for m == "" && claim == "" {
			line := p.next(15 * time.Second)
			switch {
			case strings.HasPrefix(line, "move "):
				m = strings.TrimPrefix(line, "move ")
			case strings.HasPrefix(line, "1-0 {"), strings.HasPrefix(line, "0-1 {"), strings.HasPrefix(line, "1/2-1/2 {"):
				claim = line
			case strings.HasPrefix(line, "pong "):
				pongs++
				if line != "pong "+strconv.Itoa(pongs) {
					t.Fatalf("got %q, want pong %d", line, pongs)
				}
			case strings.HasPrefix(line, "#"):
			case thinking.MatchString(line):
			default:
				t.Fatalf("unexpected line %q", line)
			}
		}
		if claim != "" {
			break
		}
		mv, err := book.ParseMove(m)
		if err == nil {
			_, err = l.Play(mv)
		}
		if err != nil {
			t.Fatalf("ply %d: engine's move %q: %v", len(l.Keys), m, err)
		}
		// Its claim follows its move at once when the move ends the game.
		if l.Pos.Status() != board.Playing || l.Pos.HalfmoveClock() >= 100 {
			break // the claim follows
		}
		moves := l.Pos.LegalMoves()
		names := make([]string, len(moves))
		for i, mv := range moves {
			names[i] = mv.String()
		}
		slices.Sort(names)
		pings++
		p.send("time 500", "otim 500", "usermove "+names[0], "ping "+strconv.Itoa(pings))
		mv, _ = book.ParseMove(names[0])
		if _, err := l.Play(mv); err != nil {
			t.Fatal(err)
		}
		if st := l.Pos.Status(); st != board.Playing {
			break // our move ended it: polyproxy claims it below
		}
	}
	for claim == "" {
		// Our move ended it: the claim follows, after pongs still owed.
		if line := p.next(5 * time.Second); !strings.HasPrefix(line, "pong ") && !strings.HasPrefix(line, "#") {
			claim = line
		}
	}
	if l.Pos.Status() == board.Checkmate {
		want := "1-0 {White mates}"
		if l.Pos.WhiteToMove() {
			want = "0-1 {Black mates}"
		}
		if claim != want {
			t.Errorf("claim %q, want %q", claim, want)
		}
	} else if !strings.HasPrefix(claim, "1/2-1/2 {") {
		t.Errorf("claim %q in %s", claim, l.Pos.FEN())
	}
	t.Logf("%d plies, %d pongs in order, claim %s", len(l.Keys)-1, pongs, claim)
	p.send("result "+strings.SplitN(claim, " ", 2)[0]+" {end}", "quit")
	if code := p.waitExit(10 * time.Second); code != 0 {
		t.Errorf("exit %d; stderr %s", code, p.stderr.String())
	}
}

func hasLinePrefix(lines []string, prefix string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) })
}
