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

// TestXboardBookWindowWithStockfish: a scripted GUI sends what XBoard
// sends for its Book window (bk) and its Hint button (hint), to polyproxy
// running Stockfish with the gnuchess book and BookWidth 3: in force
// mode, while Stockfish thinks and during analysis. The Book window lists
// every legal entry of the position, in SAN, legal on the board, with the
// shares of the book's weights, the three heaviest as the moves played;
// its lines start with a space and an empty line ends it; a search goes
// on undisturbed.
func TestXboardBookWindowWithStockfish(t *testing.T) {
	needStockfishAndBook(t)
	p := startProxy(t, nil, "-noini", "-ec", testenv.StockfishPath, "-pg", "Book=true",
		"-pg", "BookFile="+testenv.GnuchessBookPath, "-pg", "BookWidth=3", "-uci", "Hash=16")
	p.send("xboard", "protover 2")
	p.until("feature done=1", 10*time.Second)
	thinking := regexp.MustCompile(`^-?\d+ -?\d+ \d+ \d+ \S`)
	// bookWindow reads bk's answer; lines of the search around it are
	// counted, not taken as part of it.
	bookWindow := func() (lines []string, others int) {
		t.Helper()
		for {
			l := p.next(10 * time.Second)
			switch {
			case l == "":
				return lines, others
			case strings.HasPrefix(l, " "):
				lines = append(lines, l)
			case thinking.MatchString(l), strings.HasPrefix(l, "#"):
				others++
			default:
				t.Fatalf("in bk's answer: %q", l)
			}
		}
	}

	p.send("new", "force", "usermove e2e4", "bk")
	lines, _ := bookWindow()
	l, err := board.NewLine("")
	if err != nil {
		t.Fatal(err)
	}
	e4, err := book.ParseMove("e2e4")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Play(e4); err != nil {
		t.Fatal(err)
	}
	b, err := book.Open(testenv.GnuchessBookPath)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	legal := 0
	b.Each(l.Pos.Key(), func(_ int, e book.Entry) {
		if _, err := l.Pos.LegalMove(l.Pos.ToPlayed(e.Move)); err == nil {
			legal++
		}
	})
	if len(lines) != legal+1 || lines[0] != " book.bin:" {
		t.Fatalf("bk after 1.e4: %q, want the book's name and its %d legal entries", lines, legal)
	}
	played, total := 0, 0.0
	entry := regexp.MustCompile(`^ (\S+) (\d+\.\d)% \(weight \d+\)( not played: .*)?$`)
	for _, line := range lines[1:] {
		m := entry.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("bk line %q", line)
		}
		if _, err := board.ParseSAN(&l.Pos, m[1]); err != nil {
			t.Errorf("bk line %q: %v", line, err)
		}
		share, _ := strconv.ParseFloat(m[2], 64)
		total += share
		if m[3] == "" {
			played++
		}
	}
	if played != 3 || total < 99 || total > 101 {
		t.Errorf("bk after 1.e4: %d moves played (want BookWidth's 3), shares summing to %.1f%%: %q", played, total, lines)
	}
	p.send("hint", "ping 1")
	if got := p.until("pong 1", 10*time.Second); !slices.Contains(got, "Hint: c7c5") {
		t.Errorf("hint after 1.e4: %q, want the book's heaviest, c7c5", got)
	}

	// While Stockfish thinks on a position out of book: answered at once,
	// the move still comes.
	p.send("new", "force", "setboard 8/5k2/8/3p4/3P4/4K3/6R1/8 w - - 0 50",
		"st 2", "go", "bk")
	if lines, _ := bookWindow(); len(lines) != 1 || lines[0] != " no book move here: not in book" {
		t.Errorf("bk while thinking: %q", lines)
	}
	if got := p.until("move ", 10*time.Second); len(got) == 0 {
		t.Fatal("no move")
	}

	// During analysis: the analysis goes on after the answer.
	p.send("force", "new", "post", "analyze")
	p.until("1 ", 10*time.Second)
	p.send("bk")
	if lines, _ := bookWindow(); len(lines) < 4 {
		t.Errorf("bk at the start during analysis: %q", lines)
	}
	for {
		if l := p.next(10 * time.Second); thinking.MatchString(l) {
			break
		}
	}
	p.send("exit", "quit")
	if code := p.waitExit(10 * time.Second); code != 0 {
		t.Errorf("exit %d; stderr %s", code, p.stderr.String())
	}
}
