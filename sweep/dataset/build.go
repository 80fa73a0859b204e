package dataset

import (
	"runtime/debug"
	"strings"
)

// Build is what Go's build information says of the running crosslink: the
// module version (a tag, a pseudo-version, or "(devel)" for a build from a
// work tree) and the VCS revision, with "+dirty" when the work tree had
// uncommitted changes. Revision is empty where the go command recorded none
// (go test, go run, a build outside a repository).
type Build struct {
	Module   string
	Revision string
}

// linkRevision is the revision `make build` passes with -ldflags -X, for
// builds where the go command stamps none (GOFLAGS=-buildvcs=false, as on
// some machines): git describe --always --dirty --abbrev=40.
var linkRevision string

// ReadBuild returns the build information of the running binary.
func ReadBuild() Build {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Build{Revision: linkRevision}
	}
	b := Build{Module: bi.Main.Version}
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if b.Revision != "" && dirty {
		b.Revision += "+dirty"
	}
	if b.Revision == "" {
		b.Revision = strings.Replace(linkRevision, "-dirty", "+dirty", 1)
	}
	return b
}

// String is the build as --version prints it after the version.
func (b Build) String() string {
	rev := b.Revision
	if rev == "" {
		rev = "unknown"
	}
	mod := b.Module
	if mod == "" {
		mod = "unknown"
	}
	return "module " + mod + ", revision " + rev
}
