package book_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxExports bounds the names package book exports: it sits below every
// format, so what it exports is what each format and tool may lean on.
const maxExports = 75

// TestExportsBounded counts the package-level exported names (types,
// functions, variables, constants; not methods) of the package's non-test
// files, every platform's, a name declared for several platforms once.
func TestExportsBounded(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range exportedNames(f) {
			names[name] = true
		}
	}
	if len(names) == 0 {
		t.Fatal("no exported names found: the test reads the wrong directory")
	}
	if len(names) > maxExports {
		t.Errorf("package book exports %d names, at most %d: unexport what only the package uses, or move a name to its own package\n%s",
			len(names), maxExports, strings.Join(slices.Sorted(maps.Keys(names)), " "))
	}
}

// exportedNames are the exported package-level names f declares.
func exportedNames(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.IsExported() {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						out = append(out, s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							out = append(out, n.Name)
						}
					}
				}
			}
		}
	}
	return out
}
