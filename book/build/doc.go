// Package build holds the jobs that read or write whole books: make a
// book from PGN games (Builder, byte for byte PolyGlot's make-book, on
// one goroutine or several with the same result, in bounded memory with
// sorted runs in temporary files when the counts outgrow it), count games into
// counts files that add up exactly across machines and make a book from
// them (WriteCounts, SumCounts, FromCounts), merge two books (Merge),
// compile a text list of lines (CompileText), dump a book's lines as text
// (Dump), and write a book's tree as PGN or an opening suite (TreeToPGN,
// TreeLines, Openings).
package build

//go:generate go test -run TestRandomPGNUpToDate -write-random-pgn .
