// Package ucifront is the UCI front: the GUI speaks the engine's own
// protocol, UCI. It reads the GUI's lines into the core's commands (a
// position line at the cost of its new moves) and writes the core's
// events as UCI, the engine's lines as the engine wrote them.
package ucifront

import (
	"strings"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/uci"
)

// Front is the UCI front of one run of the core.
type Front struct {
	c   *core.Core
	out *core.Out
	// last is the GUI's last position line, when it was read into moves
	// in full: the next is read at the cost of its new moves.
	last  lastPosition
	moves []board.Move // the moves read from a line, reused
	buf   []byte       // a line written, reused
	// described: the GUI's uci has been answered.
	described bool
}

// lastPosition is a position line the GUI sent.
type lastPosition struct {
	line         string // "": none to go on from
	hasMovesWord bool
	lastMove     string // its last move as written ("": none)
}

// New is the UCI front over c, once c runs (its Out is set).
func New(c *core.Core) *Front { return &Front{c: c, out: c.Out()} }

// GUILine reads one line of the GUI's and gives the core its command.
func (f *Front) GUILine(line string) {
	if strings.HasPrefix(line, "position") && f.goOn(line) {
		return
	}
	cmd, err := uci.ParseCommand(line)
	if err != nil {
		f.c.Logf("%v", err)
		if cmd.Kind == uci.CmdSetOption {
			f.c.Tell(err.Error())
			return
		}
	}
	c := f.c
	switch cmd.Kind {
	case uci.CmdEmpty:
	case uci.CmdUCI:
		c.Describe()
	case uci.CmdIsReady:
		c.IsReady()
	case uci.CmdSetOption:
		o := cmd.SetOption
		c.SetOption(o.Name, o.Value, o.HasValue)
	case uci.CmdUCINewGame:
		f.last = lastPosition{} // the next position starts a game
		c.NewGame()
	case uci.CmdPosition:
		f.position(line, cmd, err)
	case uci.CmdGo:
		if cmd.Go.Perft {
			// Not a search: the engine prints a count and no bestmove.
			c.Logf("go perft: forwarded, no bestmove owed")
			c.UserCommand(cmd.Line)
			return
		}
		c.Go(*cmd.Go, cmd.Line)
	case uci.CmdStop:
		c.Stop()
	case uci.CmdPonderHit:
		c.PonderHit()
	case uci.CmdQuit:
		c.Quit()
	case uci.CmdUnknown:
		c.UserCommand(cmd.Line)
	default: // debug, register
		c.Forward(cmd.Line)
	}
}

// position gives the core the game of a position line read in full (err:
// why it cannot be read).
func (f *Front) position(line string, c uci.Command, err error) {
	f.last = lastPosition{}
	p := c.Position
	if p == nil {
		f.c.RefuseGame(c.Line, err.Error())
		return
	}
	g := core.Game{Line: c.Line}
	if !p.StartPos {
		g.FEN = p.FEN
	}
	f.moves = readMoves(f.moves[:0], p.Moves)
	g.Moves, g.Unread = f.moves, p.Moves[len(f.moves):]
	f.c.SetGame(g)
	if len(g.Unread) == 0 {
		f.last = lastPosition{line: line, hasMovesWord: p.Moves != nil}
		if len(p.Moves) > 0 {
			f.last.lastMove = p.Moves[len(p.Moves)-1]
		}
	}
}

// goOn gives the core the usual position lines at the cost of their new
// moves: the last line plus a move or two, or with its last move replaced
// (a ponder miss). false: line is not such a line, and nothing was done.
func (f *Front) goOn(line string) bool {
	last := &f.last
	if last.line == "" {
		return false
	}
	if words, ok := uci.MovesAfter(last.line, line, last.hasMovesWord); ok {
		if f.moves = readMoves(f.moves[:0], words); len(f.moves) < len(words) {
			return false
		}
		f.c.Play(line, f.moves...)
		last.line = line
		if len(words) > 0 {
			last.hasMovesWord, last.lastMove = true, words[len(words)-1]
		}
		return true
	}
	// The last line but its last move, then other moves.
	prev, ok := cutLastMove(last.line, last.lastMove)
	if !ok {
		return false
	}
	words, ok := uci.MovesAfter(prev, line, true)
	if !ok || len(words) == 0 {
		return false
	}
	if f.moves = readMoves(f.moves[:0], words); len(f.moves) < len(words) {
		return false
	}
	f.c.ReplaceLast(line, f.moves...)
	last.line, last.lastMove = line, words[len(words)-1]
	return true
}

// readMoves appends to moves the GUI's moves up to the first word that
// is no move.
func readMoves(moves []board.Move, words []string) []board.Move {
	for _, w := range words {
		m, err := board.ParseMove(w)
		if err != nil {
			break
		}
		moves = append(moves, m)
	}
	return moves
}

// cutLastMove is line without its last move, move, and the space before.
func cutLastMove(line, move string) (string, bool) {
	i := len(line) - len(move) - 1
	if move == "" || i < 0 || line[i] != ' ' || line[i+1:] != move {
		return "", false
	}
	return line[:i], true
}

func (f *Front) GUIGone() { f.c.Quit() }

// BestMove writes the answer to a go: the engine's line as it wrote it;
// a book's announced, with a score before it as some hosts (fastchess)
// want before every bestmove; no move with why.
func (f *Front) BestMove(b core.BestMove) {
	if b.Raw != nil {
		f.out.LineBytes(b.Raw)
		return
	}
	switch {
	case b.Book != nil:
		f.line(b.AppendBookNote(append(f.buf[:0], "info string "...)))
		f.line(b.Move.AppendTo(append(f.buf[:0], "info depth 1 score cp 0 time 0 nodes 0 pv "...)))
	case b.Why != "":
		f.out.Line("info string no move: " + b.Why)
	}
	f.line(b.AppendUCI(f.buf[:0]))
}

// line writes a line made in f.buf.
func (f *Front) line(b []byte) {
	f.buf = b
	f.out.LineBytes(b)
}

func (f *Front) ReadyOK()        { f.out.Line("readyok") }
func (f *Front) Info(run []byte) { f.out.Lines(run) }
func (f *Front) Text(run []byte) { f.out.Lines(run) }

// Notice writes a notice as an info string; the core holds them until
// the GUI's uci is answered (Listening): a line before uciok would
// confuse it.
func (f *Front) Notice(msg string) { f.out.Line("info string " + msg) }

// Fatal tells the GUI why the run ends: after an id, when its uci has
// not been answered yet (the engine ended in its handshake), so that it
// knows who speaks.
func (f *Front) Fatal(unheard []string, why string) {
	lines := Refusal(unheard, why)
	if f.described {
		lines = lines[1:]
	}
	for _, l := range lines {
		f.out.Line(l)
	}
}

// Refusal is what a UCI GUI is told when polyproxy cannot run: an id, so
// that its log says who speaks, then notices and why as info strings,
// which GUIs show in their engine window or log. No uciok: the engine is
// not ready, and a GUI then reports a failed start at once (python-chess's
// popen_uci raises, cutechess-cli "could not initialize player") rather
// than at the first search.
func Refusal(notices []string, why string) []string {
	lines := []string{"id name polyproxy"}
	for _, n := range notices {
		lines = append(lines, "info string "+n)
	}
	return append(lines, "info string error: "+why)
}

// Described answers the GUI's uci: the engine's id (marked as wrapped)
// and options, ours, uciok; then anything we had to tell it (Listening).
func (f *Front) Described(d core.Description) {
	name := f.c.Settings().EngineName
	if name == "" {
		name = d.Name + " (polyproxy)"
		if d.Name == "" {
			name = "polyproxy"
		}
	}
	f.out.Line("id name " + name)
	for _, l := range d.IDLines {
		f.out.Line(l)
	}
	for _, o := range d.Options {
		f.out.Line(o.Line)
	}
	for _, o := range f.c.Settings().Options(config.UCI) {
		f.out.Line(o.UCI().String())
	}
	f.out.Line("uciok")
	f.described = true
	f.c.Listening()
}

func (f *Front) Settled() {}
