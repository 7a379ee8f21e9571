package core_test

import (
	"testing"

	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

// The poll loop waits actively only when an answer is due at once: after
// an isready goes to the engine, and after a readyok or bestmove reaches
// the GUI with nothing else owed; never after a go or the engine's info
// lines, when the engine's search needs the CPU.
func TestAnswerDueOnlyForPromptAnswers(t *testing.T) {
	a := proxytest.ByHand(t, proxytest.Config(t, ""), proxytest.Script, nil, nil)
	step := func(what string, want bool, do func()) {
		t.Helper()
		a.Soon()
		do()
		if soon := a.Soon(); soon != want {
			t.Errorf("%s: answer due %v, want %v", what, soon, want)
		}
	}
	gui := func(lines ...string) func() {
		return func() {
			for _, l := range lines {
				a.GUILine(l)
			}
		}
	}
	engine := func(text string) func() { return func() { a.EngineLines([]byte(text)) } }

	step("isready forwarded", true, gui("isready"))
	step("readyok relayed, nothing owed", true, engine("readyok\n"))
	step("position", false, gui("position startpos moves e2e4"))
	step("go", false, gui("go wtime 1000 btime 1000"))
	step("info lines", false, engine("info depth 1 score cp 3 pv e7e5\ninfo depth 2 score cp 5 pv e7e5 g1f3\n"))
	step("isready during the search", true, gui("isready"))
	step("readyok while a bestmove is owed", false, engine("readyok\n"))
	step("bestmove relayed", true, engine("info depth 3 score cp 4 pv e7e5\nbestmove e7e5\n"))
	step("isready and go in one batch", false, gui("isready", "go infinite"))
	step("stop", false, gui("stop"))
	step("readyok, then the stopped search's bestmove", true, engine("readyok\nbestmove e7e5\n"))
	step("no move after a refused position: bestmove 0000 at once", true, gui("position fen xx", "go depth 1"))
}
