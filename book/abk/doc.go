// Package abk is Arena's ABK book format beside the Polyglot one
// (book/polyglot): the 28-byte records and the header's settings, the walk
// over the tree of records that reads a book (Read, Open) into the entries
// every policy plays from, with what each move's records hold (MoveFacts),
// the weights Arena's settings give (as DroidFish's reader computes them),
// the writer (Write), and learning and editing in place (a move's Fields),
// which find every record through the reader's own walk. Format is the
// format (a book.Editor and book.Writer) as book/formats lists it.
package abk
