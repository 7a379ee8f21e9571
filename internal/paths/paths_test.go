package paths

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSame(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "g")
	if err := os.WriteFile(other, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	same := map[string][2]string{
		"one path":             {file, file},
		"via sub/..":           {file, filepath.Join(dir, "sub") + "/../f"},
		"new, via sub/..":      {filepath.Join(dir, "new"), filepath.Join(dir, "sub") + "/../new"},
		"new, in a linked dir": {filepath.Join(dir, "new"), filepath.Join(dir, "linked", "new")},
		"a link to the file":   {file, filepath.Join(dir, "link")},
		"a hard link":          {file, filepath.Join(dir, "hard")},
		"a dangling link":      {filepath.Join(dir, "new"), filepath.Join(dir, "dangling")},
		"a file in linked dir": {file, filepath.Join(dir, "linked", "f")},
	}
	differ := map[string][2]string{
		"two files":         {file, other},
		"a file and a new":  {file, filepath.Join(dir, "new")},
		"two new files":     {filepath.Join(dir, "new"), filepath.Join(dir, "new2")},
		"same name, subdir": {filepath.Join(dir, "new"), filepath.Join(dir, "sub", "new")},
	}
	// Links the system refuses (symbolic links on Windows without the
	// privilege) leave their cases out.
	for _, l := range []struct {
		err   error
		cases []string
	}{
		{os.Symlink(dir, filepath.Join(dir, "linked")), []string{"new, in a linked dir", "a file in linked dir"}},
		{os.Symlink(file, filepath.Join(dir, "link")), []string{"a link to the file"}},
		{os.Link(file, filepath.Join(dir, "hard")), []string{"a hard link"}},
		{os.Symlink("new", filepath.Join(dir, "dangling")), []string{"a dangling link"}},
	} {
		if l.err != nil {
			t.Logf("left out %v: %v", l.cases, l.err)
			for _, c := range l.cases {
				delete(same, c)
			}
		}
	}
	for name, p := range same {
		if !Same(p[0], p[1]) || !Same(p[1], p[0]) {
			t.Errorf("%s: %s and %s not the same", name, p[0], p[1])
		}
	}
	for name, p := range differ {
		if Same(p[0], p[1]) || Same(p[1], p[0]) {
			t.Errorf("%s: %s and %s the same", name, p[0], p[1])
		}
	}
}
