package book

import (
	"slices"

	"github.com/polyproxy/polyproxy/book/board"
)

// The look-ahead's bounds. A measure visits at most lineBudget positions
// (each a lookup in every book of its side, a few microseconds), so it
// costs a few milliseconds at worst; the cache of a game holds at most
// lineCacheLimit positions (a few MB).
const (
	lineBudget     = 2000
	lineCacheLimit = 1 << 16
)

// Lookahead measures the book's longest line after a move (BookMinLine),
// bounded: a line is a sequence of book moves (the moves the book itself
// goes on with in each position, see Chooser.BookMoves, from the books of
// the side to move there), and it ends where the book has no move or
// where a move would repeat a position of the game or of the line (a
// cycle). A position whose lines were all followed to their end is cached
// for the rest of the game, so positions reached by several move orders
// (transpositions) are measured once. The zero value is ready; a Game
// without one measures afresh.
type Lookahead struct {
	game, books int // what the cache was measured for (For)
	// cache holds the exact length of the longest line from a position,
	// for positions whose every line was followed to its end without a
	// cycle. Only such results hold wherever the position is reached from
	// (one exception: a book line that returns to a position the game
	// passed through after it was cached, which only a book with cycles
	// has; the length is then overstated by the part after the repetition).
	cache map[board.Key]int32

	// One measure's state.
	chooser  *Chooser
	shelf    *Shelf
	path     []board.Key      // the positions of the game and of the line being followed
	moves    []board.Move     // the moves of every position on the path, a stack
	line     []board.Position // the positions of the line being followed, by ply
	visited  int
	exceeded bool
}

// For readies the look-ahead for game number game played with the books
// and rules of generation books: what it measured holds while neither
// changes.
func (l *Lookahead) For(game, books int) *Lookahead {
	if l.cache == nil || game != l.game || books != l.books || len(l.cache) > lineCacheLimit {
		l.cache = map[board.Key]int32{}
		l.game, l.books = game, books
	}
	return l
}

// Longest is min(the longest book line after move at pos, need) in
// plies, pos being the last position of the game whose positions are
// keyed by game (a line also ends where it would repeat one of them), the
// books of each side shelf's, their moves c's. complete is false when
// the measure ran out of its budget before it knew: the line is then
// taken as long enough (need), since a book too bushy to measure is not
// ending.
func (l *Lookahead) Longest(c *Chooser, shelf *Shelf, game []board.Key, pos *board.Position, move board.Move, need int) (plies int, complete bool) {
	if l.cache == nil {
		l.For(0, 0)
	}
	l.chooser, l.shelf = c, shelf
	l.path = append(l.path[:0], game...)
	l.moves = l.moves[:0]
	l.visited, l.exceeded = 0, false
	// The line's positions live here, not on the walk's stack: a position
	// whose address a recursion takes would be put on the heap, one for
	// every position visited.
	l.line = slices.Grow(l.line[:0], need+2)[:need+2]
	l.line[0] = *pos
	l.line[0].Play(move)
	plies, _ = l.walk(0, need)
	return plies, !l.exceeded
}

// walk returns min(longest line from the line's position at ply, need),
// and whether that is the exact length, the same wherever the position is
// reached from: every line was followed to its end (none reached need,
// none was cut by a cycle or the budget).
func (l *Lookahead) walk(ply, need int) (int, bool) {
	if need <= 0 {
		return 0, false
	}
	pos := &l.line[ply]
	key := pos.Key()
	if n, ok := l.cache[key]; ok {
		return min(int(n), need), int(n) < need
	}
	if l.visited >= lineBudget {
		l.exceeded = true
		return need, false
	}
	l.visited++
	l.path = append(l.path, key)
	start := len(l.moves)
	l.moves = l.chooser.BookMoves(l.shelf.For(pos.WhiteToMove()), pos, l.moves)
	end := len(l.moves)
	best, exact := 0, true
	for i := start; i < end && best < need; i++ {
		next := &l.line[ply+1]
		*next = *pos
		next.Play(l.moves[i])
		if slices.Contains(l.path, next.Key()) {
			exact = false // the line would go round: it ends before the repetition
			continue
		}
		sub, subExact := l.walk(ply+1, need-1)
		exact = exact && subExact
		best = max(best, sub+1)
	}
	l.moves = l.moves[:start]
	l.path = l.path[:len(l.path)-1]
	exact = exact && best < need
	if exact {
		l.cache[key] = int32(best)
	}
	return best, exact
}
