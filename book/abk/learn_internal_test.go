package abk

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWriteStatsAcrossASector: statistics that cross a 512-byte sector
// are written as three aligned words, and only they change.
func TestWriteStatsAcrossASector(t *testing.T) {
	for _, rec := range []int32{900, 987, 1006} { // 987: bytes 27,640-27,651 cross 27,648
		off := int64(rec)*RecordSize + statsOffset
		crosses := off/512 != (off+11)/512
		if crosses != (rec == 987) {
			t.Fatalf("record %d crosses a sector: %v", rec, crosses)
		}
		data := make([]byte, (rec+2)*RecordSize)
		for i := range data {
			data[i] = byte(i)
		}
		path := filepath.Join(t.TempDir(), "b.abk")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		r := DecodeRecord(data[rec*RecordSize:])
		r.Games, r.Wins, r.Losses = 7, -3, 1<<30
		if err := writeStats(f, rec, r); err != nil {
			t.Fatal(err)
		}
		f.Close()
		got, _ := os.ReadFile(path)
		want := slices.Clone(data)
		r.Encode(want[rec*RecordSize:])
		if !slices.Equal(got, want) {
			t.Errorf("record %d: the file is not the old one with the statistics written", rec)
		}
	}
}
