package cli

import (
	"flag"
	"fmt"
	"io"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
)

func runDumpBook(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dump-book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bin := fs.String("bin", "", "book `file` to read")
	color := fs.String("color", "white", "dump the lines of `white|black`: that side's book moves with their shares, the other side's moves that the book answers")
	out := fs.String("out", "", "write to `file` (replaced atomically; not an input) instead of stdout")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy dump-book -bin FILE [-color white|black] [-out FILE]")
		fmt.Fprintln(stderr, "Lines end where the book does, at {trans: line=L, ply=P} (position met before) or {cycle: ply=P}.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, "bin"); err != nil {
		return err
	}
	if err := checkOutputs([]fileArg{{"-bin", *bin}}, []fileArg{{"-out", *out}}); err != nil {
		return err
	}
	var white bool
	switch *color {
	case "white":
		white = true
	case "black":
	default:
		return usageErrorf("-color must be white or black, not %q", *color)
	}
	b, err := openChecked(*bin, stderr, "dump-book")
	if err != nil {
		return err
	}
	defer b.Close()

	var res build.DumpResult
	dump := func(w io.Writer) (err error) {
		res, err = build.Dump(w, b, *bin, white)
		return err
	}
	if *out == "" {
		err = dump(stdout)
	} else {
		err = book.WriteFileFrom(*out, dump)
	}
	if err != nil {
		return err
	}
	if *out != "" {
		fmt.Fprintf(stderr, "dump-book: %d lines for %s written to %s\n", res.Lines, *color, *out)
	}
	return nil
}

// openChecked opens a book for a command, reports its warnings on stderr
// and verifies the key order, so that lookups on an unsorted book stay
// exact (a command can afford one pass over the file).
func openChecked(path string, stderr io.Writer, cmd string) (*book.Book, error) {
	b, err := formats.Open(path)
	if err != nil {
		return nil, err
	}
	for _, w := range b.Warnings() {
		warnf(stderr, cmd, "%s", w)
	}
	if err := b.Verify(); err != nil {
		warnf(stderr, cmd, "%v", err)
	}
	return b, nil
}
