// Package pgn reads chess games in Portable Game Notation, as real files
// hold them (comments, variations, NAGs, odd move numbers, broken games
// skipped with the reason), and replays a game's main line on the board.
// make-book and learning read PGN through it: Open takes plain, gzip,
// bzip2 or zstd files (told by their first bytes) and standard input, and
// Splitter with NewChunkReader reads one stream in pieces in parallel.
// MoveText wraps the move text of the games the book tools write.
package pgn

// The standard library has no bzip2 writer: the bzip2 test file is made
// with the bzip2 program (Debian package bzip2).
//go:generate sh -c "bzip2 -9 -c ../../testdata/pgn/small.pgn > ../../testdata/pgn/small.pgn.bz2"
