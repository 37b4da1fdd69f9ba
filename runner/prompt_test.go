package runner_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/runner"
)

// TestPromptOption checks the Prompt hook: a case it takes sends what it
// gives, one it leaves is read as usual, and its error fails the case.
func TestPromptOption(t *testing.T) {
	var sent []string
	model := runner.ModelFunc(func(_ context.Context, body []byte) (*runner.Reply, error) {
		sent = append(sent, string(body))
		return &runner.Reply{Body: []byte(completion(text("ok")))}, nil
	})
	prompt := func(c *toolgrade.Case, tools []toolgrade.Tool) ([]any, []toolgrade.Tool, bool, error) {
		ask, ok := c.Raw.Get("ask")
		switch {
		case !ok:
			return nil, nil, false, nil
		case ask == "fail":
			return nil, nil, true, errors.New("cannot ask that")
		}
		msgs := []any{jsonvalue.Object{{Key: "role", Value: "user"}, {Key: "content", Value: ask}}}
		return msgs, []toolgrade.Tool{tools[0], {Name: "extra"}}, true, nil
	}
	r, err := runner.New(model, runner.Options{Model: "m", Prompt: prompt, Tools: []toolgrade.Tool{{Name: "base"}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, c, sent, err string
	}{
		{"taken", `{"id":"a","ask":"hello"}`, `"messages":[{"role":"user","content":"hello"}],"tools":[{"type":"function","function":{"name":"base",`, ""},
		{"left to the runner", `{"id":"b","input":"hi"}`, `"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"base",`, ""},
		{"error", `{"id":"c","ask":"fail"}`, "", "cannot ask that"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sent = nil
			run := r.Case(context.Background(), mustCase(t, tt.c))
			if tt.err != "" {
				if run.Error != tt.err || len(run.Problems) != 1 || run.Problems[0].Kind != runner.BadCase || len(sent) != 0 {
					t.Errorf("error %q, problems %v, %d requests; want %q", run.Error, run.Problems, len(sent), tt.err)
				}
				return
			}
			if run.Error != "" || len(sent) != 1 || !strings.Contains(sent[0], tt.sent) {
				t.Fatalf("error %q, requests %q; want one with %s", run.Error, sent, tt.sent)
			}
			if tt.name == "taken" && !strings.Contains(sent[0], `"name":"extra"`) {
				t.Errorf("the prompt's tools were not sent: %s", sent[0])
			}
		})
	}
}
