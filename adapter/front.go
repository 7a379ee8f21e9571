package adapter

import (
	"strings"

	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/uci"
)

// The adapter is a core and two fronts. The core is protocol-neutral
// underneath its UCI vocabulary: the engine link (link.go, engine.go), the
// reply order (replies.go), searches (search.go), the game followed for the
// book (game.go), the book decision and its policies (book.go, policy.go,
// warm.go) and the learning hooks (the GameObserver). A front speaks the
// GUI's protocol and drives the core:
//
//   - the UCI front (front_uci.go) hands the GUI's UCI commands to the core as
//     they are, and the core's lines go to the GUI unchanged;
//   - the CECP front (front_xboard*.go) keeps CECP's own state (force mode,
//     clocks, sides, pondering, analysis) and its own board, drives the
//     core through the calls below, and turns the core's lines (engine
//     thinking, bestmove, readyok) into CECP.
//
// Which front talks is chosen from the GUI's first command, as PolyGlot
// chooses: "xboard" or "protover" for CECP, anything else for UCI.

// guiOutput is where the core's lines for the GUI go: UCI lines, each
// whole. The UCI front writes them as they are (a *uci.Writer); the CECP
// front translates them.
type guiOutput interface {
	WriteLine(string)
	WriteLineBytes([]byte)
	// WriteLinesRaw takes whole lines, each ending in '\n'.
	WriteLinesRaw([]byte)
	Flush() error
}

// chooseFront picks the GUI's protocol from its first line that says
// anything: true when that is CECP, whose front then handles every line.
func (a *Adapter) chooseFront(line string) bool {
	word, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	if word == "" {
		return false
	}
	a.gui.frontChosen = true
	if word != "xboard" && word != "protover" {
		return false
	}
	a.log.printf("the GUI speaks CECP (xboard): the CECP front translates")
	a.xb = newXboardFront(a, a.gui.out)
	a.gui.out = a.xb
	return true
}

// The core's calls for a front that does not speak UCI. Each is the UCI
// command a UCI GUI would send, handled in its turn like one: the same
// order of replies, book decisions and engine handling for both fronts.

func (a *Adapter) coreCommand(line string) {
	c, err := uci.ParseCommand(line)
	if err != nil {
		a.log.printf("%v", err)
	}
	a.onGUICommandInOrder(c)
}

// coreNewGame starts a new game (ucinewgame).
func (a *Adapter) coreNewGame() { a.coreCommand("ucinewgame") }

// corePosition sets the game: line is the UCI position line a UCI GUI
// would send (positionText keeps it). It takes the UCI front's way: a line
// that extends the game followed costs its new moves only.
func (a *Adapter) corePosition(line string) {
	if a.extendFollowedGame(line) {
		return
	}
	a.coreCommand(line)
}

// positionText is a front's game as a UCI position line, kept up to date
// move by move: building it again from the moves for every search cost a
// move the game's length.
type positionText struct {
	b        []byte
	hasMoves bool // the "moves" word is written
}

// reset starts the line at fen ("": the start position).
func (t *positionText) reset(fen string) {
	t.b = append(t.b[:0], "position "...)
	if fen == "" {
		t.b = append(t.b, startBase...)
	} else {
		t.b = append(append(t.b, "fen "...), fen...)
	}
	t.hasMoves = false
}

// add appends a move (UCI form).
func (t *positionText) add(move string) {
	if !t.hasMoves {
		t.b = append(t.b, " moves"...)
		t.hasMoves = true
	}
	t.b = append(append(t.b, ' '), move...)
}

// line is the position line, with one more move when next is set (the
// reply a ponder search assumes).
func (t *positionText) line(next string) string {
	if next == "" {
		return string(t.b)
	}
	moves := " "
	if !t.hasMoves {
		moves = " moves "
	}
	return string(t.b) + moves + next
}

// coreGo starts a search: goLine is a UCI go line with its limits. Its
// bestmove comes through the GUI's output in its turn, one per go.
func (a *Adapter) coreGo(goLine string) { a.coreCommand(goLine) }

// coreStop ends the running search; its bestmove still comes.
func (a *Adapter) coreStop() { a.coreCommand("stop") }

// corePonderHit turns the ponder search into the real one.
func (a *Adapter) corePonderHit() { a.coreCommand("ponderhit") }

// coreIsReady asks for a readyok once everything before it is done.
func (a *Adapter) coreIsReady() { a.coreCommand("isready") }

// coreSetOption sets an option: ours when its name starts with
// "Polyglot ", else the engine's.
func (a *Adapter) coreSetOption(name, value string, hasValue bool) {
	line := "setoption name " + name
	if hasValue {
		line += " value " + value
	}
	a.coreCommand(line)
}

// coreGameResult tells the learning how the game ended, as the GUI said.
func (a *Adapter) coreGameResult(o learn.Outcome, why string) {
	a.observer.laterNow(func(obs GameObserver) { obs.GameResult(o, why) })
}
