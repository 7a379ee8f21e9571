package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// probeMoves runs "probe -json" and returns "played/raw:weight" per entry.
func probeMoves(t *testing.T, bookPath, moves string) []string {
	t.Helper()
	code, stdout, stderr := runCmd(t, "probe", "-book", bookPath, "-moves", moves, "-json")
	if code != 0 {
		t.Fatalf("probe: exit %d: %s", code, stderr)
	}
	var out struct {
		Entries []struct {
			Move, Raw string
			Weight    int
			Legal     bool
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("probe output %q: %v", stdout, err)
	}
	var got []string
	for _, e := range out.Entries {
		if !e.Legal {
			t.Errorf("after %q: illegal entry %+v", moves, e)
		}
		got = append(got, fmt.Sprintf("%s/%s:%d", e.Move, e.Raw, e.Weight))
	}
	return got
}

// TestBuildThenProbe: books made by make-book and compile-book read back
// through the probe command as worked out by hand.
func TestBuildThenProbe(t *testing.T) {
	dir := t.TempDir()
	pgnBook, txtBook := filepath.Join(dir, "pgn.bin"), filepath.Join(dir, "txt.bin")
	if code, _, stderr := runCmd(t, "make-book", "-q", "-pgn", "testdata/pgn/small.pgn", "-bin", pgnBook, "-min-game", "1"); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := runCmd(t, "compile-book", "-txt", "testdata/txt/small.txt", "-bin", txtBook); code != 0 {
		t.Fatal(stderr)
	}
	for _, tc := range []struct {
		book, moves, want string
	}{
		{pgnBook, "", "e2e4/e2e4:3 d2d4/d2d4:1"},
		{pgnBook, "e2e4", "e7e5/e7e5:2 c7c5/c7c5:1"},
		{pgnBook, "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5", "e1g1/e1h1:2"},
		{pgnBook, "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1", ""}, // Black lost: 0 points, dropped
		{txtBook, "", "e2e4/e2e4:4 d2d4/d2d4:1"},
		{txtBook, "e2e4 e7e5", "g1f3/g1f3:2 f2f4/f2f4:0"},
		{txtBook, "e2e4 g7g6 d2d4", "f8g7/f8g7:1"}, // by transposition
		{txtBook, "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5", "e1g1/e1h1:1"},
	} {
		if got := strings.Join(probeMoves(t, tc.book, tc.moves), " "); got != tc.want {
			t.Errorf("%s after %q: %q, want %q", filepath.Base(tc.book), tc.moves, got, tc.want)
		}
	}
}
