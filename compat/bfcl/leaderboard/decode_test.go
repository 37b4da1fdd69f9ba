package leaderboard

import (
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		result string
		calls  int
		want   string // BFCL's decoder error type
	}{
		{`[{"f": {"a": 1}}, {"g": {}}]`, 2, ""},
		{`[{"f": "{\"a\": 1}"}]`, 1, ""},
		{`[]`, 0, ""},
		{`"f(a=1)"`, 0, "ast_decoder:decoder_failed"},
		{`[{"f": "{oops"}]`, 0, "ast_decoder:decoder_failed"},
		{`[{"f": "[1]"}]`, 0, "ast_decoder:decoder_wrong_output_format"},
		{`[{}]`, 0, "ast_decoder:decoder_wrong_output_format"},
		{`[{"f": {}, "g": {}}]`, 0, "ast_decoder:decoder_wrong_output_format"},
		{`[["f"]]`, 0, "ast_decoder:decoder_wrong_output_format"},
		{`{"f": {}}`, 0, "ast_decoder:decoder_wrong_output_format"},
		{`null`, 0, "ast_decoder:decoder_wrong_output_format"},
	}
	for _, tt := range tests {
		t.Run(tt.result, func(t *testing.T) {
			v, err := jsonvalue.ParseString(tt.result)
			if err != nil {
				t.Fatal(err)
			}
			calls, got := decode(v)
			if got, _, _ := strings.Cut(got, ": "); got != tt.want || len(calls) != tt.calls {
				t.Errorf("%d calls, error %q; want %d, %q", len(calls), got, tt.calls, tt.want)
			}
		})
	}
}

// FuzzDecode decodes arbitrary results: it never panics, and gives calls
// with object arguments, or a decoder error type.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`[{"f": {"a": 1}}]`, `[{"f": "{\"a\": 1}"}]`, `"text"`, `[{"f": "[1"}]`, `[1]`, `{}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := jsonvalue.ParseString(text)
		if err != nil {
			return
		}
		calls, msg := decode(v)
		if msg != "" {
			if !strings.HasPrefix(msg, "ast_decoder:decoder_") || calls != nil {
				t.Errorf("%s: %d calls, error %q", text, len(calls), msg)
			}
			return
		}
		for _, c := range calls {
			if _, ok := c.Args.(jsonvalue.Object); !ok {
				t.Errorf("%s: call %s with arguments %s", text, c.Name, jsonvalue.Kind(c.Args))
			}
		}
	})
}

// FuzzDataFiles reads arbitrary question and possible-answer files: they
// never panic, and every error names the file and line.
func FuzzDataFiles(f *testing.F) {
	for _, s := range []string{
		`{"id": "simple_python_0", "question": [[]], "function": []}`,
		`{"id": "simple_python_0", "ground_truth": [{"f": {"a": [1]}}]}`,
		"\n\n{\"id\": 1}\n",
		"{oops",
		"[]\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		for _, parse := range []func(string, []byte) (map[string]any, error){parseQuestions, parseAnswers} {
			m, err := parse("BFCL_v4_x.json", text)
			if err != nil && !strings.HasPrefix(err.Error(), "BFCL_v4_x.json:") {
				t.Errorf("error without the file and line: %v", err)
			}
			if m == nil {
				t.Error("no map")
			}
		}
	})
}
