// Package randgames writes seeded random Chess960 games as PGN, the way
// lichess and cutechess-cli export them (and standard games made alike), for the tests and the bench
// (there is no shared collection of Chess960 games to read). The same
// options give the same bytes.
package randgames

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
)

// Options say which games to write.
type Options struct {
	Seed  uint64
	Games int
	// Starts are the Chess960 start numbers (0-959) games begin from,
	// drawn at random; none means all 960. Few starts make lines repeat,
	// so book entries collect several games.
	Starts []int
	// Cutechess writes cutechess-cli's tags ([Variant "fischerandom"], the
	// FEN's castling field in Shredder letters) instead of lichess's
	// ([Variant "Chess960"], X-FEN).
	Cutechess bool
	// Standard writes standard games from the standard start (no Variant,
	// SetUp or FEN tag) made the same way: make-book's speed on the two
	// kinds compares like with like.
	Standard bool
	// MaxPlies bounds a game's length (20 + up to MaxPlies more); 0 is 100.
	MaxPlies int
}

var (
	results = [...]string{"1-0", "0-1", "1/2-1/2"}
	// players take turns with White, so learning can follow one of them.
	players = [2]string{"Alpha", "Beta"}
)

// Chess960PGN writes the games. Castling is played whenever legal four
// times in five, other moves mostly from the first few legal ones, so
// lines repeat and castling of both kinds is common.
func Chess960PGN(o Options) string {
	rng := rand.New(rand.NewPCG(o.Seed, 960))
	maxPlies := o.MaxPlies
	if maxPlies <= 0 {
		maxPlies = 100
	}
	var sb strings.Builder
	for g := 0; g < o.Games; g++ {
		n := rng.IntN(960)
		if len(o.Starts) > 0 {
			n = o.Starts[rng.IntN(len(o.Starts))]
		}
		if o.Standard {
			n = 518
		}
		fen := board.Chess960StartFEN(n)
		pos, err := board.ParseFENVariant(fen, !o.Standard)
		if err != nil {
			panic(err) // the 960 starts are all valid
		}
		res := results[rng.IntN(len(results))]
		fmt.Fprintf(&sb, "[Event \"random %d\"]\n[Site \"?\"]\n[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n", g+1, players[g%2], players[1-g%2], res)
		switch {
		case o.Standard:
		case o.Cutechess:
			fmt.Fprintf(&sb, "[Variant \"fischerandom\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n", pos.ShredderFEN())
		default:
			fmt.Fprintf(&sb, "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n", fen)
		}
		sb.WriteString("\n")
		plies := 20 + rng.IntN(maxPlies)
		text := pgn.MoveText{W: &sb}
		for ply := 0; ply < plies; ply++ {
			moves := pos.LegalMoves()
			if len(moves) == 0 {
				break
			}
			var castles []board.Move
			for _, m := range moves {
				// Castling: in Chess960 the only move onto an own piece, in
				// standard chess the king's two-square move.
				to, df := pos.Piece(m.To()), m.To().File()-m.From().File()
				if to != board.NoPiece && to.White() == pos.WhiteToMove() ||
					pos.Piece(m.From()).Type() == board.King && (df == 2 || df == -2) {
					castles = append(castles, m)
				}
			}
			var m board.Move
			switch {
			case len(castles) > 0 && rng.IntN(5) < 4:
				m = castles[rng.IntN(len(castles))]
			case rng.IntN(10) < 7:
				m = moves[rng.IntN(min(4, len(moves)))]
			default:
				m = moves[rng.IntN(len(moves))]
			}
			tok := pos.SAN(m)
			if ply%2 == 0 {
				tok = fmt.Sprintf("%d. %s", ply/2+1, tok)
			}
			text.Add(tok, false)
			pos.Play(m)
		}
		fmt.Fprintf(&sb, " %s\n\n", res)
	}
	return sb.String()
}

// TestStarts are the Chess960 starts of the tests' games: few, so lines repeat.
var TestStarts = []int{0, 518, 959, 333}

// WriteChess960PGN writes seeded random Chess960 games from TestStarts in
// two files for a test, as lichess and cutechess-cli export them, and
// returns their paths.
func WriteChess960PGN(t testing.TB, games int) (lichess, cutechess string) {
	t.Helper()
	dir := t.TempDir()
	lichess, cutechess = filepath.Join(dir, "lichess.pgn"), filepath.Join(dir, "cutechess.pgn")
	for _, f := range []struct {
		path string
		o    Options
	}{
		{lichess, Options{Seed: 11, Games: games, Starts: TestStarts}},
		{cutechess, Options{Seed: 12, Games: games / 2, Starts: TestStarts, Cutechess: true}},
	} {
		if err := os.WriteFile(f.path, []byte(Chess960PGN(f.o)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return lichess, cutechess
}
