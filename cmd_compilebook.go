package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/polyproxy/polyproxy/book"
)

func init() {
	register("compile-book", "compile a text book (one line of from-to moves per variation) into a book", runCompileBook)
}

func runCompileBook(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compile-book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	txt := fs.String("txt", "", "text book `file`")
	out := fs.String("bin", "", "book `file` to write (replaced atomically)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy compile-book -txt FILE -bin OUT")
		fmt.Fprintln(stderr, "One variation per line from the start position: e2e4 e7e5 g1f3 b8c6 f1b5 (Spanish).")
		fmt.Fprintln(stderr, "Castling as the king's move (e1g1); e7e8 promotes to a queen, e7e8n to a knight;")
		fmt.Fprintln(stderr, "f2f4? or f2f4x: known, never played (weight 0), the line goes on; '(' comments to the")
		fmt.Fprintln(stderr, "end of the line; '#' first makes a comment line. Weight = number of lines playing the")
		fmt.Fprintln(stderr, "move in that position. Every error is reported with line:column; then nothing is written.")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr, "txt", "bin"); !ok {
		return code
	}
	f, err := os.Open(*txt)
	if err != nil {
		fmt.Fprintf(stderr, "compile-book: %v\n", err)
		return 1
	}
	defer f.Close()
	entries, st, problems, err := book.CompileTextBook(f)
	for _, p := range problems {
		fmt.Fprintf(stderr, "%s:%s\n", *txt, p.Error())
	}
	if err != nil {
		fmt.Fprintf(stderr, "compile-book: %s: %v; nothing written\n", *txt, err)
		return 1
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "compile-book: %d error(s); nothing written\n", len(problems))
		return 1
	}
	if err := book.WriteBook(*out, entries); err != nil {
		fmt.Fprintf(stderr, "compile-book: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "compile-book: %d lines, %d moves, %d entries (%d never played) written to %s\n",
		st.Lines, st.Moves, len(entries), st.NeverPlay, *out)
	return 0
}
