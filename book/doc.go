// Package book is what every book format gives the one book decision, and
// the decision itself.
//
// A format's reader opens a file as a Book: its positions' moves as
// entries (Entry: a position's key, the move as stored, a weight and a
// learn field, as the Polyglot format has them), from a Source the format
// provides: a table sorted by key (a Polyglot file mapped, a book read
// whole into memory), or a reader that finds a position's moves by the
// position itself (CTG). A Format (book/polyglot, book/abk, book/ctg)
// says how files of it are recognised, opened, learned into in place
// (Learner, through LearnFile, under the file's lock, each update where
// its own reader reads it), edited (Editor) and written (Writer, into a
// Batch: the one way the tools replace files). book/formats lists them.
//
// The decision (Chooser) answers, for a position, the books of its side
// and the rules (Options), which book answers and with what: every entry
// judged, its share, its chance under the mode's Policy, and the move a
// game plays, drawn by exactly those chances (Decision). The proxy, probe
// and explore all show it. The rules of chess, and the types every format
// shares (board.Key, board.Move), are below in book/board; whole-book
// jobs (make, merge, compile, dump) are in book/build, the PGN reader in
// book/pgn.
package book

//go:generate go test -run TestFixturesUpToDate -update-fixtures .
