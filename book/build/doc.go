// Package build holds the jobs that read or write whole books: make a
// book from PGN games (Builder, byte for byte PolyGlot's make-book), merge
// two books (Merge), compile a text list of lines (CompileText) and dump a
// book's lines as text (Dump).
package build

//go:generate go test -run TestRandomPGNUpToDate -write-random-pgn .
