package main

import (
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	// Results as eval writes them.
	result := func(id string, score string) string {
		return `{"id":"` + id + `","success":true,"metrics":[{"name":"tool_correctness","profile":"default","score":` + score + `,"success":true,"threshold":0,"error":null}]}` + "\n"
	}
	base := writeFile(t, "base.jsonl", result("a", "1")+result("b", "0.5")+"\n"+result("gone", "1"))
	same := writeFile(t, "same.jsonl", result("a", "1")+result("b", "0.5")+result("gone", "1"))
	worse := writeFile(t, "worse.jsonl", result("a", "0.9")+result("b", "0.5")+result("new", "1"))
	broken := writeFile(t, "broken.jsonl", result("a", "1")+"{not json\n")
	tests := []struct {
		name string
		args []string
		want int
		has  []string
	}{
		{"no change", []string{base, same}, 0, []string{"no regression beyond tolerance 0"}},
		{"a regression", []string{base, worse}, 1, []string{"regressed (1)", "a  tool_correctness  1.000 → 0.900  (-0.100)", "only in BASE (1)", "gone", "only in NEW (1)", "new", "REGRESSION"}},
		{"within tolerance", []string{"--allow-missing", "--tolerance", "0.2", base, worse}, 0, []string{"regressed (0)"}},
		{"an improvement is no regression", []string{"--allow-missing", worse, base}, 0, []string{"improved (1)", "a  tool_correctness  0.900 → 1.000  (+0.100)"}},
		{"unreadable line", []string{base, broken}, 2, []string{"broken.jsonl:2: not a result line"}},
		{"missing file", []string{base, "/nonexistent/new.jsonl"}, 2, []string{"no such file"}},
		{"negative tolerance", []string{"--tolerance", "-1", base, same}, 2, []string{"must not be negative"}},
		{"one file", []string{base}, 2, []string{"compare: give two results files"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := run(t, "", append([]string{"compare"}, tt.args...)...)
			if code != tt.want {
				t.Errorf("exit code %d, want %d; stderr: %s", code, tt.want, stderr)
			}
			for _, h := range tt.has {
				if !strings.Contains(out+stderr, h) {
					t.Errorf("output lacks %q:\n%s%s", h, out, stderr)
				}
			}
		})
	}
}
