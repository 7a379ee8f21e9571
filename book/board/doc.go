// Package board is the rules of standard chess that polyproxy's hot paths
// need: a position with its Polyglot key kept up to date move by move,
// FEN in and out, legality of a move, legal move generation, mate,
// stalemate and insufficient material, SAN in and out, and a line of play
// (a game from a start position). Moves are the
// book format's move codes (book.Move), so a book entry plays as it is.
//
// notnil/chess has all of this, but replaying a game with it costs 15-25
// µs a ply where make-book and the proxy's book answers need well under
// one (measured in book/build's BenchmarkReplaySAN and
// BenchmarkReplayNotnil), and its package start-up alone is a tenth of
// the proxy's time to its first uciok. These rules are cross-checked
// against it in notnil_test.go, move by move, over random games and
// fuzzed FENs; notnil is a test dependency only.
package board
