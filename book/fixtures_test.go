package book_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/polyproxy/polyproxy/internal/fixture"
)

var updateFixtures = flag.Bool("update-fixtures", false, "rewrite testdata/book from the specs in internal/fixture")

func TestFixturesUpToDate(t *testing.T) {
	for name, want := range fixture.Files(t) {
		path := fixture.Path(name)
		if *updateFixtures {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (regenerate with go generate ./book)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: regenerate with go generate ./book", path)
		}
	}
}
