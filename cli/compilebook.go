package cli

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/build"
)

func runCompileBook(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compile-book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	txt := fs.String("txt", "", "text book `file`")
	out := fs.String("bin", "", "book `file` to write (replaced atomically; not an input)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy compile-book -txt FILE -bin OUT")
		fmt.Fprintln(stderr, "One variation per line from the start position: e2e4 e7e5 g1f3 b8c6 f1b5 (Spanish).")
		fmt.Fprintln(stderr, "Castling as the king's move (e1g1); e7e8 promotes to a queen, e7e8n to a knight;")
		fmt.Fprintln(stderr, "f2f4? or f2f4x: known, never played (weight 0), the line goes on; '(' comments to the")
		fmt.Fprintln(stderr, "end of the line; '#' first makes a comment line. Weight = number of lines playing the")
		fmt.Fprintln(stderr, "move in that position. Every error is reported with line:column; then nothing is written.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, "txt", "bin"); err != nil {
		return err
	}
	if err := checkOutputs([]fileArg{{"-txt", *txt}}, []fileArg{{"-bin", *out}}); err != nil {
		return err
	}
	f, err := os.Open(*txt)
	if err != nil {
		return err
	}
	defer f.Close()
	entries, st, problems, err := build.CompileText(f)
	for _, p := range problems {
		fmt.Fprintf(stderr, "%s:%s\n", *txt, p.Error())
	}
	if err != nil {
		return fmt.Errorf("%s: %v; nothing written", *txt, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%d error(s); nothing written", len(problems))
	}
	if err := book.WriteFile(*out, entries); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "compile-book: %d lines, %d moves, %d entries (%d never played) written to %s\n",
		st.Lines, st.Moves, len(entries), st.NeverPlay, *out)
	return nil
}
