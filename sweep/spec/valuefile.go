package spec

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/goccy/go-yaml/ast"

	"github.com/crosslink-sim/crosslink/vocab"
)

// MaxValueFileBytes is the largest file a parameter's value may come
// from: CelesTrak's Starlink element sets, some 7,000 satellites in three
// lines of 70 characters, take 1.5 MB.
const MaxValueFileBytes = 16 << 20

// fileValue reads the value of a String parameter with File given as
// {file: PATH}: the text of PATH, relative to the spec's directory. A
// problem Syntax finds at a line and column of the text (vocab.TextErrors)
// is reported there, as PATH:line:col; others at the file entry.
func (p *parser) fileValue(prm vocab.Param, n ast.Node) (vocab.Value, bool) {
	var name string
	var at Position
	for _, e := range p.entries(n, prm.Name, "key", []string{"file"}) {
		name, at = p.text(e), p.pos(e.value)
	}
	if name == "" {
		p.errorf(p.pos(n), "%s: {file: PATH} needs the path of a file, relative to the spec", prm.Name)
		return vocab.Value{}, false
	}
	if st, err := os.Stat(p.file); p.file == StdinName || err != nil || !st.Mode().IsRegular() {
		p.errorf(at, "%s: the file %s is relative to the spec's directory, and this spec has no file on disk: give the value in the spec", prm.Name, name)
		return vocab.Value{}, false
	}
	path := filepath.Join(filepath.Dir(p.file), name)
	data, err := readValueFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			p.errorf(at, "%s: %s does not exist (the path is relative to the spec's directory)", prm.Name, path)
		} else {
			p.errorf(at, "%s: %s: %v", prm.Name, path, err)
		}
		return vocab.Value{}, false
	}
	text := string(data)
	if prm.Syntax != nil {
		if err := prm.Syntax(text); err != nil {
			var te vocab.TextErrors
			if errors.As(err, &te) {
				for _, e := range te {
					p.errorf(Position{File: path, Line: e.Line, Column: e.Col}, "%s: %s", prm.Name, e.Msg)
				}
			} else {
				p.errorf(at, "%s: %s: %v", prm.Name, path, err)
			}
			return vocab.Value{}, false
		}
	}
	v := vocab.S(text)
	if err := prm.Check(v); err != nil {
		p.errorf(at, "%s: %s: %v", prm.Name, path, err)
		return v, false
	}
	return v, true
}

// readValueFile reads a regular file of at most MaxValueFileBytes.
func readValueFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("is %s; a value's file must be a regular file", fileKind(st.Mode()))
	}
	if st.Size() > MaxValueFileBytes {
		return nil, fmt.Errorf("is %d bytes, more than the %d a value's file may have", st.Size(), MaxValueFileBytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxValueFileBytes+1))
}
