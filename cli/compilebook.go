package cli

import (
	"flag"
	"fmt"
	"os"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
)

var compileBookCommand = command{
	name: "compile-book", summary: "compile a text book (one line of from-to moves per variation) into a book",
	usage: `usage: polyproxy compile-book TEXT -bin OUT      (or -txt TEXT)
One variation per line from the start position: e2e4 e7e5 g1f3 b8c6 f1b5 (Spanish).
Castling as the king's move (e1g1); e7e8 promotes to a queen, e7e8n to a knight;
f2f4? or f2f4x: known, never played (weight 0), the line goes on; '(' comments to the
end of the line; '#' first makes a comment line. Weight = number of lines playing the
move in that position. Every error is reported with line:column; then nothing is written.
`,
	required: []string{"txt", "bin"},
	args:     []operand{{flag: "txt", name: "TEXT"}},
	new:      func() options { return &compileBookOptions{} },
}

type compileBookOptions struct{ txt, out string }

func (o *compileBookOptions) define(fs *flag.FlagSet) {
	fs.StringVar(&o.txt, "txt", "", "text book `file` (or give it as the argument)")
	fs.StringVar(&o.out, "bin", "", "book `file` to write (replaced atomically; not an input)")
}

func (o *compileBookOptions) validate(*commandLine) error { return nil }

func (o *compileBookOptions) files() (inputs, outputs []fileArg) {
	return []fileArg{{"-txt", o.txt}}, []fileArg{{"-bin", o.out}}
}

func (o *compileBookOptions) run(e *env) error {
	f, err := os.Open(o.txt)
	if err != nil {
		return err
	}
	defer f.Close()
	entries, st, problems, err := build.CompileText(f)
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "%s:%s\n", o.txt, p.Error())
	}
	if err != nil {
		return fmt.Errorf("%s: %w; nothing written", o.txt, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%d error(s); nothing written", len(problems))
	}
	if _, err := writeBook(e, formats.ByExt(".bin"), o.out, book.FromEntries(o.out, entries), formats.MaxPly); err != nil {
		return err
	}
	if err := e.commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "compile-book: %d lines, %d moves, %d entries (%d never played) written to %s\n",
		st.Lines, st.Moves, len(entries), st.NeverPlay, o.out)
	return nil
}
