package uci

import (
	"strconv"
	"strings"
)

// CommandKind is what a GUI line asks for.
type CommandKind int

const (
	CmdUnknown CommandKind = iota // forwarded as is
	CmdEmpty                      // blank line
	CmdUCI
	CmdDebug
	CmdIsReady
	CmdSetOption
	CmdRegister
	CmdUCINewGame
	CmdPosition
	CmdGo
	CmdStop
	CmdPonderHit
	CmdQuit
)

// commandKind is the command a word names, if any.
func commandKind(w string) (CommandKind, bool) {
	switch w {
	case "uci":
		return CmdUCI, true
	case "debug":
		return CmdDebug, true
	case "isready":
		return CmdIsReady, true
	case "setoption":
		return CmdSetOption, true
	case "register":
		return CmdRegister, true
	case "ucinewgame":
		return CmdUCINewGame, true
	case "position":
		return CmdPosition, true
	case "go":
		return CmdGo, true
	case "stop":
		return CmdStop, true
	case "ponderhit":
		return CmdPonderHit, true
	case "quit":
		return CmdQuit, true
	}
	return 0, false
}

// Command is one parsed GUI line. Exactly one of Position, Go and SetOption
// is set, according to Kind.
type Command struct {
	Kind CommandKind
	// Line is the line from its command word on, terminator removed: what
	// an engine is sent. Engines such as Stockfish do not skip unknown
	// leading words as the specification asks ("joho go" would go
	// unanswered); a CmdUnknown line is kept whole.
	Line      string
	Position  *Position
	Go        *Go
	SetOption *SetOption
}

// Position is "position startpos|fen FEN [moves M...]".
type Position struct {
	StartPos bool
	// FEN is its fields joined by single spaces, at most six: engines
	// and python-chess ignore trailing extra fields, and default missing
	// ones, so whoever reads it decides what is missing.
	FEN   string
	Moves []string // as written; checked by whoever applies them
}

// Go is a "go" command with all its parameters. Times are in milliseconds
// and may be negative (some GUIs send a negative remaining time).
type Go struct {
	SearchMoves          []string
	Ponder, Infinite     bool
	WTime, BTime         int64
	WInc, BInc           int64
	HasWTime, HasBTime   bool
	MovesToGo            int
	Depth, Nodes, Mate   int64
	MoveTime             int64
	HasMate, HasMoveTime bool
	// Perft is Stockfish's "go perft N": a count of move paths, answered
	// without a bestmove.
	Perft bool
}

// SetOption is "setoption name NAME [value VALUE]".
type SetOption struct {
	Name     string // words joined by single spaces
	Value    string // raw text after "value", inner spacing kept
	HasValue bool
}

// String is o as a setoption line: what an engine is sent.
func (o SetOption) String() string {
	if o.HasValue {
		return "setoption name " + o.Name + " value " + o.Value
	}
	return "setoption name " + o.Name
}

// ParseCommand reads one GUI line. As the UCI specification asks, unknown
// words before a known command are skipped ("joho debug on" is "debug on");
// a line with no known command is CmdUnknown and meant to be forwarded. The
// error is set when a known command is malformed (the Kind is still set).
func ParseCommand(line string) (Command, error) {
	fs := fields(line)
	c := Command{Line: line}
	if len(fs) == 0 {
		c.Kind = CmdEmpty
		return c, nil
	}
	i := 0
	for ; i < len(fs); i++ {
		if k, ok := commandKind(fs[i].s); ok {
			c.Kind = k
			break
		}
	}
	if i == len(fs) {
		c.Kind = CmdUnknown
		return c, nil
	}
	c.Line = line[fs[i].start:]
	args := fs[i+1:]
	var err error
	switch c.Kind {
	case CmdPosition:
		c.Position, err = parsePosition(line, args)
	case CmdGo:
		c.Go = parseGo(args)
	case CmdSetOption:
		c.SetOption, err = parseSetOption(line, args)
	}
	return c, err
}

func parsePosition(line string, fs []field) (*Position, error) {
	p := &Position{}
	i := 0
	// Skip unknown words before startpos/fen.
	for i < len(fs) && fs[i].s != "startpos" && fs[i].s != "fen" && fs[i].s != "moves" {
		i++
	}
	if i == len(fs) || fs[i].s == "moves" {
		return nil, errorf(line, "position without startpos or fen")
	}
	if fs[i].s == "startpos" {
		p.StartPos = true
		i++
	} else {
		i++
		start := i
		for i < len(fs) && fs[i].s != "moves" {
			i++
		}
		n := min(i-start, 6)
		if n == 0 {
			return nil, errorf(line, "position fen without a FEN")
		}
		parts := make([]string, n)
		for j := range parts {
			parts[j] = fs[start+j].s
		}
		p.FEN = strings.Join(parts, " ")
	}
	for i < len(fs) && fs[i].s != "moves" {
		i++
	}
	if i < len(fs) {
		i++
		p.Moves = make([]string, 0, len(fs)-i)
		for ; i < len(fs); i++ {
			p.Moves = append(p.Moves, fs[i].s)
		}
	}
	return p, nil
}

// isGoWord tells the words of a go command.
func isGoWord(w string) bool {
	switch w {
	case "searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes",
		"mate", "movetime", "infinite", "perft":
		return true
	}
	return false
}

// parseGo never fails: unknown words and bad numbers are skipped.
func parseGo(fs []field) *Go {
	g := &Go{}
	for i := 0; i < len(fs); i++ {
		w := fs[i].s
		num := func() (int64, bool) {
			if i+1 >= len(fs) {
				return 0, false
			}
			n, err := strconv.ParseInt(fs[i+1].s, 10, 64)
			if err != nil {
				return 0, false
			}
			i++
			return n, true
		}
		switch w {
		case "searchmoves":
			for i+1 < len(fs) && !isGoWord(fs[i+1].s) {
				i++
				g.SearchMoves = append(g.SearchMoves, fs[i].s)
			}
		case "ponder":
			g.Ponder = true
		case "infinite":
			g.Infinite = true
		case "wtime":
			g.WTime, g.HasWTime = num()
		case "btime":
			g.BTime, g.HasBTime = num()
		case "winc":
			g.WInc, _ = num()
		case "binc":
			g.BInc, _ = num()
		case "movestogo":
			n, _ := num()
			g.MovesToGo = int(n)
		case "depth":
			g.Depth, _ = num()
		case "nodes":
			g.Nodes, _ = num()
		case "mate":
			g.Mate, g.HasMate = num()
		case "movetime":
			g.MoveTime, g.HasMoveTime = num()
		case "perft":
			g.Perft = true
		}
	}
	return g
}

// String is g as a go line, in one order: ponder, depth, nodes, mate,
// movetime, the clocks, infinite, perft, and searchmoves last (engines
// such as Stockfish read every word after it as a move). A number is
// written when it is set: the clocks, mate and movetime when given, the
// others when not zero, which engines read as none.
func (g *Go) String() string {
	b := make([]byte, 0, 64)
	b = append(b, "go"...)
	word := func(w string) { b = append(append(b, ' '), w...) }
	num := func(w string, n int64, set bool) {
		if set {
			word(w)
			b = strconv.AppendInt(append(b, ' '), n, 10)
		}
	}
	if g.Ponder {
		word("ponder")
	}
	num("depth", g.Depth, g.Depth != 0)
	num("nodes", g.Nodes, g.Nodes != 0)
	num("mate", g.Mate, g.HasMate)
	num("movetime", g.MoveTime, g.HasMoveTime)
	num("wtime", g.WTime, g.HasWTime)
	num("btime", g.BTime, g.HasBTime)
	num("winc", g.WInc, g.WInc != 0)
	num("binc", g.BInc, g.BInc != 0)
	num("movestogo", int64(g.MovesToGo), g.MovesToGo != 0)
	if g.Infinite {
		word("infinite")
	}
	if g.Perft {
		word("perft")
	}
	if len(g.SearchMoves) > 0 {
		word("searchmoves")
		for _, m := range g.SearchMoves {
			word(m)
		}
	}
	return string(b)
}

// Charged is g with spentMS milliseconds taken off the clocks of the
// sides it is told to charge and off movetime, each kept at 1 or more: a
// search issued again after an engine restart must not count on time
// already gone.
func (g Go) Charged(spentMS int64, white, black bool) Go {
	if g.HasWTime && white {
		g.WTime = max(g.WTime-spentMS, 1)
	}
	if g.HasBTime && black {
		g.BTime = max(g.BTime-spentMS, 1)
	}
	if g.HasMoveTime {
		g.MoveTime = max(g.MoveTime-spentMS, 1)
	}
	return g
}

func parseSetOption(line string, fs []field) (*SetOption, error) {
	nameAt, valueAt := -1, -1
	for i, f := range fs {
		if nameAt < 0 && strings.EqualFold(f.s, "name") {
			nameAt = i
		} else if nameAt >= 0 && valueAt < 0 && strings.EqualFold(f.s, "value") {
			valueAt = i
		}
	}
	if nameAt < 0 {
		return nil, errorf(line, "setoption without name")
	}
	end := len(fs)
	if valueAt >= 0 {
		end = valueAt
	}
	words := make([]string, 0, end-nameAt)
	for _, f := range fs[nameAt+1 : end] {
		words = append(words, f.s)
	}
	o := &SetOption{Name: strings.Join(words, " ")}
	if o.Name == "" {
		return nil, errorf(line, "setoption with an empty name")
	}
	if valueAt >= 0 {
		o.HasValue = true
		o.Value = rawBetween(line, fs, valueAt+1, len(fs))
	}
	return o, nil
}

// MovesAfter reports whether line is the position line prev with more
// moves appended, and returns those moves (none when line equals prev),
// without reading the whole line again: GUIs resend the whole game after
// every ply, and a long game's line is 10 KB. prevHasMovesWord tells
// whether prev has the "moves" keyword. When it returns false the caller
// parses line in full; the result is then the same.
func MovesAfter(prev, line string, prevHasMovesWord bool) ([]string, bool) {
	if len(line) < len(prev) || line[:len(prev)] != prev {
		return nil, false
	}
	tail := line[len(prev):]
	if tail == "" {
		return nil, true
	}
	if !isSpace(tail[0]) {
		return nil, false
	}
	fs := fields(tail)
	if !prevHasMovesWord {
		if len(fs) == 0 || fs[0].s != "moves" {
			return nil, len(fs) == 0
		}
		fs = fs[1:]
	}
	moves := make([]string, len(fs))
	for i, f := range fs {
		moves[i] = f.s
	}
	return moves, true
}
