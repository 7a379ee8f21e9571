// Package hostilepgn writes seeded PGN of the shapes that break a reader
// which holds what it reads: a comment of any size over many lines or on
// one, a comment over lines that look like a game's tags, a very long game,
// and very many tiny games. make-book must read each in memory bounded by
// its -memory, whatever the size, and give PolyGlot's book; the tests use
// small sizes, the bench large ones. The text is streamed to a writer, so
// no input of any size is held or kept as a file.
package hostilepgn

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/polyproxy/polyproxy/book/board"
)

// Shape names a kind of hostile input.
type Shape string

const (
	// CommentLines is one game with a comment of Size bytes over lines of
	// about 70 characters.
	CommentLines Shape = "comment-lines"
	// CommentTagLines is CommentLines with a line such as [Event "..."]
	// every 50 lines of the comment: where a reader cutting the stream at
	// game starts would cut, inside the game.
	CommentTagLines Shape = "comment-tag-lines"
	// CommentOneLine is one game with a comment of Size bytes and no line
	// break: `1. e4 {` text `} e5 2. Nf3 1-0`.
	CommentOneLine Shape = "comment-one-line"
	// LongGame is one legal game of Size plies.
	LongGame Shape = "long-game"
	// OnePlyGames is Size games of one ply each.
	OnePlyGames Shape = "one-ply-games"
	// BrokenGames is Size games broken on their first line of moves (a
	// stray '}'): a reader skips each, PolyGlot gives up on the file.
	BrokenGames Shape = "broken-games"
)

// Shapes lists every shape.
var Shapes = []Shape{CommentLines, CommentTagLines, CommentOneLine, LongGame, OnePlyGames, BrokenGames}

// Options say what to write.
type Options struct {
	Shape Shape
	// Size is the comment's bytes, the game's plies or the number of
	// games, by Shape.
	Size int64
	Seed uint64
}

// Write writes the input: a normal game, the hostile part, and normal
// games after it, so that a book made of it has entries from both sides
// of the hostile part and a reader that loses its way shows it.
func Write(w io.Writer, o Options) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	rng := rand.New(rand.NewPCG(o.Seed, 30))
	g := &writer{w: bw, rng: rng}
	g.normal("before", "1. d4 d5 2. c4 e6 3. Nc3 Nf6", "1-0")
	switch o.Shape {
	case CommentLines, CommentTagLines, CommentOneLine:
		g.tags("hostile", "1-0")
		g.str("1. e4 {")
		g.comment(o.Size, o.Shape)
		g.str("} e5 2. Nf3 1-0\n\n")
	case LongGame:
		g.longGame(int(o.Size))
	case OnePlyGames:
		g.onePlyGames(o.Size)
	case BrokenGames:
		for i := int64(0); i < o.Size && g.err == nil; i++ {
			g.str("[Event \"broken " + strconv.FormatInt(i+1, 10) + "\"]\n\n1. e4 } 1-0\n\n")
		}
	default:
		return fmt.Errorf("hostilepgn: unknown shape %q", o.Shape)
	}
	g.normal("after", "1. e4 c5 2. Nf3 d6 3. d4 cxd4", "0-1")
	g.normal("after again", "1. e4 c5 2. Nf3 Nc6", "1/2-1/2")
	if g.err != nil {
		return g.err
	}
	return bw.Flush()
}

type writer struct {
	w   *bufio.Writer
	rng *rand.Rand
	err error
}

func (g *writer) str(s string) {
	if g.err == nil {
		_, g.err = g.w.WriteString(s)
	}
}

func (g *writer) tags(event, result string) {
	g.str("[Event \"" + event + "\"]\n[Site \"?\"]\n[White \"Alpha\"]\n[Black \"Beta\"]\n[Result \"" + result + "\"]\n\n")
}

func (g *writer) normal(event, moves, result string) {
	g.tags(event, result)
	g.str(moves + " " + result + "\n\n")
}

// words make the comments' text: no brace, so the comment stays one.
var words = [...]string{"the", "knight", "takes", "on", "e5", "and", "White", "is", "better", "after", "Qh5+", "g6", "!?", "(a", "line)", "$1", ";", "%", "[%clk 0:03:00]", "1-0", "*"}

// comment writes n bytes of comment text: lines of about 70 characters,
// every 50th a tag-like line for CommentTagLines, or no line break at all
// for CommentOneLine.
func (g *writer) comment(n int64, shape Shape) {
	line := make([]byte, 0, 128)
	lines := 0
	for n > 0 && g.err == nil {
		line = line[:0]
		if shape == CommentTagLines && lines%50 == 49 {
			line = append(line, "[Event \"inside a comment\"]"...)
		} else {
			for len(line) < 60+g.rng.IntN(20) {
				if len(line) > 0 {
					line = append(line, ' ')
				}
				line = append(line, words[g.rng.IntN(len(words))]...)
			}
		}
		if shape == CommentOneLine {
			line = append(line, ' ')
		} else {
			line = append(line, '\n')
		}
		line = line[:min(int64(len(line)), n)]
		n -= int64(len(line))
		_, g.err = g.w.Write(line)
		lines++
	}
}

// longGame writes one legal game of n plies from the start position,
// moves drawn at random among those that leave the opponent a move, so
// the game never ends before n.
func (g *writer) longGame(n int) {
	g.tags("long game", "1/2-1/2")
	pos := board.StartPosition()
	for ply := 0; ply < n && g.err == nil; ply++ {
		moves := pos.LegalMoves()
		var m board.Move
		for {
			m = moves[g.rng.IntN(len(moves))]
			next := *pos
			next.Play(m)
			if len(next.LegalMoves()) > 0 {
				break
			}
		}
		switch {
		case ply == 0:
			g.str("1. ")
		case ply%2 == 1:
			g.str(" ")
		case ply%16 == 0:
			g.str("\n" + strconv.Itoa(ply/2+1) + ". ")
		default:
			g.str(" " + strconv.Itoa(ply/2+1) + ". ")
		}
		g.str(pos.SAN(m))
		pos.Play(m)
	}
	g.str(" 1/2-1/2\n\n")
}

var firstMoves = [...]string{"e4", "d4", "c4", "Nf3", "g3", "b3", "f4", "Nc3", "e3", "d3"}

var results = [...]string{"1-0", "0-1", "1/2-1/2"}

// onePlyGames writes n games of one ply, with the tags a database's games
// carry.
func (g *writer) onePlyGames(n int64) {
	for i := int64(0); i < n && g.err == nil; i++ {
		res := results[g.rng.IntN(len(results))]
		g.str("[Event \"game " + strconv.FormatInt(i+1, 10) + "\"]\n[White \"Alpha\"]\n[Black \"Beta\"]\n[Result \"" + res + "\"]\n\n1. " + firstMoves[g.rng.IntN(len(firstMoves))] + " " + res + "\n\n")
	}
}
