package main

import (
	"strings"
	"testing"
)

// TestServeCommand checks the wiring of package serve: the standard
// streams, the version, the flags. The protocol's tests are serve's.
func TestServeCommand(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		stdin string
		code  int
		want  string // the start of stdout
		lines int    // responses
	}{
		{"version", []string{"serve"}, `{"id":1,"op":"version"}`, 0, `{"id":1,"result":{"version":"` + versionString() + `"}}` + "\n", 1},
		{"workers", []string{"serve", "--workers", "2"}, `{"op":"evaluate","cases":[{"tools_called":[],"expected_tools":[]}]}` + "\n\n" + `{"op":"dance"}`, 0, `{"results":[{"id":"case-0",`, 2},
		{"no arguments", []string{"serve", "x"}, "", 2, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runWithEnv(t, nil, tt.stdin, tt.args...)
			if code != tt.code || !strings.HasPrefix(out, tt.want) || strings.Count(out, "\n") != tt.lines {
				t.Errorf("exit %d, stdout %q (stderr %q); want exit %d, %d lines starting %q", code, out, stderr, tt.code, tt.lines, tt.want)
			}
		})
	}
}
