package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/lichessgames"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// lichessPGN writes n generated lichess-style games ([%clk] and [%eval]
// comments, "1..." move numbers) and returns the file.
func lichessPGN(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lichess.pgn")
	if err := os.WriteFile(path, lichessgames.PGN(lichessgames.Options{Seed: 3, Games: n}), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMakeBookMemory: -memory and -tmp leave a book that fits the same
// bytes as PolyGlot's (on lichess-style games with their comments), and
// nothing in the temporary folder; bad sizes are usage errors.
func TestMakeBookMemory(t *testing.T) {
	pgn := lichessPGN(t, 300)
	dir := t.TempDir()
	want := polyglotMakeBook(t, pgn, filepath.Join(dir, "polyglot.bin"), "-max-ply", "30", "-min-game", "1")
	tmp := t.TempDir()
	got := ourMakeBook(t, pgn, filepath.Join(dir, "ours.bin"), "-max-ply", "30", "-min-game", "1", "-memory", "64M", "-tmp", tmp)
	if !bytes.Equal(got, want) {
		t.Fatalf("-memory 64M: %s", firstDiff(got, want))
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Fatalf("temporary files left after success: %v", left)
	}
	for _, bad := range []string{"10M", "lots", "-5G", "0"} {
		code, _, stderr := runCmd(t, "make-book", "-pgn", pgn, "-bin", filepath.Join(dir, "x.bin"), "-memory", bad)
		if code != 2 || !strings.Contains(stderr, "-memory") {
			t.Errorf("-memory %s: exit %d, %s", bad, code, stderr)
		}
	}
	for _, good := range []string{"48M", "1.5G", "4g", "512MiB", "100000000"} {
		var f sizeFlag
		if err := f.Set(good); err != nil {
			t.Errorf("-memory %s: %v", good, err)
		}
	}
}

// TestMakeBookUnusableTmp: a -tmp make-book cannot write in is an error
// naming it before any game is read, and the old book stays.
func TestMakeBookUnusableTmp(t *testing.T) {
	pgn := lichessPGN(t, 20)
	dir := t.TempDir()
	out := filepath.Join(dir, "book.bin")
	old := []byte("the old book, kept")
	if err := os.WriteFile(out, old, 0o644); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(notDir, "runs")
	code, _, stderr := runCmd(t, "make-book", "-pgn", pgn, "-bin", out, "-tmp", tmp)
	if code != 1 || !strings.Contains(stderr, tmp) || !strings.Contains(stderr, "-tmp") || !strings.Contains(stderr, "no book written") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, old) {
		t.Fatal("the old book was not kept")
	}
}

// TestReadmeLichessMonth runs the README's lichess command as written, on
// a month in miniature (generated games of strong players, zstd-compressed,
// named as the dumps are): it makes the book one plain run makes of the
// same games with the same filters, and leaves nothing in its -tmp folder.
func TestReadmeLichessMonth(t *testing.T) {
	if testing.Short() {
		t.Skip("builds polyproxy; skipped with -short")
	}
	readme := string(fixture.ReadFile(t, "README.md"))
	_, after, ok := strings.Cut(readme, "**A book from a lichess month**")
	_, block, ok2 := strings.Cut(after, "```sh\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README: no lichess command in an sh block")
	}
	dir := t.TempDir()
	// The generator pairs ratings at random, so that few games would pass
	// -min-elo 2000; here everybody is a master, as in a month's top games.
	games := regexp.MustCompile(`\[(White|Black)Elo "\d+"\]`).ReplaceAll(
		lichessgames.PGN(lichessgames.Options{Seed: 8, Games: 4000}), []byte(`[${1}Elo "2150"]`))
	plain := filepath.Join(dir, "month.pgn")
	if err := os.WriteFile(plain, games, 0o644); err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lichess_db_standard_rated_2024-01.pgn.zst"), enc.EncodeAll(games, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(dir, "runs")
	if err := os.Mkdir(runs, 0o755); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(block, "/path/with/space") {
		t.Fatal("README: the command names no -tmp folder")
	}
	cmd := exec.Command("bash", "-c", "set -e\n"+strings.ReplaceAll(block, "/path/with/space", runs))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(testenv.Polyproxy(t))+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's command: %v\n%s", err, out)
	}
	want := ourMakeBook(t, plain, filepath.Join(dir, "plain.bin"), "-max-ply", "30", "-min-elo", "2000",
		"-time-control", "blitz,rapid,classical", "-skip-forfeits", "-min-game", "10")
	got := fixture.ReadFile(t, filepath.Join(dir, "lichess-2024-01.bin"))
	if !bytes.Equal(got, want) {
		t.Fatalf("the README's command: %s", firstDiff(got, want))
	}
	if len(got) < 10*polyglot.EntrySize {
		t.Fatalf("a book of %d bytes: too few games pass the filters to tell", len(got))
	}
	if left, _ := os.ReadDir(runs); len(left) > 0 {
		t.Fatalf("left in -tmp: %v", left)
	}
}
