package learn

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
)

// SkippedGame is a game of a PGN that gave nothing to learn, and why.
type SkippedGame struct {
	Game   int    // 1-based number in the file
	Line   int    // where it starts
	Kind   string // the kind of reason, for counting: one of pgn.SkipReasons or SkipNotPlaying
	Reason string
}

// SkipNotPlaying is the kind of a game the learning player did not play.
const SkipNotPlaying = "player not in the game"

func (s SkippedGame) String() string {
	return fmt.Sprintf("game %d (line %d): %s", s.Game, s.Line, s.Reason)
}

// PGNStats counts what FromPGN read.
type PGNStats struct {
	Games   int // games read, skipped ones included
	Skipped int
	Learned int // games that gave at least one update
	// Players are the names in the games' White and Black tags (as
	// compared: trimmed), each with the games it played: when the player
	// learned for is not among them, the name was likely mistyped.
	Players map[string]int
}

// FromPGN reads tournament games (as cutechess-cli or fastchess write them)
// and returns one update per move that player made from a position of b
// with that move in b, counted with the game's Result tag from player's
// view. A game counts only if it can be replayed to the end; games without
// a decisive or drawn result, without player, or with an illegal move are
// reported to skipped (may be nil) and give nothing. A read error stops
// the reading and is returned: the caller should then learn nothing, so
// that running again after fixing it counts no game twice.
func FromPGN(r io.Reader, b *book.Book, player string, skipped func(SkippedGame)) ([]book.LearnUpdate, PGNStats, error) {
	st := PGNStats{Players: map[string]int{}}
	var updates []book.LearnUpdate
	skip := func(n, line int, kind, reason string) {
		st.Skipped++
		if skipped != nil {
			skipped(SkippedGame{n, line, kind, reason})
		}
	}
	pr := pgn.NewReader(r)
	var game []book.LearnUpdate
	for {
		g, err := pr.Next()
		if err == io.EOF {
			return updates, st, nil
		}
		st.Games++
		var perr *pgn.SyntaxError
		if errors.As(err, &perr) {
			skip(st.Games, perr.GameLine, perr.Reason(), perr.Error())
			continue
		}
		if err != nil {
			return nil, st, fmt.Errorf("reading PGN after game %d: %w", st.Games-1, err)
		}
		whiteName, blackName := strings.TrimSpace(g.Tag("White")), strings.TrimSpace(g.Tag("Black"))
		st.Players[whiteName]++
		if blackName != whiteName {
			st.Players[blackName]++
		}
		white, black := whiteName == player, blackName == player
		// A game without a result is skipped for that, below.
		if !white && !black && ParseOutcome(g.Tag("Result")) != Unknown {
			skip(st.Games, g.Line, SkipNotPlaying, fmt.Sprintf("%s does not play (White %q, Black %q)", player, g.Tag("White"), g.Tag("Black")))
			continue
		}
		game, err = gameUpdates(g, b, white, black, game[:0])
		var serr *pgn.Skip
		if errors.As(err, &serr) {
			skip(st.Games, g.Line, serr.Reason, serr.Detail)
			continue
		}
		if len(game) > 0 {
			st.Learned++
			updates = append(updates, game...)
		}
	}
}

// gameUpdates returns the updates of one game for the moves of the sides
// given (white, black: the player's), or why it gives none (a *pgn.Skip):
// the one way a game is counted, from a PGN file after the tournament or
// from the host's PGN during it.
func gameUpdates(g *pgn.Game, b *book.Book, white, black bool, out []book.LearnUpdate) ([]book.LearnUpdate, error) {
	result := g.Tag("Result")
	outcome := ParseOutcome(result)
	if outcome == Unknown {
		if result == "" {
			return nil, &pgn.Skip{Reason: pgn.SkipNoResult, Detail: "no Result tag"}
		}
		return nil, &pgn.Skip{Reason: pgn.SkipNoResult, Detail: fmt.Sprintf("no result (Result %q)", result)}
	}
	// The keys of the positions played so far: the line each update is
	// counted on (a format of lines from the start, ABK, follows it). The
	// updates keep slices of it, so a game has its own.
	var line []board.Key
	err := g.Replay(func(pos *board.Position, m board.Move) {
		key := pos.Key()
		line = append(line, key)
		// A position the key cannot name (an inner rook's castling right)
		// has no entry of its own to learn into.
		if mover := pos.WhiteToMove(); ((mover && white) || (!mover && black)) && pos.NoKeyReason() == "" {
			for _, e := range b.Entries(key) {
				if pos.Stores(e.Move, m) {
					out = append(out, book.LearnUpdate{Key: key, Move: e.Move, Result: outcome.For(mover), Line: line[:len(line):len(line)]})
					break
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
