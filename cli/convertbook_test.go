package cli

import (
	"encoding/json"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// probedChances are probe -json's chances of the moves after moves in
// the book at path, under probe's default threshold.
func probedChances(t *testing.T, path, moves string) map[string]float64 {
	t.Helper()
	code, out, errs := runCmd(t, "probe", path, "-moves", moves, "-json")
	if code != 0 {
		t.Fatalf("probe %s: exit %d: %s", path, code, errs)
	}
	var res struct {
		Entries []struct {
			Move   string
			Chance float64
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	chances := map[string]float64{}
	for _, e := range res.Entries {
		chances[e.Move] += e.Chance
	}
	return chances
}

// TestConvertBookKeepsTheChances: the gnuchess book converted to ABK plays
// as the book does under the threshold, and convert-book says by how much
// at most a move's chance changed. Its ABK writer gave c3 after 1.e4 e5
// (weight 5, 0.02%, below the threshold) 5.56%, f4's chance, and b6 after
// 1.e4 c5 2.Nf3 (weight 2) 4.0%, g6's (weight 201); every move an invented
// drawn game.
func TestConvertBookKeepsTheChances(t *testing.T) {
	if abk.DefaultWriteThreshold != config.DefaultBookThreshold {
		t.Fatalf("ABK books are written for a threshold of %d per mille, the proxy's default is %d", abk.DefaultWriteThreshold, config.DefaultBookThreshold)
	}
	gnu := testenv.GnuchessBook(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "gnuchess.abk")
	code, _, errs := runCmd(t, "convert-book", gnu, "-out", out, "-max-ply", "10") // the whole book: 0.0019 percentage points over 112294 positions
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	said := regexp.MustCompile(`largest change of a move's chance over (\d+) positions \(threshold 5 per mille\): ([0-9.]+) percentage points \(after [^)]*\)`).FindStringSubmatch(errs)
	if said == nil {
		t.Fatalf("convert-book says no largest change: %s", errs)
	}
	if pp, _ := strconv.ParseFloat(said[2], 64); said[1] != "10402" || pp > 0.01 {
		t.Errorf("largest change %s percentage points over %s positions, want at most 0.01 over 10402", said[2], said[1])
	}
	for _, line := range []string{"e4 e5", "e4 c5 Nf3", "d4 Nf6 c4 e6", ""} {
		want, got := probedChances(t, gnu, line), probedChances(t, out, line)
		for m, c := range want {
			if math.Abs(got[m]-c) > 1e-4 {
				t.Errorf("after %q: %s plays %.4f%% of the time from the ABK book, %.4f%% from the book converted", line, m, 100*got[m], 100*c)
			}
		}
		if len(got) != len(want) {
			t.Errorf("after %q: the ABK book lists %d moves, the book converted %d", line, len(got), len(want))
		}
	}
	if c := probedChances(t, out, "e4 e5")["c2c3"]; c != 0 {
		t.Errorf("c3 after 1.e4 e5, below the threshold, plays %.4f%% of the time", 100*c)
	}
	if c := probedChances(t, out, "e4 c5 Nf3")["b7b6"]; c != 0 {
		t.Errorf("b6 after 1.e4 c5 2.Nf3, below the threshold, plays %.4f%% of the time", 100*c)
	}
	// The counts are told as the chances they are, no games played.
	_, text, _ := runCmd(t, "probe", out, "-moves", "e4 e5")
	if !strings.Contains(text, "chance units  games  won  lost") || !regexp.MustCompile(`g1f3\s+9\s+65535\s+0\s+0\s+0\s+1`).MatchString(text) {
		t.Errorf("probe shows the counts as:\n%s", text)
	}
	_, info, _ := runCmd(t, "info-book", out)
	if !strings.Contains(info, "ABK game counts:") || !strings.Contains(info, "learn data:                  0 entries") {
		t.Errorf("info-book says:\n%s", info)
	}
	// Back to Polyglot, each chance is kept; with no threshold, c3 plays
	// its 0.02% in the ABK book too.
	back := filepath.Join(dir, "back.bin")
	if code, _, errs := runCmd(t, "convert-book", out, "-out", back, "-max-ply", "10"); code != 0 || !strings.Contains(errs, "every move's chance kept exactly over 10402 positions") {
		t.Errorf("ABK -> Polyglot: exit %d: %s", code, errs)
	}
	all := filepath.Join(dir, "all.abk")
	if code, _, errs := runCmd(t, "convert-book", gnu, "-out", all, "-threshold", "0", "-max-ply", "4"); code != 0 || !strings.Contains(errs, "(threshold 0 per mille)") {
		t.Fatalf("-threshold 0: exit %d: %s", code, errs)
	}
	_, j, _ := runCmd(t, "probe", all, "-moves", "e4 e5", "-threshold", "0", "-json")
	if !strings.Contains(j, `"move":"c2c3"`) || !regexp.MustCompile(`"move":"c2c3","raw":"c2c3","weight":\d+,"share":0\.000\d+`).MatchString(j) {
		t.Errorf("with -threshold 0, c3 after 1.e4 e5 is not played at its 0.02%%: %s", j)
	}
}
