// Package pgn reads chess games in Portable Game Notation, as real files
// hold them (comments, variations, NAGs, odd move numbers, broken games
// skipped with the reason), and replays a game's main line on the board.
// make-book and learning read PGN through it.
package pgn
