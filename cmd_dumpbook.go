package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/polyproxy/polyproxy/book"
)

func init() {
	register("dump-book", "write a book's lines for one colour as text (PolyGlot's dump-book)", runDumpBook)
}

func runDumpBook(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dump-book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bin := fs.String("bin", "", "book `file` to read")
	color := fs.String("color", "white", "dump the lines of `white|black`: that side's book moves with their shares, the other side's moves that the book answers")
	out := fs.String("out", "", "write to `file` instead of stdout")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy dump-book -bin FILE [-color white|black] [-out FILE]")
		fmt.Fprintln(stderr, "Lines end where the book does, at {trans: line=L, ply=P} (position met before) or {cycle: ply=P}.")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr, "bin"); !ok {
		return code
	}
	var white bool
	switch *color {
	case "white":
		white = true
	case "black":
	default:
		fmt.Fprintf(stderr, "dump-book: -color must be white or black, not %q\n", *color)
		return 2
	}
	b, err := openChecked(*bin, stderr, "dump-book")
	if err != nil {
		return 1
	}
	defer b.Close()

	w := stdout
	var f *os.File
	if *out != "" {
		if f, err = os.Create(*out); err != nil {
			fmt.Fprintln(stderr, "dump-book:", err)
			return 1
		}
		w = f
	}
	res, err := book.Dump(w, b, *bin, white)
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "dump-book:", err)
		return 1
	}
	if f != nil {
		fmt.Fprintf(stderr, "dump-book: %d lines for %s written to %s\n", res.Lines, *color, *out)
	}
	return 0
}

// openChecked opens a book for a command, reports its warnings on stderr
// and verifies the key order, so that lookups on an unsorted book stay
// exact (a command can afford one pass over the file).
func openChecked(path string, stderr io.Writer, cmd string) (*book.Book, error) {
	b, err := book.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		return nil, err
	}
	for _, w := range b.Warnings() {
		fmt.Fprintf(stderr, "%s: warning: %s\n", cmd, w)
	}
	if err := b.Verify(); err != nil {
		fmt.Fprintf(stderr, "%s: warning: %v\n", cmd, err)
	}
	return b, nil
}
