package ctgwrite

import (
	"errors"
	"io"
	"strconv"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
	"github.com/polyproxy/polyproxy/book/pgn"
)

// GamesStats counts what AddGames read.
type GamesStats struct {
	Games   int // games added
	Skipped int // games without a result, or not from the standard start
	// Unnamed counts moves no move byte can name (a third knight...): the
	// game goes on without them in the book.
	Unnamed int
}

// AddGames adds the games of a PGN stream to maxPly plies, as ChessBase
// builds a book from a database: each position reached gets the games
// that reached it, their wins, losses and draws from the view of the side
// to move there, the players' ratings (of the side to move) and the moves
// played from it; the position after the last move counted is in the
// book too, without moves. A game stops at a move no byte names. The
// start position is a root.
func (b *Book) AddGames(r io.Reader, maxPly int) (GamesStats, error) {
	var st GamesStats
	start := board.StartPosition()
	if !b.Has(start) {
		b.Add(start, ctg.Stats{})
	}
	rd := pgn.NewReader(r)
	for {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return st, nil
		}
		if err != nil {
			return st, err
		}
		whiteScore, ok := map[string]int{"1-0": 2, "1/2-1/2": 1, "0-1": 0}[g.Result]
		if !ok || g.Chess960() || g.Tag("FEN") != "" {
			st.Skipped++
			continue
		}
		elo := [2]int{} // [1] White's
		elo[1], _ = strconv.Atoi(g.Tag("WhiteElo"))
		elo[0], _ = strconv.Atoi(g.Tag("BlackElo"))
		count := func(p *board.Position) *Node {
			n := b.node(p)
			score := whiteScore
			side := 0
			if p.WhiteToMove() {
				side = 1
			} else {
				score = 2 - score
			}
			n.e.stats.Games++
			switch score {
			case 2:
				n.e.stats.Wins++
			case 1:
				n.e.stats.Draws++
			default:
				n.e.stats.Losses++
			}
			if elo[side] > 0 {
				n.e.stats.RatedGames++
				n.e.stats.RatingSum += uint32(elo[side])
			}
			return n
		}
		// The plies first: a game that turns out broken adds nothing.
		type ply struct {
			pos  board.Position
			code byte
		}
		var plies []ply
		stopped := false
		var last board.Position
		err = g.Replay(func(pos *board.Position, m board.Move) {
			if stopped || len(plies) >= maxPly {
				stopped = true
				return
			}
			code, err := ctg.MoveByte(pos, m)
			if err != nil {
				st.Unnamed++
				stopped = true // the positions after it could not be reached
				return
			}
			plies = append(plies, ply{*pos, code})
			last = *pos.Next(m)
		})
		if err != nil {
			st.Skipped++
			continue
		}
		for _, p := range plies {
			if n := count(&p.pos); !n.Has(p.code) {
				n.Raw(p.code, ctg.NoAnnotation)
			}
		}
		if len(plies) > 0 {
			count(&last)
		}
		st.Games++
	}
}

// FromGamesStats is what FromGames read and wrote.
type FromGamesStats struct {
	GamesStats
	Positions int // entries (mirror twins are one)
	Pages     int
	Layout    Layout
}

// FromGames writes a book of the games of a PGN stream to maxPly plies
// (AddGames) as name (any of its three files), laid out for its size
// (LayoutFor).
func FromGames(r io.Reader, maxPly int, name string) (FromGamesStats, error) {
	b := New()
	var st FromGamesStats
	var err error
	if st.GamesStats, err = b.AddGames(r, maxPly); err != nil {
		return st, err
	}
	if st.Layout, err = b.LayoutFor(uint32(st.Games)); err != nil {
		return st, err
	}
	f, err := b.Build(st.Layout)
	if err != nil {
		return st, err
	}
	st.Positions, st.Pages = b.Len(), f.Pages()
	return st, f.Write(name)
}
