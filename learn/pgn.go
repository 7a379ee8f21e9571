package learn

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/polyproxy/polyproxy/book"
)

// SkippedGame is a game of a PGN that gave nothing to learn, and why.
type SkippedGame struct {
	Game   int    // 1-based number in the file
	Line   int    // where it starts
	Kind   string // the kind of reason, for counting: one of the Skip* constants
	Reason string
}

// Kinds of skipped games.
const (
	SkipNoResult   = "no result"
	SkipNotPlaying = "player not in the game"
	SkipUnreadable = "unreadable"
	SkipVariant    = "not standard chess"
	SkipBadFEN     = "bad FEN"
	SkipIllegal    = "illegal move"
)

// skipError is why replay gives nothing.
type skipError struct{ kind, msg string }

func (e *skipError) Error() string { return e.msg }

func skipf(kind, format string, args ...any) error {
	return &skipError{kind, fmt.Sprintf(format, args...)}
}

func (s SkippedGame) String() string {
	return fmt.Sprintf("game %d (line %d): %s", s.Game, s.Line, s.Reason)
}

// PGNStats counts what FromPGN read.
type PGNStats struct {
	Games   int // games read, skipped ones included
	Skipped int
	Learned int // games that gave at least one update
}

// FromPGN reads tournament games (as cutechess-cli or fastchess write them)
// and returns one update per move that player made from a position of b
// with that move in b, counted with the game's Result tag from player's
// view. A game counts only if it can be replayed to the end; games without
// a decisive or drawn result, without player, or with an illegal move are
// reported to skipped (may be nil) and give nothing. A read error stops
// the reading and is returned: the caller should then learn nothing, so
// that running again after fixing it counts no game twice.
func FromPGN(r io.Reader, b *book.Book, player string, skipped func(SkippedGame)) ([]Update, PGNStats, error) {
	var st PGNStats
	var updates []Update
	skip := func(n, line int, kind, reason string) {
		st.Skipped++
		if skipped != nil {
			skipped(SkippedGame{n, line, kind, reason})
		}
	}
	pr := book.NewPGNReader(r)
	var game []Update
	for {
		g, err := pr.Next()
		if err == io.EOF {
			return updates, st, nil
		}
		st.Games++
		var perr *book.PGNError
		if errors.As(err, &perr) {
			skip(st.Games, perr.Line, SkipUnreadable, "unreadable: "+perr.Error())
			continue
		}
		if err != nil {
			return nil, st, fmt.Errorf("reading PGN after game %d: %w", st.Games-1, err)
		}
		game, err = replay(g, b, player, game[:0])
		var serr *skipError
		if errors.As(err, &serr) {
			skip(st.Games, g.Line, serr.kind, serr.msg)
			continue
		}
		if len(game) > 0 {
			st.Learned++
			updates = append(updates, game...)
		}
	}
}

// startPosition is copied for each game: parsing the start FEN every time
// would cost more than replaying the game.
var startPosition = *book.StartPosition()

// replay returns the updates of one game, or why it gives none.
func replay(g *book.PGNGame, b *book.Book, player string, out []Update) ([]Update, error) {
	result := g.Tag("Result")
	outcome := ParseOutcome(result)
	if outcome == Unknown {
		if result == "" {
			return nil, skipf(SkipNoResult, "no Result tag")
		}
		return nil, skipf(SkipNoResult, "no result (Result %q)", result)
	}
	white, black := strings.TrimSpace(g.Tag("White")) == player, strings.TrimSpace(g.Tag("Black")) == player
	if !white && !black {
		return nil, skipf(SkipNotPlaying, "%s does not play (White %q, Black %q)", player, g.Tag("White"), g.Tag("Black"))
	}
	if v := strings.ToLower(g.Tag("Variant")); v != "" && v != "standard" && v != "chess" && v != "normal" {
		return nil, skipf(SkipVariant, "variant %q", g.Tag("Variant"))
	}
	pos := new(book.Position)
	*pos = startPosition
	if fen := g.Tag("FEN"); fen != "" && g.Tag("SetUp") != "0" {
		p, err := book.ParseFEN(fen)
		if err != nil {
			return nil, skipf(SkipBadFEN, "bad FEN tag: %v", err)
		}
		pos = p
	}
	for ply, san := range g.Moves {
		m, err := pos.ParseSAN(san)
		if err != nil {
			dots := "."
			if !pos.WhiteToMove() {
				dots = "..."
			}
			return nil, skipf(SkipIllegal, "illegal move at ply %d (%d%s %s): %v", ply+1, pos.FullMove(), dots, san, err)
		}
		if mover := pos.WhiteToMove(); (mover && white) || (!mover && black) {
			key := pos.Key()
			for _, e := range b.Entries(key) {
				// Books store castling king-to-rook (e1h1) or, some,
				// king-to-destination (e1g1): compare as played.
				if pos.ToPlayed(e.Move) == m {
					out = append(out, Update{Key: key, Move: e.Move, Result: outcome.For(mover)})
					break
				}
			}
		}
		pos.Play(m)
	}
	return out, nil
}
