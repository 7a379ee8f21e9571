package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// Integration tests: the built binary driven as GUIs drive it, against the
// real Stockfish and the real gnuchess book when installed. This file holds
// the helpers all of them share, the UCI proxy's basics, its relay held to
// Stockfish alone, the scripts and the benchmarks; books, learning, CECP,
// Unix processes and Windows (under Wine) have a file each beside it.

const (
	stockfishPath = testenv.StockfishPath
	gnuchessBook  = testenv.GnuchessBookPath
)

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}

func needStockfishAndBook(t testing.TB) {
	t.Helper()
	testenv.Stockfish(t)
	testenv.GnuchessBook(t)
}

// proc is polyproxy (or another engine) run as a GUI runs it.
type proc struct {
	t      testing.TB
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string
	stderr *lockedBuffer
	done   chan struct{}
}

// lockedBuffer holds a running process's stderr. os/exec copies it in
// from a pipe in its own goroutine, in no order with the stdout lines: a
// line the process wrote before a stdout line may arrive after it, so a
// test waits for it (proc.waitStderr) rather than reading at once.
type lockedBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{} // closed by the next Write; nil when nobody waits
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wrote != nil {
		close(l.wrote)
		l.wrote = nil
	}
	return l.b.Write(p)
}

// contains reports whether s is in the buffer and, when not, gives a
// channel closed by the next Write.
func (l *lockedBuffer) contains(s string) (bool, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if strings.Contains(l.b.String(), s) {
		return true, nil
	}
	if l.wrote == nil {
		l.wrote = make(chan struct{})
	}
	return false, l.wrote
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startProc(t testing.TB, env []string, name string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	return startCmd(t, cmd)
}

// startCmd starts cmd (its Stdin, Stdout and Stderr unset) as a GUI does
// and reads its output.
func startCmd(t testing.TB, cmd *exec.Cmd) *proc {
	t.Helper()
	name := cmd.Path
	p := &proc{t: t, cmd: cmd, lines: make(chan string, 1<<16), stderr: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	var err error
	if p.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.in.Close()
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			t.Errorf("%s did not exit after stdin closed", name)
		}
	})
	return p
}

func startProxy(t testing.TB, env []string, args ...string) *proc {
	return startProc(t, env, testenv.Polyproxy(t), args...)
}

func (p *proc) send(lines ...string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, strings.Join(lines, "\n")+"\n"); err != nil {
		p.t.Fatalf("write: %v (stderr: %s)", err, p.stderr.String())
	}
}

func (p *proc) next(timeout time.Duration) string {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatalf("output closed; stderr: %s", p.stderr.String())
		}
		return l
	case <-time.After(timeout):
		p.t.Fatalf("no output for %v; stderr: %s", timeout, p.stderr.String())
	}
	return ""
}

// until reads up to the first line starting with prefix; a bestmove that
// is not awaited is an error (exactly one bestmove per go).
func (p *proc) until(prefix string, timeout time.Duration) []string {
	p.t.Helper()
	var got []string
	for {
		l := p.next(timeout)
		got = append(got, l)
		if strings.HasPrefix(l, prefix) {
			return got
		}
		if strings.HasPrefix(l, "bestmove") {
			p.t.Fatalf("unexpected %q while waiting for %q", l, prefix)
		}
	}
}

// waitStderr waits until the process's stderr holds each of texts, and
// fails the test if it does not within timeout, or by the time the
// process has exited (then all it wrote has been read).
func (p *proc) waitStderr(timeout time.Duration, texts ...string) {
	p.t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for _, s := range texts {
		for {
			found, wrote := p.stderr.contains(s)
			if found {
				break
			}
			select {
			case <-wrote:
			case <-p.done:
				if found, _ := p.stderr.contains(s); !found {
					p.t.Fatalf("stderr lacks %q after exit: %q", s, p.stderr.String())
				}
			case <-deadline.C:
				p.t.Fatalf("stderr lacks %q after %v: %q", s, timeout, p.stderr.String())
			}
		}
	}
}

func (p *proc) waitExit(timeout time.Duration) int {
	p.t.Helper()
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(timeout):
		p.t.Fatalf("still running after %v", timeout)
	}
	return -1
}

// gameSide is one polyproxy playing a game.
type gameSide struct {
	p     *proc
	clock time.Duration
	book  int // book moves played
	eng   int // engine moves played
	// maxBook is the side's BookMaxMoves (0: none); gameBook counts its
	// book moves in the current game.
	maxBook, gameBook int
	// ponderingOn is the move this side ponders on ("": not pondering).
	ponderingOn string
	ponderHits  int
	ponderMiss  int
}

type habits int

const (
	cutechessHabits habits = iota // position to both after every ply, isready before every go, GUI opening without go
	fastchessHabits               // position + go, isready after every bestmove
	// ponderHabits: both sides ponder on their ponder move; a hit is
	// "ponderhit", a miss is "stop", "position" and "go" in one burst
	// without waiting for the stopped search's bestmove (as Arena does).
	ponderHabits
)

// playGame plays one game to its end; every move is checked for legality,
// every book answer against the book, the clocks client-side.
func playGame(t *testing.T, white, black *gameSide, h habits, bookDepth int) string {
	const base, inc = 2000 * time.Millisecond, 20 * time.Millisecond
	white.clock, black.clock = base, base
	white.gameBook, black.gameBook = 0, 0
	bk, err := formats.Open(gnuchessBook)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	checker := book.NewChooser(book.Options{Mode: book.Weighted, ThresholdPerMille: 5}, 1)

	line, _ := board.NewLine("startpos")
	var moves []string
	seen := map[string]int{}
	for _, s := range []*gameSide{white, black} {
		s.p.send("ucinewgame", "isready")
		s.p.until("readyok", 10*time.Second)
	}
	positionCmd := func() string {
		if len(moves) == 0 {
			return "position startpos"
		}
		return "position startpos moves " + strings.Join(moves, " ")
	}
	play := func(m string) {
		bm, err := board.ParseMove(m)
		if err != nil {
			t.Fatalf("after %v: bad move %q: %v", moves, m, err)
		}
		if _, err := line.Play(bm); err != nil {
			t.Fatalf("after %v: illegal move %q: %v", moves, m, err)
		}
		moves = append(moves, m)
	}
	// The GUI's own opening book: two plies played without asking anyone.
	if h == cutechessHabits {
		for _, m := range []string{"e2e4", "e7e5"} {
			play(m)
			for _, s := range []*gameSide{white, black} {
				s.p.send(positionCmd())
			}
		}
	}
	for ply := 0; ; ply++ {
		// notnil/chess referees: the rules the proxy's board is checked against.
		opt, err := chess.FEN(line.Pos.FEN())
		if err != nil {
			t.Fatal(err)
		}
		cp := chess.NewGame(opt).Position()
		if len(cp.ValidMoves()) == 0 {
			if cp.Status() == chess.Checkmate {
				return map[bool]string{true: "0-1", false: "1-0"}[cp.Turn() == chess.White] + " mate: " + strings.Join(moves, " ")
			}
			return "1/2-1/2 stalemate: " + strings.Join(moves, " ")
		}
		fen := strings.Join(strings.Fields(cp.String())[:4], " ")
		seen[fen]++
		switch {
		case seen[fen] >= 3:
			return "1/2-1/2 repetition"
		case cp.HalfMoveClock() >= 100:
			return "1/2-1/2 fifty moves"
		case insufficientMaterial(cp):
			return "1/2-1/2 material"
		case len(moves) >= 400:
			t.Fatalf("game too long: %v", moves)
		}
		mover, other := white, black
		if cp.Turn() == chess.Black {
			mover, other = black, white
		}
		// What the book offers here: an eligible move must be played from it.
		var cands []book.Candidate
		eligible := false
		if line.Pos.FullMove() <= bookDepth && (mover.maxBook == 0 || mover.gameBook < mover.maxBook) {
			cands = checker.Candidates(bk, &line.Pos, nil)
			for _, c := range cands {
				eligible = eligible || c.Eligible
			}
		}
		goCmd := fmt.Sprintf("go wtime %d btime %d winc %d binc %d",
			white.clock.Milliseconds(), black.clock.Milliseconds(), inc.Milliseconds(), inc.Milliseconds())
		start := time.Now()
		switch {
		case h == cutechessHabits:
			other.p.send(positionCmd())
			mover.p.send(positionCmd(), "isready")
			mover.p.until("readyok", 10*time.Second)
			mover.p.send(goCmd)
		case mover.ponderingOn != "" && mover.ponderingOn == moves[len(moves)-1]:
			mover.p.send("ponderhit")
			mover.ponderHits++
		case mover.ponderingOn != "":
			mover.p.send("stop", positionCmd(), goCmd)
			mover.p.until("bestmove", 30*time.Second) // the stopped search's: stale
			mover.ponderMiss++
		default:
			mover.p.send(positionCmd(), goCmd)
		}
		mover.ponderingOn = ""
		out := mover.p.until("bestmove", 30*time.Second)
		mover.clock -= time.Since(start)
		if mover.clock <= 0 {
			t.Fatalf("time loss at ply %d (%v): %v", len(moves)+1, mover.clock, moves)
		}
		mover.clock += inc
		fields := strings.Fields(out[len(out)-1])
		if len(fields) < 2 {
			t.Fatalf("bad bestmove line %q", out[len(out)-1])
		}
		move := fields[1]
		var fromBook string
		for _, l := range out {
			if rest, ok := strings.CutPrefix(l, "info string book move "); ok {
				fromBook = strings.Fields(rest)[0]
			}
		}
		if fromBook != "" {
			if fromBook != move {
				t.Fatalf("book move %s announced, %s played", fromBook, move)
			}
			ok := false
			for _, c := range cands {
				ok = ok || (c.Eligible && c.Move.String() == move)
			}
			if !ok {
				t.Fatalf("book move %s at %s is not an eligible entry of the book: %+v", move, cp, cands)
			}
			mover.book++
			mover.gameBook++
		} else {
			if eligible {
				t.Fatalf("the book had a move at %s but the engine was asked (%q)", cp, out)
			}
			mover.eng++
		}
		play(move)
		if h == fastchessHabits {
			mover.p.send("isready")
			mover.p.until("readyok", 10*time.Second)
		}
		if h == ponderHabits && len(fields) == 4 && fields[2] == "ponder" {
			mover.p.send(positionCmd()+" "+fields[3], fmt.Sprintf("go ponder wtime %d btime %d winc %d binc %d",
				white.clock.Milliseconds(), black.clock.Milliseconds(), inc.Milliseconds(), inc.Milliseconds()))
			mover.ponderingOn = fields[3]
		}
	}
}

// stopPondering ends a search left running when the game ended.
func (s *gameSide) stopPondering() {
	if s.ponderingOn != "" {
		s.p.send("stop")
		s.p.until("bestmove", 30*time.Second)
		s.ponderingOn = ""
	}
}

// endGames checks that nothing follows the last bestmove (every one was
// read) and quits.
func endGames(t *testing.T, sides ...*gameSide) {
	t.Helper()
	for _, s := range sides {
		s.stopPondering()
		s.p.send("isready")
		if rest := s.p.until("readyok", 10*time.Second); len(rest) != 1 {
			t.Fatalf("output after the last bestmove: %q", rest)
		}
		s.p.send("quit")
		if code := s.p.waitExit(5 * time.Second); code != 0 {
			t.Fatalf("exit code %d; stderr %s", code, s.p.stderr.String())
		}
	}
}

func insufficientMaterial(cp *chess.Position) bool {
	minors, others := 0, 0
	for _, pc := range cp.Board().SquareMap() {
		switch pc.Type() {
		case chess.King:
		case chess.Knight, chess.Bishop:
			minors++
		default:
			others++
		}
	}
	return others == 0 && minors <= 1
}

// Complete games through polyproxy on both sides: Stockfish at full
// strength against Stockfish at skill 0, so games end in a mate soon.
func TestGamesAgainstStockfish(t *testing.T) {
	needStockfishAndBook(t)
	if testing.Short() {
		t.Skip("games take a few seconds")
	}
	const depth = 6
	for _, tc := range []struct {
		name   string
		habits habits
	}{{"cutechess", cutechessHabits}, {"fastchess", fastchessHabits}, {"ponder", ponderHabits}} {
		t.Run(tc.name, func(t *testing.T) {
			mk := func(skill int) *gameSide {
				p := startProxy(t, nil, "-noini", "-ec", stockfishPath,
					"-pg", "Book=true", "-pg", "BookFile="+gnuchessBook, "-pg", "BookDepth="+strconv.Itoa(depth),
					"-uci", "Skill Level="+strconv.Itoa(skill), "-uci", "Threads=1", "-uci", "Hash=16",
					// CI runs every package's tests at once on two cores: the
					// engine needs a margin for the pipes and a busy machine,
					// as tournament operators give it.
					"-uci", "Move Overhead=150")
				p.send("uci")
				lines := p.until("uciok", 10*time.Second)
				if lines[0] != "id name Stockfish 15.1 (polyproxy)" && !strings.HasSuffix(lines[0], "(polyproxy)") {
					t.Fatalf("first line %q", lines[0])
				}
				return &gameSide{p: p}
			}
			white, black := mk(20), mk(0)
			if tc.habits == fastchessHabits {
				white, black = mk(0), mk(20)
			}
			result := playGame(t, white, black, tc.habits, depth)
			t.Logf("%s: %s; book moves %d+%d, engine moves %d+%d, ponder hits %d+%d, misses %d+%d", tc.name, result,
				white.book, black.book, white.eng, black.eng, white.ponderHits, black.ponderHits, white.ponderMiss, black.ponderMiss)
			if white.book+black.book == 0 || white.eng+black.eng == 0 {
				t.Fatalf("want book moves and engine moves: book %d+%d engine %d+%d", white.book, black.book, white.eng, black.eng)
			}
			if tc.habits == ponderHabits && white.ponderHits+black.ponderHits+white.ponderMiss+black.ponderMiss == 0 {
				t.Fatal("no pondering happened")
			}
			endGames(t, white, black)
		})
	}
}

// The real binary's first answers: no banner before the id, readyok before
// the book's bestmove when the GUI sends isready, position and go in one
// burst, and the book answer with its score line and ponder move (PolyGlot
// has none of these).
func TestBookAnswerFormat(t *testing.T) {
	needStockfishAndBook(t)
	p := startProxy(t, nil, "-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile="+gnuchessBook, "-pg", "BookRandom=false")
	p.send("uci", "isready", "position startpos", "go wtime 1000 btime 1000")
	first := p.next(10 * time.Second)
	if first != "id name Stockfish 15.1 (polyproxy)" && !strings.HasSuffix(first, "(polyproxy)") {
		t.Fatalf("first line %q: nothing may come before the id", first)
	}
	p.until("uciok", 10*time.Second)
	got := p.until("bestmove", 10*time.Second)
	want := []string{
		"readyok",
		"info string book move e2e4 (weight 12135, chance 100.0%, share 39.4%, book.bin)",
		"info depth 1 score cp 0 time 0 nodes 0 pv e2e4",
	}
	var rest []string
	for _, l := range got {
		if !strings.HasPrefix(l, "info string NNUE") {
			rest = append(rest, l)
		}
	}
	if len(rest) != 4 || rest[0] != want[0] || rest[1] != want[1] || rest[2] != want[2] || !strings.HasPrefix(rest[3], "bestmove e2e4 ponder ") {
		t.Fatalf("got %q", got)
	}
	p.send("quit")
	if code := p.waitExit(5 * time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// A real engine process that crashes mid-game: restarted, the pending go
// is answered, and a second crash within a minute ends polyproxy.
func TestEngineCrashRestart(t *testing.T) {
	fake := testenv.FakeEngine(t)
	p := startProxy(t, []string{"FAKEENGINE_CRASH_ON_GO=2"}, "-noini", "-ec", fake)
	p.send("uci", "ucinewgame", "position startpos", "go wtime 1000 btime 1000")
	p.until("bestmove", 10*time.Second)
	p.send("position startpos moves e2e4 e7e5", "go wtime 1000 btime 1000")
	got := p.until("bestmove", 10*time.Second)
	died := false
	for _, l := range got {
		died = died || strings.HasPrefix(l, "info string the engine died")
	}
	if !died {
		t.Fatalf("no info string about the crash: %q", got)
	}
	p.waitStderr(10*time.Second, "the engine died")
	// The new engine counts gos from its start: its second go crashes too.
	p.send("position startpos moves e2e4 e7e5 g1f3 b8c6", "go wtime 1000 btime 1000")
	if code := p.waitExit(10 * time.Second); code == 0 {
		t.Fatal("exit code 0 after a second crash")
	}
	if !strings.Contains(p.stderr.String(), "died again") {
		t.Fatalf("stderr %q", p.stderr.String())
	}
}

// Tests that polyproxy answers scripts, analysis tools and odd input as
// Stockfish alone does: the same input is piped into Stockfish and into
// polyproxy in front of it, and what follows uciok is compared.

// runPiped runs name with input as its whole standard input (then the end
// of input) and returns its output lines and exit code.
func runPiped(t *testing.T, input string, name string, args ...string) ([]string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdin = strings.NewReader(input)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%s still running after 20 s on %q; output %q, stderr %q", name, input, out.String(), stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	return lines, cmd.ProcessState.ExitCode()
}

// answers is what follows uciok: without info lines (a search's differ
// from run to run), and with each bestmove's move dropped unless
// keepMoves.
func answers(lines []string, keepMoves bool) []string {
	i := slices.Index(lines, "uciok")
	var out []string
	for _, l := range lines[i+1:] {
		switch {
		case strings.HasPrefix(l, "info"):
		case strings.HasPrefix(l, "bestmove") && !keepMoves:
			out = append(out, "bestmove")
		default:
			out = append(out, l)
		}
	}
	return out
}

// The shell pipelines a user tries first, and the commands of their own
// (perft, d, eval, bench, a typo): polyproxy (no book) answers as
// Stockfish alone, also at quit and at the end of input, also to a last
// line without its newline.
func TestPipedLikeStockfishAlone(t *testing.T) {
	sf := testenv.Stockfish(t)
	bin := testenv.Polyproxy(t)
	for _, tc := range []struct {
		name      string
		input     string
		keepMoves bool // the answers are deterministic
	}{
		// A user's first pipelines, with searches long enough that only the
		// quit ends them, however busy the machine.
		{"search, isready, quit", "uci\nisready\nposition startpos moves e2e4\ngo movetime 5000\nisready\nquit\n", false},
		{"search, isready, end of input", "uci\nisready\nposition startpos moves e2e4\ngo movetime 5000\nisready\n", false},
		{"movetime, quit", "uci\nposition startpos moves a2a3 a7a6 h2h3\ngo movetime 5000\nquit\n", false},
		{"go infinite, stop, quit", "uci\nposition startpos moves a2a3 a7a6 h2h3\ngo infinite\nstop\nquit\n", false},
		{"isready, quit", "uci\nisready\nquit\n", true},
		{"last line without newline", "uci\nisready", true},
		{"go perft", "uci\nposition startpos\ngo perft 2\nquit\n", true},
		{"d", "uci\nposition startpos moves e2e4\nd\nquit\n", true},
		{"eval", "uci\nposition startpos moves e2e4 e7e5\neval\n", true},
		{"unknown commands", "uci\nxyzzy\nhelp me\nquit\n", true},
		{"bench", "uci\nbench 16 1 1\nquit\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			alone, code := runPiped(t, tc.input, sf)
			if code != 0 {
				t.Fatalf("Stockfish alone: exit %d", code)
			}
			proxied, code := runPiped(t, tc.input, bin, "-noini", "-ec", sf)
			if code != 0 {
				t.Fatalf("polyproxy: exit %d", code)
			}
			want, got := answers(alone, tc.keepMoves), answers(proxied, tc.keepMoves)
			if !slices.Equal(got, want) {
				t.Fatalf("polyproxy answered\n%q\nStockfish alone\n%q", got, want)
			}
			if len(want) == 0 {
				t.Fatal("nothing to compare")
			}
		})
	}
}

// With the book, the same pipelines get every answer, the book's bestmove
// among them, and the position Stockfish crashes on is played.
func TestPipedWithBook(t *testing.T) {
	needStockfishAndBook(t)
	bin := testenv.Polyproxy(t)
	args := []string{"-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile=" + gnuchessBook}
	for _, tc := range []struct {
		name, input string
		want        []string
	}{
		{"book answer, quit", "uci\nisready\nposition startpos moves e2e4\ngo movetime 100\nisready\nquit\n",
			[]string{"readyok", "bestmove", "readyok"}},
		{"book answer, end of input", "uci\nisready\nposition startpos moves e2e4\ngo movetime 100\nisready",
			[]string{"readyok", "bestmove", "readyok"}},
		{"out of book, quit", "uci\nposition startpos moves a2a3 a7a6 h2h3\ngo movetime 300\nquit\n", []string{"bestmove"}},
		// Castling rights without the rooks: Stockfish alone crashes.
		{"castling rights without rooks", "uci\nposition fen 4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1\ngo depth 5\n", []string{"bestmove"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines, code := runPiped(t, tc.input, bin, args...)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			if got := answers(lines, false); !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q (all: %q)", got, tc.want, lines)
			}
			if slices.Contains(lines, "bestmove 0000") {
				t.Fatalf("got %q", lines)
			}
		})
	}
}

// FENs that Stockfish and python-chess accept are played through
// polyproxy (none answered bestmove 0000), and none kills Stockfish.
func TestLenientFENsWithStockfish(t *testing.T) {
	testenv.Stockfish(t)
	p := startProxy(t, nil, "-noini", "-ec", stockfishPath)
	p.send("uci")
	p.until("uciok", 10*time.Second)
	for _, fen := range []string{
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0",           // 5 fields
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 0",          // move number 0
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - - -",          // counters as "-"
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 extra",    // 7 fields
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - -1 1",         // a negative counter
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1",          // Shredder letters
		"4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1",                                  // rights without rooks
		"r3k2r/8/8/8/8/8/8/4K3 b KQkq - 0 1",                                  // and for Black
		"rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1",         // e.p. square no pawn can take
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4", // with moves
	} {
		p.send("position fen "+fen, "go depth 4")
		got := p.until("bestmove", 10*time.Second)
		if got[len(got)-1] == "bestmove 0000" || strings.Contains(strings.Join(got, "\n"), "engine died") {
			t.Fatalf("%s: got %q", fen, got)
		}
	}
	// After exit all the proxy wrote to stderr has been read: a death
	// reported just before the last answer is not missed.
	p.send("quit")
	if code := p.waitExit(10 * time.Second); code != 0 {
		t.Fatalf("exit code %d; stderr %q", code, p.stderr.String())
	}
	if s := p.stderr.String(); strings.Contains(s, "died") {
		t.Fatalf("stderr %q", s)
	}
}

// Four positions and go depth N in one write (a batch-analysis script):
// each search runs to its depth, as with Stockfish alone, none is cut
// short; the moves are Stockfish's own.
func TestDepthBurstLikeStockfishAlone(t *testing.T) {
	testenv.Stockfish(t)
	depth := 16
	if testing.Short() {
		depth = 10
	}
	var burst []string
	for _, fen := range []string{
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
		"rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
		"r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
		"8/5k2/8/3K4/8/8/5P2/8 w - - 0 1",
	} {
		burst = append(burst, "position fen "+fen, fmt.Sprintf("go depth %d", depth))
	}
	run := func(p *proc) (depths []string, moves []string) {
		p.send("uci")
		p.until("uciok", 10*time.Second)
		p.send("setoption name Threads value 1", "setoption name Hash value 16", "isready")
		p.until("readyok", 10*time.Second)
		p.send(burst...)
		for range 4 {
			got := p.until("bestmove", 60*time.Second)
			last := ""
			for _, l := range got {
				if f := strings.Fields(l); len(f) > 2 && f[0] == "info" && f[1] == "depth" {
					last = f[2]
				}
			}
			depths = append(depths, last)
			moves = append(moves, strings.Fields(got[len(got)-1])[1])
		}
		return depths, moves
	}
	aloneDepths, aloneMoves := run(startProc(t, nil, stockfishPath))
	depths, moves := run(startProxy(t, nil, "-noini", "-ec", stockfishPath))
	want := strings.Repeat(fmt.Sprint(depth)+" ", 4)
	if strings.Join(depths, " ")+" " != want || strings.Join(aloneDepths, " ")+" " != want {
		t.Fatalf("depths: polyproxy %q, Stockfish alone %q", depths, aloneDepths)
	}
	if !slices.Equal(moves, aloneMoves) {
		t.Fatalf("moves: polyproxy %q, Stockfish alone %q", moves, aloneMoves)
	}
}

// python-chess's analyse, by hand (python-chess itself is not installed
// here): it sets UCI_AnalyseMode, starts a new game, waits for readyok,
// and searches to a depth. The book must not answer: the GUI gets
// Stockfish's analysis to that depth. Its play then clears
// UCI_AnalyseMode, and the book answers again.
func TestPythonChessAnalyse(t *testing.T) {
	needStockfishAndBook(t)
	p := startProxy(t, nil, "-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile="+gnuchessBook)
	p.send("uci")
	p.until("uciok", 10*time.Second)
	p.send("setoption name UCI_AnalyseMode value true", "setoption name MultiPV value 1", "ucinewgame", "isready")
	p.until("readyok", 10*time.Second)
	p.send("position startpos", "go depth 8")
	got := p.until("bestmove", 20*time.Second)
	deepest := ""
	for _, l := range got {
		if strings.HasPrefix(l, "info string book") {
			t.Fatalf("the book answered an analysis: %q", got)
		}
		if strings.HasPrefix(l, "info depth 8 ") {
			deepest = l
		}
	}
	if deepest == "" || !strings.Contains(deepest, " score ") {
		t.Fatalf("no depth-8 analysis: %q", got)
	}
	p.send("setoption name UCI_AnalyseMode value false", "position startpos", "go movetime 100")
	if got := p.until("bestmove", 10*time.Second); !strings.HasPrefix(got[0], "info string book move") {
		t.Fatalf("book not back for play: %q", got)
	}
}

// An [Engine]/-uci value outside the option's range is clamped, said on
// stderr, and never announced as a default outside min..max.
func TestOutOfRangeEngineOption(t *testing.T) {
	testenv.Stockfish(t)
	lines, code := runPiped(t, "uci\nquit\n", testenv.Polyproxy(t), "-noini", "-ec", stockfishPath, "-uci", "Threads=0", "-uci", "Hash=99999999999")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"option name Threads type spin default 1 min 1 max 1024",
		"option name Hash type spin default 33554432 min 1 max 33554432",
		"info string [Engine] option Threads: 0 is below the option's minimum: 1 sent",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("no %q in %q", want, lines)
		}
	}
}

// A quit while the engine's handshake is slow ends everything within a
// second when nothing before it needs the engine.
func TestQuitDuringSlowHandshakeIsQuick(t *testing.T) {
	fake := testenv.FakeEngine(t)
	p := startProxy(t, []string{"FAKEENGINE_START_MS=3000"}, "-noini", "-ec", fake)
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	p.send("quit")
	if code := p.waitExit(5 * time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("quit took %v", d)
	}
}

// The scripts a user runs from the repository.

// uciLine matches what an engine may print in reply to uci, isready and go.
var uciLine = regexp.MustCompile(`^(id (name|author) .+|option name .+|uciok|readyok|info .*|bestmove \S+( ponder \S+)?)$`)

// scripts/run.sh is documented as a working engine command: on the Debian
// default it must speak UCI on stdout and nothing else, and play a book move.
func TestRunScriptSpeaksOnlyUCI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds polyproxy; skipped with -short")
	}
	testenv.Stockfish(t)
	testenv.GnuchessBook(t)
	p := startCmd(t, exec.Command("./scripts/run.sh"))
	p.send("uci", "isready", "position startpos", "go wtime 1000 btime 1000")
	var got []string
	timeout := time.After(2 * time.Minute)
read:
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("stdout closed before bestmove; got %q\nstderr:\n%s", got, p.stderr.String())
			}
			got = append(got, l)
			if !uciLine.MatchString(l) {
				t.Errorf("not a UCI line on stdout: %q", l)
			}
			if strings.HasPrefix(l, "bestmove") {
				break read
			}
		case <-timeout:
			t.Fatalf("no bestmove within 2 minutes; got %q\nstderr:\n%s", got, p.stderr.String())
		}
	}
	p.send("quit")
	p.in.Close()
	for l := range p.lines {
		t.Errorf("stdout after quit: %q", l)
	}
	if code := p.waitExit(10 * time.Second); code != 0 {
		t.Errorf("exit %d\nstderr:\n%s", code, p.stderr.String())
	}
	out := strings.Join(got, "\n")
	if !strings.Contains(out, "\nuciok\n") || !strings.Contains(out, "\nreadyok\n") || !strings.Contains(out, "info string book move") {
		t.Errorf("stdout lacks the handshake or a book move:\n%s\nstderr:\n%s", out, p.stderr.String())
	}
}

// timeToUCIOK starts name and measures until it says uciok.
func timeToUCIOK(b *testing.B, name string, args ...string) time.Duration {
	cmd := exec.Command(name, args...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	io.WriteString(in, "uci\n")
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if sc.Text() == "uciok" {
			break
		}
	}
	d := time.Since(start)
	io.WriteString(in, "quit\n")
	in.Close()
	io.Copy(io.Discard, out)
	cmd.Wait()
	return d
}

// BenchmarkStartupEngineAlone and BenchmarkStartupProxy: start-up to uciok
// (target: the proxy under 10 ms more than the engine alone).
func BenchmarkStartupEngineAlone(b *testing.B) {
	needStockfishAndBook(b)
	for i := 0; i < b.N; i++ {
		timeToUCIOK(b, stockfishPath)
	}
}

func BenchmarkStartupProxy(b *testing.B) {
	needStockfishAndBook(b)
	bin := testenv.Polyproxy(b)
	for i := 0; i < b.N; i++ {
		timeToUCIOK(b, bin, "-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile="+gnuchessBook)
	}
}

// benchClient starts name (with env added) as a GUI does: the benchmark
// writes to in and reads r; the process ends with the benchmark.
func benchClient(b *testing.B, env []string, name string, args ...string) (in io.WriteCloser, r *bufio.Reader) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	in, _ = cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.Close(); io.Copy(io.Discard, out); cmd.Wait() })
	return in, bufio.NewReaderSize(out, 64<<10)
}

// floodThroughput runs the fake engine's flood of n info lines behind
// "wrap" (the proxy, cat, or nothing) and returns lines per second as the
// GUI reads them.
func floodThroughput(b *testing.B, n int, env []string, name string, args ...string) {
	in, r := benchClient(b, env, name, args...)
	readUntil := func(prefix string) int {
		lines := 0
		for {
			l, err := r.ReadSlice('\n')
			if err != nil && err != bufio.ErrBufferFull {
				b.Fatal(err)
			}
			lines++
			if bytes.HasPrefix(l, []byte(prefix)) {
				return lines
			}
		}
	}
	io.WriteString(in, "uci\n")
	readUntil("uciok")
	io.WriteString(in, "setoption name Flood value "+strconv.Itoa(n)+"\nisready\n")
	readUntil("readyok")
	b.ResetTimer()
	total := 0
	for i := 0; i < b.N; i++ {
		io.WriteString(in, "position startpos\ngo movetime 1\n")
		total += readUntil("bestmove")
	}
	b.StopTimer()
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "lines/s")
	io.WriteString(in, "quit\n")
}

// BenchmarkFlood*: 100,000 info lines from the engine to the GUI, directly,
// through cat, and through polyproxy (target: polyproxy >= 80% of cat).
// The engine writes each line with its own write (Flushed) or in one
// buffer (Buffered, which stresses the relay).
func BenchmarkFlood(b *testing.B) {
	fake := testenv.FakeEngine(b)
	bin := testenv.Polyproxy(b)
	for _, mode := range []struct {
		name string
		env  []string
	}{{"Flushed", nil}, {"Buffered", []string{"FAKEENGINE_FLOOD_BUFFERED=1"}}} {
		b.Run(mode.name+"/engine", func(b *testing.B) { floodThroughput(b, 100000, mode.env, fake) })
		b.Run(mode.name+"/cat", func(b *testing.B) { floodThroughput(b, 100000, mode.env, "sh", "-c", fake+" | cat") })
		b.Run(mode.name+"/polyproxy", func(b *testing.B) { floodThroughput(b, 100000, mode.env, bin, "-noini", "-ec", fake) })
	}
}

// bookRoundTrip measures, from a client, "position" (9 plies) + "go" to
// "bestmove" through a pipe: the figure PolyGlot is known for (~0.06 ms).
func bookRoundTrip(b *testing.B, name string, args ...string) {
	in, r := benchClient(b, nil, name, args...)
	readUntil := func(prefix string) string {
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				b.Fatal(err)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
	}
	io.WriteString(in, "uci\n")
	readUntil("uciok")
	io.WriteString(in, "isready\n")
	readUntil("readyok")
	pos := "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1\ngo wtime 60000 btime 60000\n"
	io.WriteString(in, pos)
	if l := readUntil("bestmove"); !strings.HasPrefix(l, "bestmove") {
		b.Fatal(l)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		io.WriteString(in, pos)
		readUntil("bestmove")
	}
	b.StopTimer()
	io.WriteString(in, "quit\n")
}

func BenchmarkBookRoundTripProxy(b *testing.B) {
	needStockfishAndBook(b)
	bookRoundTrip(b, testenv.Polyproxy(b), "-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile="+gnuchessBook)
}

func BenchmarkBookRoundTripPolyGlot(b *testing.B) {
	needStockfishAndBook(b)
	if _, err := os.Stat("/usr/games/polyglot"); err != nil {
		b.Skip("PolyGlot not installed")
	}
	bookRoundTrip(b, testenv.PolyGlot(b), "-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile="+gnuchessBook)
}

// The same with the fake engine, whose own start-up is a few milliseconds:
// what polyproxy itself adds shows plainly.
func BenchmarkStartupFake(b *testing.B) {
	fake := testenv.FakeEngine(b)
	bin := testenv.Polyproxy(b)
	b.Run("engine", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			timeToUCIOK(b, fake)
		}
	})
	b.Run("polyproxy", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			timeToUCIOK(b, bin, "-noini", "-ec", fake, "-pg", "Book=true", "-pg", "BookFile="+gnuchessBook)
		}
	})
}
