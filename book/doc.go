// Package book is the Polyglot opening book format, and choosing a move
// from it.
//
// A book is a file of 16-byte entries, all fields big-endian: the 64-bit
// key of a position (the XOR of the format's Random64 numbers for its
// pieces, castling rights, en-passant file and side to move), the move as
// a 16-bit code (to-file, to-row, from-file, from-row in 3 bits each, then
// a promotion piece; castling stored king-takes-rook, e1h1), a 16-bit
// weight, and a 32-bit learn field (games played in the high 16 bits,
// points in half points in the low 16). Entries are sorted by key, so a
// position's moves lie together and are found by search; optional
// entries of key 0 at the start hold an "@PG@" text header.
//
// Here are the format's values (Entry, Learn), the book as an opened,
// memory-mapped file (Open, Book) with its checks (Verify, Scan, Header),
// the writer (WriteFile), the in-place update of learn fields that many
// processes may share (LearnFile), and the one book decision: the choice
// of a book move for a position (Chooser) and its policies.
//
// A Book is also what every other format gives that decision: a Format
// (book/abk's ABK, ...) reads its files into a Book held in memory
// (InMemory) and learns into them through LearnFile, each update where
// its own reader reads it. book/formats lists the formats and opens a book
// of any of them, told by its content. The rules of chess, and the types
// every format shares (board.Key, board.Move, board.Square), are below it
// in book/board. Whole-book jobs (make, merge, compile, dump) are in
// book/build, the PGN reader in book/pgn.
package book

//go:generate go test -run TestFixturesUpToDate -update-fixtures .
