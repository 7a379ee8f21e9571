package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// CECP through the built binary: scripted GUIs sending what XBoard sends,
// and the real XBoard playing a match under Xvfb.

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
		mv, err := board.ParseMove(m)
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
		mv, _ = board.ParseMove(names[0])
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
	e4, err := board.ParseMove("e2e4")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Play(e4); err != nil {
		t.Fatal(err)
	}
	b, err := formats.Open(testenv.GnuchessBookPath)
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
	played, shares, chances := 0, 0.0, 0.0
	entry := regexp.MustCompile(`^ (\S+) chance (\d+\.\d+)% \(weight \d+, share (\d+\.\d+)%\)( not played: .*)?$`)
	for _, line := range lines[1:] {
		m := entry.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("bk line %q", line)
		}
		if _, err := board.ParseSAN(&l.Pos, m[1]); err != nil {
			t.Errorf("bk line %q: %v", line, err)
		}
		chance, _ := strconv.ParseFloat(m[2], 64)
		share, _ := strconv.ParseFloat(m[3], 64)
		chances += chance
		shares += share
		if m[4] == "" {
			played++
		} else if chance != 0 {
			t.Errorf("bk line %q: a move not played has a chance", line)
		}
	}
	if played != 3 || shares < 99 || shares > 101 || chances < 99.9 || chances > 100.1 {
		t.Errorf("bk after 1.e4: %d moves played (want BookWidth's 3), shares summing to %.1f%%, chances to %.1f%%: %q", played, shares, chances, lines)
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

// TestXboardMatch has XBoard play a 2-game match, Stockfish against
// Stockfish, with polyproxy as the adapter for both (XBoard's
// -adapterCommand, PolyGlot's command line) and a book whose moves
// Stockfish alone never plays (1.Nc3 a6): the PGN shows no forfeit, no
// illegal move, and both games open from the book. Both adapters learn
// into that book from the results XBoard sends them: its learn fields end
// equal to those learn -pgn writes from XBoard's PGN. XBoard runs headless
// under Xvfb, in a process group of its own that the test ends whatever
// happens (XBoard stays after the match in -noGUI mode).
func TestXboardMatch(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XBoard under Xvfb, in a process group of its own: Linux only")
	}
	if testing.Short() {
		t.Skip("a 2-game match takes about 45 s")
	}
	sf := testenv.Stockfish(t)
	xboard := testenv.Xboard(t)
	xvfbRun := testenv.XvfbRun(t)
	pp := testenv.Polyproxy(t)
	dir := t.TempDir()

	var entries []book.Entry
	for _, e := range []struct{ moves, move string }{{"", "b1c3"}, {"b1c3", "a7a6"}} {
		l := fixture.Line(t, "", e.moves)
		m, err := board.ParseMove(e.move)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, book.Entry{Key: l.Pos.Key(), Move: m, Weight: 10})
	}
	bookPath := fixture.WriteEntries(t, entries)
	// The same book, to learn into from the PGN afterwards.
	fromPGN := fixture.CopyFile(t, bookPath)
	original := fixture.ReadFile(t, fromPGN)
	pgnPath := filepath.Join(dir, "games.pgn")
	adapter := pp + ` -noini -ec "%fcp" -ed "%fd" -pg Book=true -pg BookLearn=true -pg BookFile=` + bookPath
	cmd := exec.Command(xvfbRun, "-a", xboard, "-fcp", sf, "-fUCI", "-scp", sf, "-sUCI",
		"-adapterCommand", adapter, "-mg", "2", "-tc", "0:05", "-inc", "0.05", "-sgf", pgnPath, "-noGUI")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir) // XBoard's settings file goes there
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	testenv.OwnProcessGroup(cmd)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		// XBoard, Xvfb and the adapters; the engines die with their
		// adapter (the parent's death signal).
		testenv.KillProcessGroup(cmd)
		cmd.Wait()
	}()
	deadline := start.Add(3 * time.Minute)
	for !strings.Contains(out.String(), "final score") {
		if time.Now().After(deadline) {
			t.Fatalf("no end of the match within 3 minutes; XBoard said:\n%s", out.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("match over after %v: %s", time.Since(start).Round(time.Second), lastLineWith(out.String(), "final score"))
	pgn := string(fixture.ReadFile(t, pgnPath))
	games := strings.Split(pgn, "[Event ")[1:]
	if len(games) != 2 {
		t.Fatalf("%d games in the PGN, want 2:\n%s", len(games), pgn)
	}
	bad := regexp.MustCompile(`(?i)illegal|forfeit|on time|crash|disconnect|stall|exited`)
	result := regexp.MustCompile(`\[Result "(1-0|0-1|1/2-1/2)"\]`)
	opening := regexp.MustCompile(`\n\n1\. Nc3 (\{[^}]*\} )?a6 `)
	for i, g := range games {
		if m := bad.FindString(g); m != "" {
			t.Errorf("game %d: %q in\n%s", i+1, m, g)
		}
		if !result.MatchString(g) {
			t.Errorf("game %d has no result:\n%s", i+1, g)
		}
		if !opening.MatchString(g) {
			t.Errorf("game %d does not open with the book's 1.Nc3 a6:\n%s", i+1, g)
		}
	}
	player := regexp.MustCompile(`\[White "([^"]*)"\]`).FindStringSubmatch(pgn)
	if player == nil {
		t.Fatalf("no White tag:\n%s", pgn)
	}
	if out, err := exec.Command(pp, "learn", "-book", fromPGN, "-pgn", pgnPath, "-player", player[1]).CombinedOutput(); err != nil {
		t.Fatalf("learn -pgn: %v\n%s", err, out)
	}
	want := fixture.ReadFile(t, fromPGN)
	if bytes.Equal(want, original) {
		t.Fatalf("learn -pgn learned nothing from\n%s", pgn)
	}
	// The adapters learn when XBoard sends them the result, moments
	// before or after it prints the final score.
	var live []byte
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if live = fixture.ReadFile(t, bookPath); bytes.Equal(live, want) {
			return
		}
	}
	t.Errorf("learned from the results:\n%x\nlearn -pgn from the PGN:\n%x", live, want)
}

func lastLineWith(s, sub string) string {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], sub) {
			return lines[i]
		}
	}
	return ""
}
