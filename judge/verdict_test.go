package judge

import (
	"strings"
	"testing"
)

func TestParseVerdict(t *testing.T) {
	tests := []struct {
		name, text string
		score      float64
		reason     string
		err        string // a part of the error; "" for none
	}{
		{"plain", `{"score": 0.75, "reason": "one extra call"}`, 0.75, "one extra call", ""},
		{"integer", `{"score":1,"reason":"ok"}`, 1, "ok", ""},
		{"zero", `{"score": 0, "reason": "wrong tool"}`, 0, "wrong tool", ""},
		{"fenced", "```json\n{\"score\": 0.5, \"reason\": \"partly\"}\n```", 0.5, "partly", ""},
		{"prose around", "Here is my verdict:\n{\"score\": 0.25, \"reason\": \"mostly wrong\"}\nHope this helps {not json}", 0.25, "mostly wrong", ""},
		{"string score", `{"score": "0.75", "reason": "x"}`, 0.75, "x", ""},
		{"no reason", `{"score": 1}`, 1, "", ""},
		{"reason not a string", `{"score": 1, "reason": ["a", "b"]}`, 1, `["a", "b"]`, ""},
		{"extra keys", `{"verdict": "yes", "score": 1, "reason": "r", "confidence": 0.9}`, 1, "r", ""},
		{"object without score first", `{"note": "x"} then {"score": 0.5, "reason": "second"}`, 0.5, "second", ""},
		{"nested braces in reason", `{"score": 0.5, "reason": "uses {braces}"}`, 0.5, "uses {braces}", ""},
		{"not json", "The agent chose well.", 0, "", "no JSON verdict"},
		{"empty", "", 0, "", "no JSON verdict"},
		{"truncated", `{"score": 0.5, "reason": "cut`, 0, "", "no JSON verdict"},
		{"above range", `{"score": 1.5, "reason": "x"}`, 0, "", "outside [0, 1]"},
		{"negative", `{"score": -0.25, "reason": "x"}`, 0, "", "outside [0, 1]"},
		{"percent", `{"score": 75, "reason": "x"}`, 0, "", "outside [0, 1]"},
		{"score null", `{"score": null, "reason": "x"}`, 0, "", "not a number"},
		{"score word", `{"score": "high", "reason": "x"}`, 0, "", "not a number"},
		{"score bool", `{"score": true, "reason": "x"}`, 0, "", "not a number"},
		// Two verdicts: which is meant? Unless they say the same.
		{"two verdicts", `{"score": 1, "reason": "all right"} On reflection: {"score": 0, "reason": "wrong tool"}`, 0, "", "two verdicts"},
		{"two fenced verdicts", "```json\n{\"score\": 0.2}\n```\n```json\n{\"score\": 0.8}\n```", 0, "", "two verdicts"},
		{"a draft without a reason", `{"score": 0.5} then {"score": 0.5, "reason": "x"}`, 0, "", "two verdicts"},
		{"a second verdict out of range", `{"score": 1, "reason": "r"} {"score": 7}`, 0, "", "two verdicts"},
		{"a verdict nested after", `{"score": 1, "reason": "r"} {"note": {"score": 0}}`, 0, "", "two verdicts"},
		{"the same verdict twice", `{"score": 1, "reason": "r"} so: {"score": 1, "reason": "r"}`, 1, "r", ""},
		{"a score key twice", `{"score": 1, "score": 0, "reason": "r"}`, 0, "", `duplicate key "score"`},
		{"a reason key twice", `{"score": 1, "reason": "a", "reason": "b"}`, 0, "", `duplicate key "reason"`},
		{"a verdict in the reason", `{"score": 0.5, "reason": "not {\"score\": 1}"}`, 0.5, `not {"score": 1}`, ""},
		{"braces after", `{"score": 0.5, "reason": "x"} and {} {"a": 1}`, 0.5, "x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := ParseVerdict(tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseVerdict(%q) = %+v, %v; want an error containing %q", tt.text, v, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseVerdict(%q): %v", tt.text, err)
			}
			if v.Score != tt.score || v.Reason != tt.reason {
				t.Errorf("ParseVerdict(%q) = %v, %q; want %v, %q", tt.text, v.Score, v.Reason, tt.score, tt.reason)
			}
		})
	}
}

func TestParseVerdictBoundsWork(t *testing.T) {
	// Many braces must not make parsing quadratic: the search gives up
	// after a bounded number of tries and reports no verdict.
	text := strings.Repeat("{", 1<<16) + `{"score": 1, "reason": "late"}`
	if _, err := ParseVerdict(text); err == nil {
		t.Fatal("want no verdict found among too many braces")
	}
}

// TestParseVerdictBoundsWorkAfterAVerdict: after a verdict, the search for
// a second one is bounded too; past the bound, a reply that could still
// hold one is an error, and one that cannot is the verdict.
func TestParseVerdictBoundsWorkAfterAVerdict(t *testing.T) {
	head := `{"score": 0.5, "reason": "x"} `
	if _, err := ParseVerdict(head + strings.Repeat("{", 1<<16) + `{"score": 1}`); err == nil {
		t.Error("want an error when a second verdict may be past the bound")
	}
	if v, err := ParseVerdict(head + strings.Repeat("{", 1<<16)); err != nil || v.Score != 0.5 {
		t.Errorf("got %v, %v; want the verdict", v, err)
	}
}

func FuzzParseVerdict(f *testing.F) {
	for _, s := range []string{
		`{"score": 0.5, "reason": "x"}`,
		"```json\n{\"score\": 1}\n```",
		`{"score": "0.25"}`,
		`{"a": {"score": 2}}`,
		`not json {`,
		`{"score": 1} {"score": 0}`,
		`{"score": 1, "score": 1}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := ParseVerdict(text)
		if err != nil {
			return
		}
		if !(v.Score >= 0 && v.Score <= 1) {
			t.Fatalf("ParseVerdict(%q) accepted score %v", text, v.Score)
		}
	})
}
