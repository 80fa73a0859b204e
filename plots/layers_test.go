package plots

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// figureFile reports whether a file of the package belongs to the
// documents' figures (one file set per document, and figures.go, the
// list of them) rather than to the drawing core.
func figureFile(name string) bool {
	for _, p := range []string{"rc13", "zh_", "os_", "sp_", "leo", "figures"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// TestCoreUsesNoFigure keeps the layers of the package apart: no name a
// figure file declares at the top level is used by a core file (lines,
// axes, ticks, theme, render, frame, statistics, the registry and the
// drawing check), so the core can be read, tested and changed without the
// figures, which sit above it.
func TestCoreUsesNoFigure(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	figureNames := map[string]string{} // name -> file declaring it
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = f
		if !figureFile(p) {
			continue
		}
		for _, d := range f.Decls {
			for _, n := range topNames(d) {
				figureNames[n] = p
			}
		}
	}
	var bad []string
	for p, f := range files {
		if figureFile(p) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				ast.Inspect(n.X, func(m ast.Node) bool { return checkIdent(m, fset, p, figureNames, &bad) })
				return false // n.Sel is a field or method, not a package name
			case *ast.KeyValueExpr:
				ast.Inspect(n.Value, func(m ast.Node) bool { return checkIdent(m, fset, p, figureNames, &bad) })
				return false
			}
			return checkIdent(n, fset, p, figureNames, &bad)
		})
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// checkIdent records an identifier of a core file that names a figure
// file's declaration.
func checkIdent(n ast.Node, fset *token.FileSet, file string, figureNames map[string]string, bad *[]string) bool {
	id, ok := n.(*ast.Ident)
	if !ok {
		return true
	}
	if decl, ok := figureNames[id.Name]; ok {
		*bad = append(*bad, fset.Position(id.Pos()).String()+": the core uses "+id.Name+", declared by the figures in "+decl)
	}
	return true
}

// topNames returns the names a top-level declaration declares (methods
// are left out: they are reached through their type).
func topNames(d ast.Decl) []string {
	var out []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			out = append(out, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				out = append(out, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					out = append(out, n.Name)
				}
			}
		}
	}
	return out
}
