package toolgrade_test

import (
	"regexp"
	"testing"

	"github.com/toolgrade/toolgrade"
)

func TestVersion(t *testing.T) {
	if v := toolgrade.Version(); !regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`).MatchString(v) {
		t.Errorf("Version() = %q, want MAJOR.MINOR.PATCH from VERSION", v)
	}
}
