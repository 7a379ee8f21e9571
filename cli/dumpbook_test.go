package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const laskerBlackDump = "Dump of \"%s\" for black.\n" +
	"1: 1. d4 d5{100%%} 2. c4 e5{100%%} 3. dxe5 d4{100%%} 4. e3 Bb4+{100%%} 5. Bd2 dxe3{100%%} 6. Bxb4 exf2+{100%%} 7. Ke2 fxg1=N+{100%%} \n"

func TestDumpBook(t *testing.T) {
	bin := "testdata/book/lasker-trap.bin"
	code, out, errOut := runCmd(t, "dump-book", "-bin", bin, "-color", "black")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if want := strings.Replace(laskerBlackDump, "%s", bin, 1); out != strings.ReplaceAll(want, "%%", "%") {
		t.Errorf("got\n%s", out)
	}
	// -out writes the file and says so on stderr; stdout stays empty.
	path := filepath.Join(t.TempDir(), "lines.txt")
	code, out, errOut = runCmd(t, "dump-book", "-bin", bin, "-color", "black", "-out", path)
	data, err := os.ReadFile(path)
	if code != 0 || out != "" || err != nil || !strings.Contains(string(data), "fxg1=N+{100%}") || !strings.Contains(errOut, "1 lines for black") {
		t.Errorf("-out: exit %d, stdout %q, stderr %q, file %q %v", code, out, errOut, data, err)
	}
	// White is the default colour.
	code, out, _ = runCmd(t, "dump-book", "-bin", "testdata/book/oddities.bin")
	if code != 0 || !strings.HasPrefix(out, `Dump of "testdata/book/oddities.bin" for white.`) || !strings.Contains(out, "1: 1. e4{25%} ") {
		t.Errorf("default colour: exit %d\n%s", code, out)
	}
}

func TestDumpBookErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{nil, 2, "BOOK (or -bin) is required"},
		{[]string{"-bin", "testdata/book/oddities.bin", "-color", "red"}, 2, "white or black"},
		{[]string{"-bin", "testdata/book/missing.bin"}, 1, "no such file"},
		{[]string{"-bin", "testdata/book/oddities.bin", "-out", "testdata/book/no/such/dir.txt"}, 1, "-out testdata/book/no/such/dir.txt: the folder testdata/book/no/such does not exist; nothing written"},
	} {
		code, out, errOut := runCmd(t, append([]string{"dump-book"}, tc.args...)...)
		if code != tc.code || out != "" || !strings.Contains(errOut, tc.err) {
			t.Errorf("%v: exit %d, %q, %q", tc.args, code, out, errOut)
		}
	}
	if code, out, _ := runCmd(t, "dump-book", "-h"); code != 0 || !strings.Contains(out, "-color") {
		t.Errorf("-h: %d %q", code, out)
	}
}
