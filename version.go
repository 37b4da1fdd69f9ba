package toolgrade

import (
	_ "embed"
	"strings"
)

//go:embed VERSION
var versionFile string

// Version returns toolgrade's version, MAJOR.MINOR.PATCH without a
// leading v: the repository's VERSION file, compiled in, so that every
// build of the module says the same (go build, go install, the wheel's and
// the npm packages' binaries, which the release builds also stamp from
// that file).
func Version() string { return strings.TrimSpace(versionFile) }
