// Package polyglot is the Polyglot opening book format, beside ABK's and
// CTG's (book/abk, book/ctg): the format every book decision reads its
// entries in.
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
// Here are the entry's bytes (DecodeEntry, PutEntry), the book as an
// opened, memory-mapped file (Open: a book.Book over the file as a
// book.Table) with its checks (Verify through book.Book, Scan, the
// header), the writer (WriteFile; Format.Write into a book.Batch), and
// learning and editing in place (Format.Learn, Format.Edit), each update
// found by the search the reader makes. Format is the format as
// book/formats lists it.
package polyglot
