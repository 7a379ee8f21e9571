package ucitest

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// session drives an in-process engine line by line.
type session struct {
	t     *testing.T
	e     *Engine
	lines chan string
}

func start(t *testing.T, s Settings) *session {
	t.Helper()
	e := Start(s)
	t.Cleanup(e.Kill)
	ss := &session{t: t, e: e, lines: make(chan string, 1024)}
	go func() {
		sc := bufio.NewScanner(e.Stdout())
		for sc.Scan() {
			ss.lines <- sc.Text()
		}
		close(ss.lines)
	}()
	return ss
}

func (s *session) send(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		if err := s.e.WriteLine(l); err != nil {
			s.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// until reads lines up to and including the first one starting with prefix.
func (s *session) until(prefix string) []string {
	s.t.Helper()
	return untilLine(s.t, s.lines, prefix, 5*time.Second)
}

// untilLine reads lines up to and including the first one starting with
// prefix, failing the test when they end or time runs out first: the one
// wait of the in-process sessions and the program's.
func untilLine(t testing.TB, lines <-chan string, prefix string, timeout time.Duration) []string {
	t.Helper()
	var got []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("output closed before %q; got %q", prefix, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, prefix) {
				return got
			}
		case <-deadline:
			t.Fatalf("no %q within %v; got %q", prefix, timeout, got)
		}
	}
}

// quiet asserts nothing comes for d.
func (s *session) quiet(d time.Duration) {
	s.t.Helper()
	select {
	case l := <-s.lines:
		s.t.Fatalf("unexpected %q", l)
	case <-time.After(d):
	}
}

// exited waits for the engine's end and returns how it ended.
func (s *session) exited() error {
	s.t.Helper()
	select {
	case <-s.e.Exited():
		return s.e.ExitErr()
	case <-time.After(5 * time.Second):
		s.t.Fatal("still running")
	}
	return nil
}

func TestHandshakeAndSearch(t *testing.T) {
	s := start(t, Settings{Greeting: []string{"Fake by testers"}, Score: 21})
	s.send("uci")
	got := s.until("uciok")
	want := append([]string{"Fake by testers", "id name " + DefaultName, "id author " + DefaultAuthor}, DefaultOptions...)
	if !slices.Equal(got, append(want, "uciok")) {
		t.Fatalf("got %q", got)
	}
	// The game is followed: after 1.e4 the first legal move in UCI order.
	s.send("isready", "position startpos moves e2e4", "go wtime 100")
	if got := s.until("bestmove"); !slices.Equal(got, []string{"readyok", "info depth 1 score cp 21 nodes 1 time 0 pv a7a5", "bestmove a7a5"}) {
		t.Fatalf("got %q", got)
	}
	s.send("position fen bad", "position startpos moves e2e5")
	if got := s.until("info string illegal"); !slices.Equal(got, []string{"info string bad fen bad", "info string illegal move e2e5"}) {
		t.Fatalf("got %q", got)
	}
	s.send("go perft 1", "isready")
	if got := s.until("readyok"); !slices.Equal(got, []string{"a1a3: 1", "", "Nodes searched: 20", "", "readyok"}) {
		t.Fatalf("perft: %q", got)
	}
	s.send("quit")
	if err := s.exited(); err != nil {
		t.Fatalf("quit: %v", err)
	}
	if err := s.e.WriteLine("isready"); err == nil {
		t.Fatal("a write to an ended engine succeeded")
	}
	if got := s.e.Received(); !slices.Equal(got, []string{"uci", "isready", "position startpos moves e2e4", "go wtime 100",
		"position fen bad", "position startpos moves e2e5", "go perft 1", "isready", "quit"}) {
		t.Fatalf("received %q", got)
	}
}

func TestSearchesEndAndMisuse(t *testing.T) {
	s := start(t, Settings{BestMove: "a7a6", NoInfo: true})
	s.send("position startpos", "go infinite")
	s.quiet(20 * time.Millisecond) // waits for stop, says nothing meanwhile
	s.send("isready")
	s.until("readyok")
	s.send("stop")
	if got := s.until("bestmove"); !slices.Equal(got, []string{"bestmove a7a6"}) {
		t.Fatalf("got %q", got)
	}
	// A go during a search: misuse; the search ends first, then the new one.
	s.send("go ponder", "go infinite")
	s.until("bestmove")
	s.send("ponderhit", "go ponder", "position startpos moves e2e4", "go ponder", "ucinewgame")
	for range 3 {
		s.until("bestmove")
	}
	if got := s.e.Misused(); !slices.Equal(got, []string{"go infinite"}) {
		t.Fatalf("misused %q", got)
	}
}

func TestHungEngine(t *testing.T) {
	s := start(t, Settings{BestMove: "a7a6", IgnoreStop: true, IgnorePonderHit: true})
	s.send("go ponder", "ponderhit", "stop", "position startpos", "go")
	s.quiet(30 * time.Millisecond)
	if got := s.e.Misused(); !slices.Equal(got, []string{"go"}) {
		t.Fatalf("misused %q", got)
	}
	s.e.Kill()
	if err := s.exited(); err == nil || err.Error() != "killed" {
		t.Fatalf("killed: %v", err)
	}
	if _, ok := <-s.lines; ok {
		t.Fatal("said something after its end")
	}
}

// Killed during a search, it says nothing more, as a killed process.
func TestKilledDuringSearch(t *testing.T) {
	for range 200 {
		s := start(t, Settings{})
		s.send("go infinite", "isready")
		s.until("readyok") // the search runs
		s.e.Kill()
		if l, ok := <-s.lines; ok {
			t.Fatalf("said %q after being killed", l)
		}
	}
}

func TestDelaysMuteAndSay(t *testing.T) {
	s := start(t, Settings{StartDelay: 50 * time.Millisecond, ReadyDelay: time.Hour})
	t0 := time.Now()
	s.send("uci")
	s.until("uciok")
	if d := time.Since(t0); d < 50*time.Millisecond {
		t.Errorf("uciok after %v", d)
	}
	s.send("isready")
	s.quiet(30 * time.Millisecond)
	s.e.Say("info string said", "bestmove h2h4")
	if got := s.until("bestmove"); !slices.Equal(got, []string{"info string said", "bestmove h2h4"}) {
		t.Fatalf("got %q", got)
	}
	// Quit while it sleeps: killed after the grace.
	t0 = time.Now()
	s.e.Quit(20 * time.Millisecond)
	if err := s.exited(); err == nil || time.Since(t0) > time.Second {
		t.Fatalf("quit: %v after %v", err, time.Since(t0))
	}

	m := start(t, Settings{Mute: true})
	m.send("uci")
	m.quiet(30 * time.Millisecond)
}

func TestCrashesAndExits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		s     Settings
		lines []string
		want  string // ExitErr; "" for nil
	}{
		{"crash on second go", Settings{CrashOnGo: 2}, []string{"go", "go"}, "exit status 3"},
		{"crash on go set at run time", Settings{}, []string{"setoption name CrashOnGo value 1", "go"}, "exit status 3"},
		{"crash in a position", Settings{CrashIn: "R3K2R w KQkq"},
			[]string{"position startpos", "go", "position fen 4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "isready", "go"}, "exit status 3"},
		{"crash option", Settings{}, []string{"setoption name Crash"}, "exit status 3"},
		{"crash command", Settings{}, []string{"crash"}, "exit status 3"},
		{"exit on", Settings{ExitOn: "isready"}, []string{"isready"}, ""},
		{"quit", Settings{}, []string{"quit"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, tc.s)
			s.send(tc.lines...)
			got := ""
			if err := s.exited(); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Fatalf("ended with %q, want %q", got, tc.want)
			}
		})
	}
	mark := filepath.Join(t.TempDir(), "crashed")
	s := start(t, Settings{CrashOnGo: 1, CrashOnce: mark})
	s.send("go")
	if err := s.exited(); err == nil {
		t.Fatal("first engine did not crash")
	}
	s = start(t, Settings{CrashOnGo: 1, CrashOnce: mark})
	s.send("go")
	s.until("bestmove")
	s = start(t, Settings{IgnoreQuit: true})
	s.send("quit", "isready")
	s.until("readyok")
}

func TestFloodAndOddLines(t *testing.T) {
	s := start(t, Settings{Odd: true, BestMove: "e2e4"})
	s.send("setoption name Flood value 1000", "go")
	got := s.until("bestmove")
	if len(got) != 1005 || !strings.HasPrefix(got[999], "info depth ") ||
		!slices.Equal(got[1000:], []string{"info depth 1 score cp 0 nodes 1 time 0 pv e2e4", "info string 100% sure %d %s", "", " \t  ", "bestmove e2e4"}) {
		t.Fatalf("%d lines, ending %q", len(got), got[max(0, len(got)-5):])
	}
}

// Main's flags, with defaults from the environment.
func TestMainFlagsAndEnvironment(t *testing.T) {
	t.Setenv("FAKEENGINE_FLOOD", "2")
	t.Setenv("FAKEENGINE_NAME", "FromEnv")
	log := filepath.Join(t.TempDir(), "received.log")
	var out, stderr strings.Builder
	in := strings.NewReader("uci\nposition startpos\ngo\nquit\n")
	code := Main([]string{"-options=false", "-bestmove", "g1f3", "-no-info", "-stderr", "-log", log}, in, &out, &stderr)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 6 || lines[0] != "id name FromEnv" || lines[2] != "uciok" || lines[5] != "bestmove g1f3" {
		t.Fatalf("got %q", lines)
	}
	data, err := os.ReadFile(log)
	if err != nil || string(data) != "uci\nposition startpos\ngo\nquit\n" {
		t.Fatalf("log %q, %v", data, err)
	}
	if !strings.Contains(stderr.String(), "fakeengine: got quit") {
		t.Fatalf("stderr %q", stderr.String())
	}
	if code := Main([]string{"-no-such-flag"}, strings.NewReader(""), &out, &stderr); code != 2 {
		t.Fatalf("bad flag: exit %d", code)
	}
	if envName("crash-on-go") != "FAKEENGINE_CRASH_ON_GO" {
		t.Fatal(envName("crash-on-go"))
	}
}

// Ponder names the reply that sorts first, in the info line's pv and the
// bestmove; a mated side has neither.
func TestPonderMove(t *testing.T) {
	s := start(t, Settings{Ponder: true})
	s.send("position startpos", "go depth 1")
	if got := s.until("bestmove"); !slices.Equal(got, []string{"info depth 1 score cp 0 nodes 1 time 0 pv a2a3 a7a5", "bestmove a2a3 ponder a7a5"}) {
		t.Fatalf("got %q", got)
	}
	s.send("position startpos moves f2f3 e7e5 g2g4", "go depth 1")
	if got := s.until("bestmove"); got[len(got)-1] != "bestmove a7a5 ponder a2a3" {
		t.Fatalf("got %q", got)
	}
	s.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "go depth 1")
	if got := s.until("bestmove"); got[len(got)-1] != "bestmove 0000" {
		t.Fatalf("got %q", got)
	}
}
