package book

// What the tests of package book_test need of the package's insides.

var (
	AboveThreshold = aboveThreshold
	WriteFile      = writeFile
)

// LineBudget is how many positions a look-ahead visits at most.
const LineBudget = lineBudget

// Visited is how many positions the last measure visited.
func (l *Lookahead) Visited() int { return l.visited }

// Cached is how many positions the look-ahead's cache holds.
func (l *Lookahead) Cached() int { return len(l.cache) }
