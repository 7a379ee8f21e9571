package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// The pages cannot drift from the program: every command a page shows
// with its output is run, and its output must be what the page shows.
//
// A transcript is a code block (indented or fenced) whose first line
// starts with "$ ": each "$ polyproxy ..." line is a command, run as
// polyproxy in a fresh folder, and the lines after it, up to the next
// "$ " line, are what it prints, stderr and stdout as a terminal shows
// them. "$ printf 'uci\n' | polyproxy ..." gives the command that input,
// as a GUI would. A line "..." stands for any lines. Paths of the folder
// and timings ("0.01s") are normalised, and blanks at a line's end are
// not compared (a page keeps none). A JSON object, which a command prints
// on one line, may be shown wrapped: shown output starting with "{" is
// one line, its lines joined without their leading blanks, and in it
// "..." stands for any text.
//
// A comment before a transcript says what it needs, in words separated
// by blanks:
//
//	<!-- doc-test: dir=/home/me games.pgn=testdata/learn/games.pgn fake=/usr/games/stockfish -->
//
// dir is the folder the page shows the command run in (its paths are
// said as under it); NAME=testdata/... copies a file of the repository
// into the folder as NAME; fake=PROGRAM gives the fake engine
// (uci/ucitest) where the page shows PROGRAM. A code block after the
// comment <!-- doc-file: NAME --> is a file the page shows (an ini): it
// is written as NAME for every transcript after it on the page.
//
// A block that shows a command's output without the command (a line
// "make-book: ..." or "polyproxy: ...", or the proxy's "info string ...",
// "bestmove ...") is refused: make it a transcript.

// docPages are the pages whose transcripts are run.
func docPages(t *testing.T) []string {
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	man, _ := filepath.Glob("docs/man/*.md")
	return append(append([]string{"README.md"}, pages...), man...)
}

// docBlock is a code block of a page.
type docBlock struct {
	line  int // where it starts, for messages
	lines []string
	setup string // the doc-test comment before it ("": none)
	file  string // the doc-file comment before it ("": none)
}

// docComment is a doc-test or doc-file comment.
var docComment = regexp.MustCompile(`^<!-- doc-(test|file): (.*) -->$`)

// docBlocks are the code blocks of a page, each with the comment before
// it.
func docBlocks(page string) []docBlock {
	lines := strings.Split(page, "\n")
	var blocks []docBlock
	var setup, file string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := docComment.FindStringSubmatch(l); m != nil {
			if m[1] == "test" {
				setup = m[2]
			} else {
				file = m[2]
			}
			continue
		}
		var b []string
		start := i + 1
		switch {
		case strings.HasPrefix(l, "```"):
			j := i + 1
			for j < len(lines) && !strings.HasPrefix(lines[j], "```") {
				j++
			}
			b, i = lines[i+1:min(j, len(lines))], j
		case strings.HasPrefix(l, "    ") && (i == 0 || strings.TrimSpace(lines[i-1]) == "" || docComment.MatchString(lines[i-1])):
			j := i
			for j < len(lines) && (strings.HasPrefix(lines[j], "    ") || strings.TrimSpace(lines[j]) == "" && j+1 < len(lines) && strings.HasPrefix(lines[j+1], "    ")) {
				j++
			}
			for _, x := range lines[i:j] {
				b = append(b, strings.TrimPrefix(x, "    "))
			}
			i = j - 1
		default:
			continue
		}
		blocks = append(blocks, docBlock{line: start, lines: b, setup: setup, file: file})
		setup, file = "", ""
	}
	return blocks
}

// isTranscript tells whether b shows commands with their output.
func (b docBlock) isTranscript() bool { return len(b.lines) > 0 && strings.HasPrefix(b.lines[0], "$ ") }

// toolOutput is a line a command prints, as shown without the command:
// a tool's message, the proxy's answer to a GUI, probe's report (its
// heading, its tables, its JSON object) and info-book's aligned lines.
var toolOutput = regexp.MustCompile(`^(polyproxy|probe|info-book|dump-book|make-book|sum-counts|convert-book|merge-book|book-to-pgn|book-to-openings|compile-book|learn|explore): |^(info string|bestmove|tellusererror|id name) ` +
	`|^(book|fen|key): |^[A-Za-z][A-Za-z ]* position: |^ *move +(raw|annotation|priority) |^\{"key":"|^[A-Za-z][A-Za-z ]*: {2,}\S`)

func TestDocTranscripts(t *testing.T) {
	covered := 0
	for _, page := range docPages(t) {
		text := string(fixture.ReadFile(t, page))
		files := map[string]string{} // the page's doc-files so far
		for _, b := range docBlocks(text) {
			switch {
			case b.file != "":
				files[b.file] = strings.Join(b.lines, "\n") + "\n"
			case b.isTranscript():
				covered++
				t.Run(filepath.Base(page)+":"+strconv.Itoa(b.line), func(t *testing.T) { runTranscript(t, page, b, files) })
			default:
				for _, l := range b.lines {
					if toolOutput.MatchString(l) {
						t.Errorf("%s:%d shows output without its command (make it a transcript): %q", page, b.line, l)
					}
				}
			}
		}
	}
	if covered == 0 {
		t.Fatal("no transcript found")
	}
}

// runTranscript runs a transcript's commands and compares what they print
// with what the page shows.
func runTranscript(t *testing.T, page string, b docBlock, pageFiles map[string]string) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	shownDir, fake := "", ""
	for _, w := range strings.Fields(b.setup) {
		name, value, ok := strings.Cut(w, "=")
		switch {
		case !ok:
			t.Fatalf("%s:%d: doc-test %q: want NAME=VALUE", page, b.line, w)
		case name == "dir":
			shownDir = value
		case name == "fake":
			fake = value
		default:
			writeDocFile(t, dir, name, fixture.ReadFile(t, filepath.Join(root, value)))
		}
	}
	fakePath := ""
	if fake != "" {
		fakePath = testenv.FakeEngine(t)
	}
	for name, text := range pageFiles {
		if fake != "" {
			text = strings.ReplaceAll(text, fake, fakePath)
		}
		writeDocFile(t, dir, name, []byte(text))
	}
	t.Chdir(dir)
	normal := docNormaliser(dir, shownDir, fakePath, fake)
	for _, c := range transcriptCommands(b.lines) {
		args, stdin, ok := parseDocCommand(c.command)
		if !ok {
			t.Errorf("%s:%d: %q is not a polyproxy command this test can run", page, b.line, c.command)
			continue
		}
		for i, a := range args {
			if fake != "" {
				a = strings.ReplaceAll(a, fake, fakePath)
			}
			if shownDir != "" {
				a = strings.ReplaceAll(a, shownDir, dir)
			}
			args[i] = a
		}
		var out lockedBuffer
		Run(args, strings.NewReader(stdin), &out, &out)
		got := strings.Split(strings.TrimSuffix(normal(out.buf.String()), "\n"), "\n")
		want := make([]string, len(c.output))
		for i, l := range c.output {
			want[i] = normal(l)
		}
		if len(want) > 0 && strings.HasPrefix(want[0], "{") {
			want = []string{joinWrapped(want)}
		}
		if !linesShown(got, want) {
			t.Errorf("%s:%d: $ %s\nthe page shows\n%s\nthe program prints\n%s", page, b.line, c.command, strings.Join(c.output, "\n"), strings.Join(got, "\n"))
		}
	}
}

// writeDocFile writes a file a transcript needs into dir.
func writeDocFile(t *testing.T, dir, name string, data []byte) {
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// docNormaliser is how a transcript's output and the page's are made
// comparable: the test's folder said as the page's, the fake engine as
// the program the page names, every timing as T.
func docNormaliser(dir, shownDir, fakePath, fake string) func(string) string {
	timing := regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?(ns|µs|ms|s)\b`)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	return func(s string) string {
		for _, d := range []string{dir, real} {
			if shownDir == "" {
				s = strings.ReplaceAll(s, d+string(filepath.Separator), "")
			}
			s = strings.ReplaceAll(s, d, shownDir)
		}
		if fakePath != "" {
			s = strings.ReplaceAll(s, fakePath, fake)
		}
		return timing.ReplaceAllString(s, "T")
	}
}

// docCommand is one command of a transcript and the output shown.
type docCommand struct {
	command string
	output  []string
}

func transcriptCommands(lines []string) []docCommand {
	var cs []docCommand
	for _, l := range lines {
		if c, ok := strings.CutPrefix(l, "$ "); ok {
			cs = append(cs, docCommand{command: c})
			continue
		}
		cs[len(cs)-1].output = append(cs[len(cs)-1].output, l)
	}
	for i := range cs {
		for len(cs[i].output) > 0 && cs[i].output[len(cs[i].output)-1] == "" {
			cs[i].output = cs[i].output[:len(cs[i].output)-1]
		}
	}
	return cs
}

// parseDocCommand reads "polyproxy ARGS" or "printf 'INPUT' | polyproxy
// ARGS" as a shell does (words, '...' and "..." quotes).
func parseDocCommand(line string) (args []string, stdin string, ok bool) {
	words, ok := shellWords(line)
	if !ok {
		return nil, "", false
	}
	if len(words) > 2 && words[0] == "printf" && words[2] == "|" {
		stdin = strings.ReplaceAll(words[1], `\n`, "\n")
		words = words[3:]
	}
	if len(words) == 0 || words[0] != "polyproxy" || slices.Contains(words, "|") {
		return nil, "", false
	}
	return words[1:], stdin, true
}

// shellWords splits line into words as a shell does, for the quotes a
// page uses.
func shellWords(line string) ([]string, bool) {
	var words []string
	var w strings.Builder
	in, quote := false, rune(0)
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words, quote == 0
}

// linesShown tells whether got are the lines want shows, a want line
// "..." standing for any lines.
func linesShown(got, want []string) bool {
	if len(want) == 0 {
		return len(got) == 0 || len(got) == 1 && got[0] == ""
	}
	if want[0] == "..." {
		for i := 0; i <= len(got); i++ {
			if linesShown(got[i:], want[1:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && lineShown(strings.TrimRight(got[0], " "), want[0]) && linesShown(got[1:], want[1:])
}

// lineShown tells whether got is the line want shows: in a JSON object,
// "..." stands for any text.
func lineShown(got, want string) bool {
	if !strings.HasPrefix(want, "{") {
		return got == want
	}
	parts := strings.Split(want, "...")
	rest, ok := strings.CutPrefix(got, parts[0])
	if !ok {
		return false
	}
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return len(parts) == 1 && rest == "" || len(parts) > 1 && strings.HasSuffix(rest, parts[len(parts)-1])
}

// joinWrapped is the one line a page shows wrapped over lines.
func joinWrapped(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimLeft(l, " "))
	}
	return b.String()
}
