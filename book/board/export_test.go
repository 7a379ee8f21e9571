package board

// Test helpers of the internal tests, for the external ones (which may
// import book, built on this package).
var (
	FindLegal   = findLegal
	NotnilMoves = notnilMoves
)
