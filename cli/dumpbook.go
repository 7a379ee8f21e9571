package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/config"
)

var dumpBookCommand = command{
	name: "dump-book", summary: "write a book's lines for one colour as text (PolyGlot's dump-book)",
	usage: `usage: polyproxy dump-book BOOK [-color white|black] [-out FILE]
Lines end where the book does, at {trans: line=L, ply=P} (position met before) or {cycle: ply=P}.
`,
	required: []string{"bin"},
	args:     []operand{{flag: "bin", name: "BOOK"}},
	new:      func() options { return &dumpBookOptions{} },
}

type dumpBookOptions struct {
	bin, color, out string
	read            readFlags
}

func (o *dumpBookOptions) define(fs *flag.FlagSet) {
	fs.StringVar(&o.bin, "bin", "", "book `file` to read (or give it as the argument)")
	o.read.define(fs)
	fs.StringVar(&o.color, "color", "white", "dump the lines of `white|black`: that side's book moves with their shares, the other side's moves that the book answers")
	fs.StringVar(&o.out, "out", "", "write to `file` (replaced atomically; not an input) instead of stdout")
}

func (o *dumpBookOptions) validate(*commandLine) error {
	if o.color != "white" && o.color != "black" {
		return usageErrorf("-color must be white or black, not %q", o.color)
	}
	return nil
}

func (o *dumpBookOptions) files() (inputs, outputs []fileArg) {
	return []fileArg{{"-bin", o.bin}}, []fileArg{{"-out", o.out}}
}

func (o *dumpBookOptions) run(e *env) error {
	b, err := openChecked(e, o.bin, o.read.options())
	if err != nil {
		return err
	}
	defer b.Close()
	var res build.DumpResult
	err = writeOutput(e, o.out, func(w io.Writer) (err error) {
		res, err = build.Dump(w, b, o.bin, o.color == "white")
		return err
	})
	if err != nil {
		return err
	}
	if o.out != "" {
		fmt.Fprintf(e.stderr, "dump-book: %d lines for %s written to %s\n", res.Lines, o.color, o.out)
	}
	return nil
}

// writeOutput runs write on stdout, or on the file out, put in place
// once written (the command's only output).
func writeOutput(e *env, out string, write func(io.Writer) error) error {
	if out != "" {
		if err := e.outs.WriteFileFrom(out, write); err != nil {
			return err
		}
		return e.commit()
	}
	bw := bufio.NewWriter(e.stdout)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// openChecked opens a book whole for a command (formats.OpenWhole: a CTG
// book through its walk from the start position), reports its warnings
// on stderr and verifies the key order, so that lookups on an unsorted
// book stay exact (a command can afford one pass over the file).
func openChecked(e *env, path string, o formats.Options) (*book.Book, error) {
	b, err := formats.OpenWhole(path, o, 0)
	if err != nil {
		return nil, err
	}
	return checked(e, b), nil
}

// checked is b once its warnings are on stderr and its key order
// verified.
func checked(e *env, b *book.Book) *book.Book {
	warnBook(e, b, b.Warnings())
	if err := b.Verify(); err != nil {
		e.warnf("%v", err)
	}
	return b
}

// warnBook prints warnings of the book b, each naming the book (a
// Polyglot book's name their file already; an ABK or CTG book's do not).
func warnBook(e *env, b *book.Book, warnings []string) {
	for _, w := range warnings {
		if !strings.HasPrefix(w, b.Path()+": ") {
			w = b.Path() + ": " + w
		}
		e.warnf("%s", w)
	}
}

// readFlags are the settings of how a book's weights are read (config's
// ReadFlags: a CTG book's tournament mode and main-line preference), for
// a command that reads books.
type readFlags struct{ settings *config.Config }

func (r *readFlags) define(fs *flag.FlagSet) {
	r.settings = config.Default("")
	r.settings.ReadFlags(fs)
}

func (r *readFlags) options() formats.Options { return r.settings.ReadOptions() }
