// Command bench measures polyproxy side by side with PolyGlot on the same
// engine, book and machine, and prints one table (medians, p99, the ratio
// polyproxy/PolyGlot). Run it from the repository root:
//
//	go run ./bench [-rounds N] [-json FILE] [-md FILE] [-readme docs/benchmarks.md]
//
// Sides are measured alternately, A B A B, so machine drift hits both. A
// side that cannot be measured (not installed, fails, hangs) shows as n/a
// with the reason; the rest of the table is still measured.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

type config struct {
	rounds         int
	makeBookRounds int
	only           string
	polyproxy      string
	polyglot       string
	engine         string
	book           string
	pgn            string
	pgnCopies      int
	chess960Games  int
	pgnLargeCopies int
	lichessGames   int
	boundedGames   int
	boundedMemory  string
	hostileComment int64
	hostilePlies   int
	hostileGames   int
	hostileMemory  string
	probeEntries   int
	workdir        string
	jsonOut        string
	mdOut          string
	readme         string
	// The learning benchmark (learngain, learngainhost).
	learnGainSVG       string
	learnGainMD        string
	cutechess          string
	learnGainHostGames int
	learnGainHostNodes int
	learnGainHostSkill int
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == fakeEngineArg {
		os.Exit(runFakeEngine(os.Args[2:], os.Stdin, os.Stdout))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// measurement is one row group of the table, named as -only names it.
type measurement struct {
	name    string
	measure func(*runner)
}

// optIn are the measurements run only when -only names them: the
// learning benchmark's, not side-by-side rows of the table.
var optIn = map[string]bool{"learngain": true, "learngainhost": true}

// measurements are the measurements in the order they run and the table
// lists them.
var measurements = []measurement{
	{"book", (*runner).measureBookAnswer},
	{"relay", (*runner).measureRelay},
	{"xboard", (*runner).measureXboard},
	{"startup", (*runner).measureStartup},
	{"flood", (*runner).measureFlood},
	{"makebook", (*runner).measureMakeBook},
	{"makebook960", (*runner).measureMakeBook960},
	{"makebooklichess", (*runner).measureMakeBookLichess},
	{"makebookbounded", (*runner).measureMakeBookBounded},
	{"makebookhostile", (*runner).measureMakeBookHostile},
	{"probe", (*runner).measureProbe},
	{"abk", (*runner).measureABK},
	{"ctg", (*runner).measureCTG},
	{"learngain", (*runner).measureLearnGain},
	{"learngainhost", (*runner).measureLearnGainHost},
}

// measurementNames is the -only list of every measurement run by
// default (all but the opt-in ones), or of all.
func measurementNames(all bool) string {
	var names []string
	for _, m := range measurements {
		if all || !optIn[m.name] {
			names = append(names, m.name)
		}
	}
	return strings.Join(names, ",")
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, selected, ok := parseConfig(args, stderr)
	if !ok {
		return 2
	}
	r, err := newRunner(cfg, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	started := time.Now()
	r.measureSelected(selected)
	r.machine.Duration = time.Since(started).Round(time.Second).String()

	md := r.markdown()
	fmt.Fprint(stdout, md)
	if err := r.writeResults(md); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	return 0
}

// parseConfig reads the command line and the measurements it selects; it
// has told stderr why when it returns false.
func parseConfig(args []string, stderr io.Writer) (cfg config, selected map[string]bool, ok bool) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&cfg.rounds, "rounds", 20, "rounds; each round measures every side once (A B A B ...)")
	fs.IntVar(&cfg.makeBookRounds, "makebook-rounds", 3, "rounds for make-book, which takes seconds per run")
	fs.StringVar(&cfg.only, "only", measurementNames(false), "measurements to run, comma-separated (learngain, the learning benchmark's simulation, and learngainhost, its real run, only when named)")
	fs.StringVar(&cfg.polyproxy, "polyproxy", "", "polyproxy binary (default: built from this checkout into -workdir)")
	fs.StringVar(&cfg.polyglot, "polyglot", "/usr/games/polyglot", "PolyGlot binary (Debian package polyglot)")
	fs.StringVar(&cfg.engine, "engine", "/usr/games/stockfish", "UCI engine (Debian package stockfish)")
	fs.StringVar(&cfg.book, "book", "/usr/share/games/gnuchess/book.bin", "opening book (Debian package gnuchess-book)")
	fs.StringVar(&cfg.pgn, "pgn", "../shared/pgn/8moves_v3.pgn", "PGN for make-book (the Stockfish project's 8moves_v3.pgn)")
	fs.IntVar(&cfg.pgnCopies, "pgn-copies", 4, "make-book also runs on this many copies of -pgn concatenated, to show growth")
	fs.IntVar(&cfg.pgnLargeCopies, "pgn-large-copies", 30, "and on this many copies (30: 1,041,000 games, a database's size; 0 skips it), also zstd-compressed")
	fs.IntVar(&cfg.chess960Games, "chess960-games", 34_700, "make-book on this many random Chess960 games beside as many random standard games")
	fs.IntVar(&cfg.lichessGames, "lichess-games", 300_000, "make-book on this many generated lichess-style games (internal/lichessgames), streamed through stdin, beside PolyGlot")
	fs.IntVar(&cfg.boundedGames, "bounded-games", 3_000_000, "make-book -memory on this many generated games streamed through stdin as they are drawn, against the counts recipe")
	fs.StringVar(&cfg.boundedMemory, "bounded-memory", "256M", "the -memory of the bounded make-book run")
	fs.Int64Var(&cfg.hostileComment, "hostile-comment", 200<<20, "bytes of the comment in the hostile make-book inputs")
	fs.IntVar(&cfg.hostilePlies, "hostile-plies", 20_000, "plies of the hostile make-book input's long game")
	fs.IntVar(&cfg.hostileGames, "hostile-games", 1_000_000, "one-ply games in the hostile make-book input")
	fs.StringVar(&cfg.hostileMemory, "hostile-memory", "48M", "the -memory of make-book on the hostile inputs")
	fs.IntVar(&cfg.probeEntries, "probe-entries", 10_000_000, "entries in the generated book for the probe measurements")
	fs.StringVar(&cfg.learnGainSVG, "learngain-svg", filepath.Join("docs", "images", "learngain.svg"), "the learning benchmark's plot")
	fs.StringVar(&cfg.learnGainMD, "learngain-md", "", "also write the learning benchmark's tables to this file")
	fs.StringVar(&cfg.cutechess, "cutechess", "cutechess-cli", "cutechess-cli (a path, or a name looked up in PATH), for learngainhost")
	fs.IntVar(&cfg.learnGainHostGames, "learngain-games", 400, "games of each learngainhost match (learning on, off)")
	fs.IntVar(&cfg.learnGainHostNodes, "learngain-nodes", 1500, "nodes a move for both engines in learngainhost")
	fs.IntVar(&cfg.learnGainHostSkill, "learngain-skill", 15, "Stockfish's Skill Level for both engines in learngainhost (below 20 the games differ)")
	fs.StringVar(&cfg.workdir, "workdir", filepath.Join("bench", "out"), "scratch folder: built binaries, ini files, generated books")
	fs.StringVar(&cfg.jsonOut, "json", "", "also write all results, with samples, as JSON to this file")
	fs.StringVar(&cfg.mdOut, "md", "", "also write the markdown table to this file")
	fs.StringVar(&cfg.readme, "readme", "", "replace the text between <!-- bench:begin --> and <!-- bench:end --> in this file with the table")
	if err := fs.Parse(args); err != nil {
		return cfg, nil, false
	}
	if fs.NArg() > 0 || cfg.rounds < 1 || cfg.makeBookRounds < 1 {
		fmt.Fprintln(stderr, "bench: unexpected arguments; see -h")
		return cfg, nil, false
	}
	selected = map[string]bool{}
	for _, m := range strings.Split(cfg.only, ",") {
		m = strings.TrimSpace(m)
		if !slices.ContainsFunc(measurements, func(x measurement) bool { return x.name == m }) {
			fmt.Fprintf(stderr, "bench: unknown measurement %q (have %s)\n", m, measurementNames(true))
			return cfg, nil, false
		}
		selected[m] = true
	}
	return cfg, selected, true
}

// measureSelected runs the selected measurements in their order, logging
// how long each took.
func (r *runner) measureSelected(selected map[string]bool) {
	for _, m := range measurements {
		if !selected[m.name] {
			continue
		}
		r.logf("== %s", m.name)
		t0 := time.Now()
		m.measure(r)
		r.logf("   %s took %v", m.name, time.Since(t0).Round(time.Millisecond))
	}
}

// writeResults writes the table md and the results to the files the
// command line names (-md, -readme, -json).
func (r *runner) writeResults(md string) error {
	if r.cfg.mdOut != "" {
		if err := os.WriteFile(r.cfg.mdOut, []byte(md), 0o644); err != nil {
			return err
		}
	}
	if r.cfg.readme != "" {
		if err := replaceBetweenMarkers(r.cfg.readme, md); err != nil {
			return err
		}
	}
	if r.cfg.jsonOut == "" {
		return nil
	}
	b, err := json.MarshalIndent(struct {
		Machine machine   `json:"machine"`
		Results []*result `json:"results"`
	}{r.machine, r.results}, "", "  ")
	if err == nil {
		err = os.WriteFile(r.cfg.jsonOut, append(b, '\n'), 0o644)
	}
	return err
}

// runner holds what every measurement needs: the binaries, where to put
// scratch files, and the results so far.
type runner struct {
	cfg     config
	log     io.Writer
	workdir string
	// ppErr and pgErr say why a side cannot run at all (not built, not
	// installed); every measurement of that side is then n/a with it.
	ppBin, ppErr string
	pgBin, pgErr string
	engine       []string
	engineErr    string
	fake         []string // our own binary as a trivial engine
	gnuTime      string   // /usr/bin/time when it is GNU time, for peak memory
	machine      machine
	results      []*result
	iniCount     int
}

func newRunner(cfg config, log io.Writer) (*runner, error) {
	r := &runner{cfg: cfg, log: log}
	wd, err := filepath.Abs(cfg.workdir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(wd, 0o755); err != nil {
		return nil, err
	}
	r.workdir = wd
	// Tools run in workdir and adapters read paths from an ini there.
	for _, p := range []*string{&r.cfg.book, &r.cfg.pgn} {
		if abs, err := filepath.Abs(*p); err == nil {
			*p = abs
		}
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find our own binary for the fake engine: %w", err)
	}
	r.fake = []string{self, fakeEngineArg}

	r.ppBin, r.ppErr = r.findPolyproxy()
	r.pgBin, r.pgErr = findProgram(cfg.polyglot, "PolyGlot", "apt-get install polyglot")
	var engineBin string
	engineBin, r.engineErr = findProgram(cfg.engine, "the engine", "apt-get install stockfish")
	r.engine = []string{engineBin}
	r.gnuTime = findGNUTime()
	r.machine = describeMachine(r)
	for _, e := range []struct{ what, err string }{{"polyproxy", r.ppErr}, {"PolyGlot", r.pgErr}, {"engine", r.engineErr}} {
		if e.err != "" {
			r.logf("note: %s unavailable: %s", e.what, e.err)
		}
	}
	return r, nil
}

// releaseBuild is how .goreleaser.yaml builds the binaries users get, and
// so how the runner builds the one it measures: without cgo (with a C
// compiler at hand, go build would link explore's net package against the
// C library: a dynamically linked binary that no release ships, 1.7 MB
// more resident and slower to start), paths trimmed, no symbol table or
// DWARF (never loaded, so they change neither figure).
var releaseBuild = struct {
	env, flags []string
	summary    string
}{
	env:     []string{"CGO_ENABLED=0"},
	flags:   []string{"-trimpath", "-ldflags=-s -w"},
	summary: "built as the release is (CGO_ENABLED=0, -trimpath, -ldflags=\"-s -w\")",
}

// findPolyproxy builds polyproxy from the checkout we run in, as the
// release is built, unless a binary was given.
func (r *runner) findPolyproxy() (bin, why string) {
	if r.cfg.polyproxy != "" {
		return findProgram(r.cfg.polyproxy, "polyproxy", "build it with go build")
	}
	bin = filepath.Join(r.workdir, "polyproxy")
	if isWindows() {
		bin += ".exe"
	}
	r.logf("building polyproxy into %s (%s)", bin, releaseBuild.summary)
	args := append(append([]string{"build"}, releaseBuild.flags...), "-o", bin, "github.com/polyproxy/polyproxy")
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), releaseBuild.env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Sprintf("go build failed: %v: %s", err, firstLines(string(out), 3))
	}
	return bin, ""
}

func findProgram(path, what, hint string) (string, string) {
	p, err := exec.LookPath(path)
	if err != nil {
		return "", fmt.Sprintf("%s not found at %s (%s)", what, path, hint)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return p, ""
	}
	return abs, ""
}

// writeIni writes a polyglot.ini that both adapters read, so they run the
// same engine with the same book settings. BookRandom=false makes both
// answer the highest-weight move, which the runner checks.
func (r *runner) writeIni(engine []string, bookFile string) (string, error) {
	r.iniCount++
	path := filepath.Join(r.workdir, fmt.Sprintf("bench-%d.ini", r.iniCount))
	var b strings.Builder
	fmt.Fprintf(&b, "; written by go run ./bench: the same file for polyproxy and PolyGlot\n[PolyGlot]\n")
	fmt.Fprintf(&b, "EngineDir = %s\n", r.workdir)
	fmt.Fprintf(&b, "EngineCommand = %s\n", strings.Join(engine, " "))
	fmt.Fprintf(&b, "Log = false\n")
	if bookFile != "" {
		fmt.Fprintf(&b, "Book = true\nBookFile = %s\nBookRandom = false\n", bookFile)
	} else {
		fmt.Fprintf(&b, "Book = false\n")
	}
	fmt.Fprintf(&b, "\n[Engine]\n")
	return path, os.WriteFile(path, []byte(b.String()), 0o644)
}

func (r *runner) logf(format string, args ...any) {
	fmt.Fprintf(r.log, format+"\n", args...)
}

func (r *runner) add(res ...*result) { r.results = append(r.results, res...) }

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " / ")
}

func isWindows() bool { return filepath.Separator == '\\' }
