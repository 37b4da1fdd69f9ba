package main

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
)

func TestCommitString(t *testing.T) {
	tests := []struct {
		name     string
		settings []debug.BuildSetting
		want     string
	}{
		{"no version control", nil, ""},
		{"clean", []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "false"}}, "commit 0123456789ab"},
		{"modified", []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}, "commit 0123456789ab, modified"},
		{"short revision", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}, "commit abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := commitString(&debug.BuildInfo{Settings: tt.settings}); got != tt.want {
				t.Errorf("commitString = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestVersionCommandPrintsTheVersionFile(t *testing.T) {
	code, out, _ := run(t, "", "version")
	if code != 0 || !strings.HasPrefix(out, "toolgrade v"+toolgrade.Version()+" ") {
		t.Errorf("toolgrade version = %q (exit %d), want it to start with toolgrade v%s", out, code, toolgrade.Version())
	}
}
