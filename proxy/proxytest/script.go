package proxytest

import (
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/uci"
)

// Script is the front of the core's own tests, which run without either
// of the proxy's fronts. It reads the GUI's lines as a script of the
// core's commands, each written as a UCI GUI writes it (a position line is
// SetGame of the game it holds, read in full; go is Go; ...), and writes
// what the core hands a front as lines, one event at a time:
//
//   - a BestMove as a bestmove line (BestMove.AppendUCI), after "book
//     move ..." (AppendBookNote) when the book answered, or "no move: WHY";
//   - a ReadyOK as readyok, the engine's lines (Info, Text) as they are;
//   - a Notice as "notice: MSG" (the core holds them until the
//     description is written: Listening);
//   - the Description as "id name NAME" (the engine's), its other id lines
//     and its options as the GUI is shown them, then uciok.
func Script(c *core.Core) core.Front { return &script{c: c, out: c.Out()} }

type script struct {
	c   *core.Core
	out *core.Out
}

func (s *script) GUILine(line string) {
	cmd, err := uci.ParseCommand(line)
	c := s.c
	switch cmd.Kind {
	case uci.CmdEmpty:
	case uci.CmdUCI:
		c.Describe()
	case uci.CmdIsReady:
		c.IsReady()
	case uci.CmdSetOption:
		if err != nil {
			c.Tell(err.Error())
			return
		}
		c.SetOption(cmd.SetOption.Name, cmd.SetOption.Value, cmd.SetOption.HasValue)
	case uci.CmdUCINewGame:
		c.NewGame()
	case uci.CmdPosition:
		s.position(cmd, err)
	case uci.CmdGo:
		if cmd.Go.Perft {
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
	default:
		c.Forward(cmd.Line)
	}
}

// position gives the core the game of a position line (err: why it
// cannot be read).
func (s *script) position(cmd uci.Command, err error) {
	p := cmd.Position
	if p == nil {
		s.c.RefuseGame(cmd.Line, err.Error())
		return
	}
	g := core.Game{Line: cmd.Line}
	if !p.StartPos {
		g.FEN = p.FEN
	}
	for _, w := range p.Moves {
		m, err := board.ParseMove(w)
		if err != nil {
			break
		}
		g.Moves = append(g.Moves, m)
	}
	g.Unread = p.Moves[len(g.Moves):]
	s.c.SetGame(g)
}

func (s *script) GUIGone() { s.c.Quit() }

func (s *script) BestMove(b core.BestMove) {
	switch {
	case b.Book != nil:
		s.out.LineBytes(b.AppendBookNote(nil))
	case b.Why != "":
		s.out.Line("no move: " + b.Why)
	}
	s.out.LineBytes(b.AppendUCI(nil))
}

func (s *script) ReadyOK()          { s.out.Line("readyok") }
func (s *script) Info(run []byte)   { s.out.Lines(run) }
func (s *script) Text(run []byte)   { s.out.Lines(run) }
func (s *script) Notice(msg string) { s.out.Line("notice: " + msg) }
func (s *script) Settled()          {}
func (s *script) Fatal(unheard []string, why string) {
	for _, n := range unheard {
		s.Notice(n)
	}
	s.out.Line("fatal: " + why)
}
func (s *script) Described(d core.Description) {
	s.out.Line("id name " + d.Name)
	for _, l := range d.IDLines {
		s.out.Line(l)
	}
	for _, o := range d.Options {
		s.out.Line(o.Line)
	}
	s.out.Line("uciok")
	s.c.Listening()
}
