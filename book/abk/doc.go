// Package abk is Arena's ABK book format beside the Polyglot one (package
// book): the 28-byte records and the header's settings, the walk over the
// tree of records that reads a book (Read, Open) into the Polyglot book
// every policy plays from, the weights Arena's settings give (as
// DroidFish's reader computes them), the writer (Write) and learning in
// place, which finds every record through the reader's own walk. Format
// is the format (a book.Learner) as book/formats lists it.
package abk
