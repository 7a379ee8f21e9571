package pgn

import (
	"errors"
	"fmt"
	"strings"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/lazy"
)

// Reasons a game gives no moves, for counting skipped games.
const (
	SkipSyntax    = "PGN syntax error"
	SkipBadTag    = "bad tag"
	SkipBadFEN    = "bad FEN"
	SkipVariant   = "not standard chess or Chess960 (Variant tag)"
	SkipNoResult  = "no result"
	SkipIllegal   = "illegal move"
	SkipAmbiguous = "ambiguous move"
	SkipBadMove   = "unreadable move"
	SkipNullMove  = "null move"
)

// Skip says why a game gives no moves: one of the Skip reasons, and the
// details for a report.
type Skip struct {
	Reason string
	Detail string
}

func (s *Skip) Error() string { return s.Detail }

// Reason is the skip reason of a syntax error.
func (e *SyntaxError) Reason() string {
	if strings.HasPrefix(e.Msg, "bad tag") {
		return SkipBadTag
	}
	return SkipSyntax
}

// startPosition960 is the standard start under Chess960's castling, read
// on first use, not at start-up: most runs never read a game.
var startPosition960 = lazy.Value[board.Position]{New: func() board.Position {
	p, err := board.ParseFENVariant(board.StartFEN, true)
	if err != nil {
		panic(err) // the start position is valid
	}
	return *p
}}

// chess960Starts maps the FEN tags of the 960 start positions, in X-FEN
// (KQkq, as lichess writes them) and Shredder-FEN (HAha, rook files), to
// their positions: nearly every Chess960 game begins at one, and a lookup
// costs make-book less than reading the FEN (about 5 µs a game).
var chess960Starts = lazy.Value[map[string]board.Position]{New: func() map[string]board.Position {
	m := make(map[string]board.Position, 2*960)
	for n := 0; n < 960; n++ {
		fen := board.Chess960StartFEN(n)
		p, err := board.ParseFENVariant(fen, true)
		if err != nil {
			panic(err) // the 960 starts are all valid
		}
		m[fen] = *p
		m[p.ShredderFEN()] = *p
	}
	return m
}}

// Chess960 reports a Chess960 game: its Variant tag names Chess960
// (lichess writes "Chess960", cutechess-cli "fischerandom", others
// "Fischer Random", "Chess 960", "FRC" or "960"), or it names no variant
// (or standard chess) and its FEN's castling rights only Chess960 has, as
// in cutechess-cli's games from Chess960 openings, which carry no Variant
// tag (board.Chess960FEN: the one detection, as python-chess reads them).
func (g *Game) Chess960() bool {
	v := g.Tag("Variant")
	if IsChess960(v) {
		return true
	}
	fen := g.Tag("FEN")
	return fen != "" && g.Tag("SetUp") != "0" && isStandard(v) && board.Chess960FEN(fen)
}

// isStandard reports a Variant tag's value that names standard chess, or
// no variant.
func isStandard(variant string) bool {
	return variant == "" || strings.EqualFold(variant, "standard") || strings.EqualFold(variant, "chess") || strings.EqualFold(variant, "normal")
}

// IsChess960 reports a Variant tag's value that names Chess960.
func IsChess960(variant string) bool {
	// Every game's Variant tag comes here (twice per game in make-book):
	// the name is folded in a small array, without allocating, since
	// building a strings.Replacer per call made make-book 2x slower.
	var folded [len("fischerrandomchess")]byte
	n := 0
	for i := 0; i < len(variant); i++ {
		c := variant[i]
		switch {
		case c == ' ' || c == '-':
			continue
		case n == len(folded):
			return false // longer than any name below
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		folded[n] = c
		n++
	}
	switch string(folded[:n]) {
	case "chess960", "fischerandom", "fischerrandom", "frc", "960", "fischerrandomchess":
		return true
	}
	return false
}

// Start is the position the game starts from: its FEN tag (unless SetUp is
// "0") or the standard start, in Chess960 when the game is a Chess960 one
// (Chess960: the Variant tag says so, or the FEN's castling rights do; its
// castling field in any style: KQkq, Shredder, X-FEN). A Variant other
// than standard chess or Chess960 or a bad FEN is a *Skip.
func (g *Game) Start() (board.Position, error) {
	v := g.Tag("Variant")
	chess960 := IsChess960(v)
	if !chess960 && !isStandard(v) {
		return board.Position{}, &Skip{SkipVariant, fmt.Sprintf("Variant %q", v)}
	}
	if fen := g.Tag("FEN"); fen != "" && g.Tag("SetUp") != "0" {
		var p *board.Position
		var err error
		if chess960 {
			if start, ok := chess960Starts.Get()[fen]; ok {
				return start, nil
			}
			p, err = board.ParseFENVariant(fen, true)
		} else {
			// No variant named: the FEN's castling rights tell.
			p, err = board.ParseFENDetectVariant(fen)
		}
		if err != nil {
			return board.Position{}, &Skip{SkipBadFEN, err.Error()}
		}
		return *p, nil
	}
	if chess960 {
		return startPosition960.Get(), nil
	}
	return *board.StartPosition(), nil
}

// Replay plays the main line from Start, calling fn with the position
// before each move and the move in played form (castling e1g1; in
// Chess960 king takes own rook). A move
// that does not resolve stops it with a *Skip naming the ply; fn has seen
// the moves before it.
func (g *Game) Replay(fn func(pos *board.Position, m board.Move)) error {
	start, err := g.Start()
	if err != nil {
		return err
	}
	return g.ReplayPliesFrom(start, len(g.moves), fn)
}

// ReplayPliesFrom is Replay of the first n plies only, from start (the
// game's Start, which the caller also reads, as make-book does for the
// variant): later moves are not read at all (as PolyGlot's make-book,
// which reads no move past its -max-ply).
func (g *Game) ReplayPliesFrom(start board.Position, n int, fn func(pos *board.Position, m board.Move)) error {
	pos := start
	for ply := range min(n, len(g.moves)) {
		m, err := board.ParseSAN(&pos, g.Move(ply))
		if err != nil {
			reason := SkipBadMove
			switch {
			case errors.Is(err, board.ErrIllegalMove):
				reason = SkipIllegal
			case errors.Is(err, board.ErrAmbiguousMove):
				reason = SkipAmbiguous
			case errors.Is(err, board.ErrNullMove):
				reason = SkipNullMove
			}
			dots := "."
			if !pos.WhiteToMove() {
				dots = "..."
			}
			return &Skip{reason, fmt.Sprintf("ply %d (%d%s): %v", ply+1, pos.FullMove(), dots, err)}
		}
		fn(&pos, m)
		pos.Play(m)
	}
	return nil
}

// SkipReasons lists every reason in the order summaries list them.
var SkipReasons = []string{SkipSyntax, SkipBadTag, SkipBadFEN, SkipVariant, SkipNoResult, SkipIllegal, SkipAmbiguous, SkipBadMove, SkipNullMove}
