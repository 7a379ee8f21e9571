package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

func TestInfoBookText(t *testing.T) {
	code, out, errOut := runCmd(t, "info-book", "-bin", "testdata/book/header.bin")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"entries: 33 (528 bytes)", "positions: 10", "@PG@ version 1.0, variants normal, 7 entries",
		`"Synthetic test book for polyproxy"`, "warning: 3 entries with weight 0", "warning: 1 null moves", "warning: 1 entries with an invalid promotion code",
		"warning: 1 positions whose weights are all 0", "learn data: 1 entries, 3 games, 4 points"} {
		if !strings.Contains(flat, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

type infoJSON struct {
	Entries       int      `json:"entries"`
	Positions     int      `json:"positions"`
	TrailingBytes int      `json:"trailing_bytes"`
	FirstUnsorted int      `json:"first_unsorted"`
	LearnNonZero  int      `json:"learn_non_zero"`
	LearnGames    int      `json:"learn_games"`
	LearnPoints   int      `json:"learn_points"`
	NullMoves     int      `json:"null_moves"`
	BadPromo      int      `json:"bad_promo"`
	Warnings      []string `json:"warnings"`
	Header        *struct {
		Version  string   `json:"version"`
		Variants []string `json:"variants"`
	} `json:"header"`
}

func TestInfoBookJSON(t *testing.T) {
	for _, tc := range []struct {
		bin   string
		check func(infoJSON) bool
	}{
		{"testdata/book/unsorted.bin", func(r infoJSON) bool {
			return r.FirstUnsorted == 1 && strings.Contains(strings.Join(r.Warnings, "\n"), "out of order at entry 1")
		}},
		{"testdata/book/trailing.bin", func(r infoJSON) bool {
			return r.TrailingBytes == 1 && r.Entries == 4 && r.FirstUnsorted == -1 && strings.Contains(r.Warnings[0], "last 1 byte")
		}},
		{"testdata/book/empty.bin", func(r infoJSON) bool {
			return r.Entries == 0 && r.Positions == 0 && r.Warnings != nil && len(r.Warnings) == 0 && r.Header == nil
		}},
		{"testdata/book/header.bin", func(r infoJSON) bool {
			return r.Header != nil && r.Header.Version == "1.0" && len(r.Header.Variants) == 1
		}},
		{"testdata/book/oddities.bin", func(r infoJSON) bool {
			return r.Entries == 26 && r.LearnNonZero == 1 && r.LearnGames == 3 && r.LearnPoints == 4 && r.NullMoves == 1 && r.BadPromo == 1
		}},
		{testenv.GnuchessBook(t), func(r infoJSON) bool {
			return r.Entries == 180358 && r.FirstUnsorted == -1 && r.Header == nil
		}},
	} {
		code, out, errOut := runCmd(t, "info-book", "-bin", tc.bin, "-json")
		var r infoJSON
		decodeOne(t, out, &r)
		if code != 0 || errOut != "" || !tc.check(r) {
			t.Errorf("%s: exit %d, stderr %q, %+v", tc.bin, code, errOut, r)
		}
	}
}

func TestInfoBookErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{nil, 2, "BOOK (or -bin) is required"},
		{[]string{"-bin", "testdata/book/missing.bin"}, 1, "no such file"},
		{[]string{"-bin", "testdata/book", "-json"}, 1, "testdata/book is a folder, not a book file"},
	} {
		code, out, errOut := runCmd(t, append([]string{"info-book"}, tc.args...)...)
		if code != tc.code || out != "" || !strings.Contains(errOut, tc.err) {
			t.Errorf("%v: exit %d, %q, %q", tc.args, code, out, errOut)
		}
	}
	if code, out, _ := runCmd(t, "info-book", "-h"); code != 0 || !strings.Contains(out, "-json") {
		t.Errorf("-h: %d %q", code, out)
	}
}

// info-book -lines gives PolyGlot's own info-book figures.
func TestInfoBookLinesMatchPolyGlot(t *testing.T) {
	polyglot := testenv.PolyGlot(t)
	books := []string{"testdata/book/lasker-trap.bin", randomBook(t)}
	if os.Getenv("POLYPROXY_FULL_DUMP") != "" {
		books = append(books, testenv.GnuchessBook(t))
	}
	for _, bin := range books {
		code, out, errOut := runCmd(t, "info-book", "-bin", bin, "-lines", "-json")
		var r struct {
			Lines *bookLines `json:"lines"`
		}
		decodeOne(t, out, &r)
		if code != 0 || r.Lines == nil {
			t.Fatalf("%s: exit %d %s", bin, code, errOut)
		}
		// PolyGlot only reads the book; it gets a copy all the same.
		cp := filepath.Join(t.TempDir(), "book.bin")
		data, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(cp, data, 0o644)
		pg, err := exec.Command(polyglot, "info-book", "-bin", cp).CombinedOutput()
		if err != nil {
			t.Fatalf("polyglot: %v %s", err, pg)
		}
		figure := func(label string) int {
			m := regexp.MustCompile(label + ` *: *(\d+)`).FindSubmatch(pg)
			if m == nil {
				t.Fatalf("PolyGlot printed no %q:\n%s", label, pg)
			}
			n, _ := strconv.Atoi(string(m[1]))
			return n
		}
		want := bookLines{White: figure("Lines for white"), Black: figure("Lines for black"),
			WhitePositions: figure("Positions on lines for white"), BlackPositions: figure("Positions on lines for black"),
			Isolated: figure("Isolated positions")}
		if *r.Lines != want {
			t.Errorf("%s: %+v, PolyGlot %+v", bin, *r.Lines, want)
		}
	}
}
