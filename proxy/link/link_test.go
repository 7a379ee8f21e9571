package link

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/logfile"
	"github.com/polyproxy/polyproxy/uci"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// dial is a conversation with an in-process fake engine, past its
// handshake.
func dial(t *testing.T, s ucitest.Settings) (*Talk, *ucitest.Engine) {
	t.Helper()
	e := ucitest.Start(s)
	t.Cleanup(func() { e.Quit(time.Second) })
	talk, err := Dial(e, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return talk, e
}

// The handshake keeps what the engine announced: its name, its other id
// lines and its options, in its order, each option with the configured
// value as its default once Configure has sent it, fitted to its range.
func TestHandshakeAndConfigure(t *testing.T) {
	talk, e := dial(t, ucitest.Settings{Name: "Fake 1", Options: []string{
		"option name Hash type spin default 16 min 1 max 1024",
		"option name UCI_Chess960 type check default false",
		"option name broken",
	}})
	if talk.Name() != "Fake 1" || talk.Handshaking() || !talk.EverReady() {
		t.Fatalf("name %q, handshaking %v, ever ready %v", talk.Name(), talk.Handshaking(), talk.EverReady())
	}
	notices, err := talk.Configure([]config.Option{{Name: "hash", Value: "4096"}, {Name: "UCI_Chess960", Value: "1"}, {Name: "Threads", Value: "2"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"[Engine] option Hash: 4096 is above the option's maximum: 1024 sent",
		`[Engine] option "Threads" is not an option of the engine: not sent`,
	}
	if !slices.Equal(notices, want) {
		t.Errorf("notices %q, want %q", notices, want)
	}
	if !talk.Modes().Chess960 {
		t.Error("UCI_Chess960 set through the configuration is not followed")
	}
	var options []string
	for _, h := range talk.Header() {
		if h.IsOption {
			options = append(options, h.Line)
		}
	}
	wantOptions := []string{"option name Hash type spin default 1024 min 1 max 1024", "option name UCI_Chess960 type check default true", "option name broken"}
	if !slices.Equal(options, wantOptions) {
		t.Errorf("options shown %q, want %q", options, wantOptions)
	}
	if err := talk.Send("isready"); err != nil {
		t.Fatal(err)
	}
	if err := talk.Await(uci.EngineReadyOK, 5*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	got := e.Received()
	for _, line := range []string{"uci", "setoption name Hash value 1024", "setoption name UCI_Chess960 value true"} {
		if !slices.Contains(got, line) {
			t.Errorf("the engine never got %q: %q", line, got)
		}
	}
}

// The GUI's options are kept for a restarted engine, the latest value of
// each, and buttons are not pressed again.
func TestResumeGivesTheGUIsOptions(t *testing.T) {
	talk, e := dial(t, ucitest.Settings{Options: []string{"option name Clear Hash type button", "option name Style type combo default Normal var Solid var Normal"}})
	for _, o := range []uci.SetOption{
		{Name: "Style", Value: "Solid", HasValue: true},
		{Name: "Clear Hash"},
		{Name: "style", Value: "Normal", HasValue: true},
		{Name: "Unknown"},
	} {
		if err := talk.SetOption(o); err != nil {
			t.Fatal(err)
		}
	}
	e2 := ucitest.Start(ucitest.Settings{})
	t.Cleanup(func() { e2.Quit(time.Second) })
	if err := talk.Start(e2); err != nil {
		t.Fatal(err)
	}
	talk.HandshakeDone()
	if err := talk.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := talk.Send("isready"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !slices.Contains(e2.Received(), "isready") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	want := []string{"uci", "setoption name style value Normal", "ucinewgame", "isready"}
	if got := e2.Received(); !slices.Equal(got, want) {
		t.Errorf("the restarted engine got %q, want %q", got, want)
	}
	if got := e.Received(); !slices.Contains(got, "setoption name Clear Hash") {
		t.Errorf("the first engine never got its button: %q", got)
	}
}

// The death judge: restart at the first death, give up at a second
// within a minute, at a death before the first handshake, and after
// MaxPoisons positions that killed the engine twice; a death in a warm
// search is never counted.
func TestJudge(t *testing.T) {
	l := New(&logfile.Log{})
	if got := l.Judge(false); got != InHandshake {
		t.Fatalf("before any handshake: %v", got)
	}
	l.everReady = true
	if got := l.Judge(false); got != Restart {
		t.Fatalf("first death: %v", got)
	}
	if got := l.Judge(false); got != Again {
		t.Fatalf("second death within a minute: %v", got)
	}
	l.lastDeath = time.Now().Add(-2 * RestartWindow)
	if got := l.Judge(false); got != Restart {
		t.Fatalf("a death long after the last: %v", got)
	}
	for i := range MaxPoisons {
		want := Poison
		if i == MaxPoisons-1 {
			want = TooOften
		}
		if got := l.Judge(true); got != want {
			t.Fatalf("death %d in a search issued again: %v, want %v", i+1, got, want)
		}
	}
	l.warm.owed, l.warm.line = 1, "position startpos moves e2e4"
	if got := l.Judge(false); got != InWarmSearch || !l.DiedWarm() {
		t.Fatalf("death in a warm search: %v (died warm %v)", got, l.DiedWarm())
	}
	if msg := l.WarmDeath("exit status 3"); !strings.Contains(msg, "position startpos moves e2e4") {
		t.Fatalf("warm death says %q", msg)
	}
	l.handshaking = true
	l.warm.owed = 0
	if got := l.Judge(false); got != Again {
		t.Fatalf("a restarted engine dying in its handshake: %v", got)
	}
}

// A warm search ends before any line but isready goes to the engine, and
// its bestmove is swallowed; a position whose warm search killed the
// engine is not searched in the background again.
func TestWarmSearch(t *testing.T) {
	talk, e := dial(t, ucitest.Settings{BestMove: "e7e5"})
	if err := talk.StartWarm("position startpos moves e2e4", "a test", false); err != nil {
		t.Fatal(err)
	}
	if running, always := talk.Warm(); !running || always || !talk.InWarm() {
		t.Fatalf("warm search running %v, always %v, owed %v", running, always, talk.InWarm())
	}
	talk.Send("isready")
	if running, _ := talk.Warm(); !running {
		t.Fatal("isready stopped the warm search")
	}
	talk.Send("position startpos")
	if running, _ := talk.Warm(); running {
		t.Fatal("a position line went to the engine during the warm search")
	}
	if err := talk.Await(uci.EngineBestMove, 5*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	if !talk.SwallowBestmove() || talk.InWarm() || talk.SwallowBestmove() {
		t.Fatal("the warm search's bestmove is not the one swallowed")
	}
	want := []string{"position startpos moves e2e4", "go infinite", "isready", "stop", "position startpos"}
	if got := e.Received(); !slices.Equal(got[len(got)-len(want):], want) {
		t.Errorf("the engine got %q, want it to end with %q", got, want)
	}
	talk.warm.killers = []string{"position startpos moves d2d4"}
	talk.StartWarm("position startpos moves d2d4", "a test", true)
	if running, _ := talk.Warm(); running {
		t.Fatal("a position that killed the engine in a warm search was searched again")
	}
}

// The stall's message names the write timeout the pipe really has.
func TestStalledNamesTheWriteTimeout(t *testing.T) {
	if !strings.Contains(ErrStalled.Error(), " "+uci.WriteTimeout.String()+":") {
		t.Fatalf("ErrStalled says %q; the write timeout is %v", ErrStalled, uci.WriteTimeout)
	}
}
