package main

import (
	"strconv"
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
	// Graded at other thresholds: the same scores, other verdicts.
	at := func(id, score, threshold string, success bool) string {
		return `{"id":"` + id + `","success":` + strconv.FormatBool(success) + `,"metrics":[{"name":"tool_correctness","profile":"default","score":` + score +
			`,"success":` + strconv.FormatBool(success) + `,"threshold":` + threshold + `,"error":null}]}` + "\n"
	}
	lenient := writeFile(t, "lenient.jsonl", at("a", "0.8", "0.5", true)+at("b", "1", "1", true))
	strict := writeFile(t, "strict.jsonl", at("a", "0.8", "0.9", false)+at("b", "0.9997", "1", false))
	// NEW lacks a case that pulled BASE's mean down.
	fewer := writeFile(t, "fewer.jsonl", result("a", "1")+result("b", "0.5"))
	withLow := writeFile(t, "withlow.jsonl", result("a", "1")+result("b", "0.5")+result("low", "0"))
	tests := []struct {
		name  string
		args  []string
		want  int
		has   []string
		lacks []string
	}{
		{"no change", []string{base, same}, 0, []string{"no regression beyond tolerance 0"}, nil},
		{"a regression", []string{base, worse}, 1, []string{"regressed (1)", "a  tool_correctness  1.000 → 0.900  (-0.100)", "only in BASE (1)", "gone", "only in NEW (1)", "new", "REGRESSION"}, nil},
		{"within tolerance", []string{"--allow-missing", "--tolerance", "0.2", base, worse}, 0, []string{"regressed (0)"}, nil},
		{"an improvement is no regression", []string{"--allow-missing", worse, base}, 0, []string{"improved (1)", "a  tool_correctness  0.900 → 1.000  (+0.100)"}, nil},
		{"unreadable line", []string{base, broken}, 2, []string{"broken.jsonl:2: not a result line"}, nil},
		{"missing file", []string{base, "/nonexistent/new.jsonl"}, 2, []string{"no such file"}, nil},
		{"negative tolerance", []string{"--tolerance", "-1", base, same}, 2, []string{"compare: --tolerance: want a number, 0 or more (how far a score may fall, such as 0.02), got -1"}, nil},
		{"NaN tolerance", []string{"--tolerance", "NaN", base, worse}, 2, []string{"compare: --tolerance: want a finite number, got NaN"}, nil},
		{"infinite tolerance", []string{"--tolerance=+Inf", base, worse}, 2, []string{"compare: --tolerance: want a finite number, got +Inf"}, nil},
		{"infinite tolerance, spelled otherwise", []string{"--tolerance", "infinity", base, worse}, 2, []string{"compare: --tolerance: want a finite number, got +Inf"}, nil},
		{"one file", []string{base}, 2, []string{"compare: give two results files"}, nil},
		{"NEW on standard input", []string{base, "-"}, 1, []string{"a  tool_correctness  1.000 → 0.900"}, nil},
		{"BASE on standard input", []string{"--allow-missing", "-", base}, 0, []string{"improved (1)"}, nil},
		{"both on standard input", []string{"-", "-"}, 2, []string{"BASE and NEW are both standard input"}, nil},
		{"an empty standard input", []string{base, "-"}, 2, []string{"standard input: not a toolgrade results file: it holds no result lines"}, nil},
		{"other thresholds are said", []string{lenient, strict}, 1, []string{
			"tool_correctness was graded at threshold 0.5 in BASE and 0.9 in NEW (1 case)",
			"a  tool_correctness  0.800 → 0.800  (+0.000)  passed, now fails (threshold 0.5 in BASE, 0.9 in NEW)",
			"b  tool_correctness  1.0000 → 0.9997  (-0.0003)  passed, now fails\n"}, nil},
		{"means over the cases both have", []string{"--allow-missing", withLow, fewer}, 0, []string{
			"means and pass rates over the 2 cases both runs have", "only in BASE (1)", "low", "no regression"}, []string{"+0.250"}},
		{"missing cases still regress", []string{withLow, fewer}, 1, []string{"low", "1 case missing from NEW"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdin := ""
			if strings.HasPrefix(tt.name, "NEW on") || strings.HasPrefix(tt.name, "BASE on") {
				stdin = read(t, worse)
			}
			code, out, stderr := run(t, stdin, append([]string{"compare"}, tt.args...)...)
			if code != tt.want {
				t.Errorf("exit code %d, want %d; stderr: %s", code, tt.want, stderr)
			}
			for _, h := range tt.has {
				if !strings.Contains(out+stderr, h) {
					t.Errorf("output lacks %q:\n%s%s", h, out, stderr)
				}
			}
			for _, h := range tt.lacks {
				if strings.Contains(out+stderr, h) {
					t.Errorf("output has %q:\n%s%s", h, out, stderr)
				}
			}
		})
	}
}
