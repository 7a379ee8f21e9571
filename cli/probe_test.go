package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

type probeJSON struct {
	Key     string `json:"key"`
	Entries []struct {
		Move   string  `json:"move"`
		Raw    string  `json:"raw"`
		Weight int     `json:"weight"`
		Learn  uint32  `json:"learn"`
		Games  int     `json:"games"`
		Points int     `json:"points"`
		Share  float64 `json:"share"`
		Legal  bool    `json:"legal"`
		Note   string  `json:"note"`
	} `json:"entries"`
}

// decodeOne decodes stdout as exactly one JSON object.
func decodeOne(t *testing.T, out string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("bad JSON %q: %v", out, err)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value in %q", out)
	}
	var rest bytes.Buffer
	rest.ReadFrom(dec.Buffered())
	if strings.TrimSpace(rest.String()) != "" {
		t.Fatalf("trailing output after the JSON object: %q", rest.String())
	}
}

func TestProbeJSONCastling(t *testing.T) {
	code, out, errOut := runCmd(t, "probe", "-book", "testdata/book/oddities.bin", "-fen", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", "-json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var res probeJSON
	decodeOne(t, out, &res)
	var got []string
	for _, e := range res.Entries {
		got = append(got, e.Move+"/"+e.Raw)
		if !e.Legal {
			t.Errorf("%s not legal", e.Move)
		}
	}
	if len(res.Key) != 16 || strings.ToLower(res.Key) != res.Key {
		t.Errorf("key %q", res.Key)
	}
	if strings.Join(got, " ") != "e1g1/e1h1 e1c1/e1a1 h2h3/h2h3" || res.Entries[0].Weight != 159 {
		t.Errorf("entries %+v", res.Entries)
	}
	// The learn field, raw and split (g1f3 at the start has 3 games, 4 points).
	_, out, _ = runCmd(t, "probe", "-book", "testdata/book/oddities.bin", "-json")
	decodeOne(t, out, &res)
	nf3 := res.Entries[0] // the likeliest first
	if nf3.Move != "g1f3" || nf3.Learn != 3<<16|4 || nf3.Games != 3 || nf3.Points != 4 {
		t.Errorf("learn of %+v", nf3)
	}
}

func TestProbeText(t *testing.T) {
	code, out, errOut := runCmd(t, "probe", "-book", "testdata/book/oddities.bin")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"key:  463b96181691fc9c", "4 entries, total weight of the legal ones 40", "25.0%", "75.0%", "weight 0", "null move", "0x00030004"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// A position the book does not have.
	code, out, _ = runCmd(t, "probe", "-book", "testdata/book/oddities.bin", "-moves", "d2d4")
	if code != 0 || !strings.Contains(out, "not in book") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = runCmd(t, "probe", "-book", "testdata/book/oddities.bin", "-moves", "d2d4", "-json")
	var res probeJSON
	decodeOne(t, out, &res)
	if code != 0 || res.Entries == nil || len(res.Entries) != 0 || !strings.Contains(out, `"entries":[]`) {
		t.Errorf("exit %d: %s", code, out)
	}
}

func TestProbeBooks(t *testing.T) {
	for _, tc := range []struct {
		bin, fen, moves, want string
	}{
		{"testdata/book/lasker-trap.bin", "rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7", "", "5028f645a2af84bc f2g1n/f2g1n"},
		{"testdata/book/oddities.bin", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", "", " e8g8/e8g8 e8c8/e8c8 "},
		{testenv.GnuchessBook(t), "", "", "463b96181691fc9c "},
		{testenv.GnuchessBook(t), "", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6", " e1g1/e1h1 "},
	} {
		args := []string{"probe", "-book", tc.bin, "-json", "-moves", tc.moves}
		if tc.fen != "" {
			args = append(args, "-fen", tc.fen)
		}
		code, out, errOut := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", tc.bin, code, errOut)
		}
		var res probeJSON
		decodeOne(t, out, &res)
		s := res.Key + " "
		for _, e := range res.Entries {
			s += e.Move + "/" + e.Raw + " "
			if !e.Legal {
				t.Errorf("%s: %s illegal", tc.bin, e.Raw)
			}
		}
		if !strings.Contains(s, tc.want) {
			t.Errorf("%s: %s lacks %q", tc.bin, s, tc.want)
		}
	}
}

func TestProbeErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"-book", "testdata/book/oddities.bin", "-moves", "e2e4 e7e5 e1e3"}, 2, "move 3 (e1e3)"},
		{[]string{"-book", "testdata/book/oddities.bin", "-moves", "e2e4 zz"}, 2, "move 2 (zz)"},
		{[]string{"-book", "testdata/book/oddities.bin", "-fen", "8/8/8/8 w - -"}, 2, "bad FEN"},
		{[]string{"-book", "testdata/book/oddities.bin", "-fen", "8/8/8/8/8/8/8/8 w - - 0 1"}, 2, "one king"},
		{[]string{"-moves", "e2e4"}, 2, "BOOK (or -book) is required"},
		{[]string{"-book", "testdata/book/no-such.bin"}, 1, "no such file"},
		{[]string{"-book", "testdata/book"}, 1, "testdata/book is a folder, not a book file"},
		{[]string{"-book", "testdata/book/oddities.bin", "extra"}, 2, `"extra" and -book both name the file`},
		{[]string{"-nope"}, 2, "unknown flag -nope"},
	} {
		code, out, errOut := runCmd(t, append([]string{"probe"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.err) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errOut, tc.code, tc.err)
		}
	}
	code, out, errOut := runCmd(t, "probe", "-h")
	if code != 0 || errOut != "" || !strings.Contains(out, "-json") || !strings.Contains(out, "-moves") {
		t.Errorf("-h: exit %d %q %q", code, out, errOut)
	}
}

// A book with a stray trailing byte and keys out of order still answers,
// with warnings on stderr.
func TestProbeWarnings(t *testing.T) {
	code, out, errOut := runCmd(t, "probe", "-book", "testdata/book/trailing.bin", "-json")
	var res probeJSON
	decodeOne(t, out, &res)
	if code != 0 || len(res.Entries) != 4 || !strings.Contains(errOut, "last 1 byte(s) are ignored") {
		t.Errorf("trailing: exit %d, %d entries, stderr %q", code, len(res.Entries), errOut)
	}
	code, out, errOut = runCmd(t, "probe", "-book", "testdata/book/unsorted.bin", "-fen", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "-json")
	decodeOne(t, out, &res)
	if code != 0 || len(res.Entries) != 3 || !strings.Contains(errOut, "out of order at entry 1") {
		t.Errorf("unsorted: exit %d, %d entries, stderr %q", code, len(res.Entries), errOut)
	}
}
