package leaderboard_test

import (
	"strings"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/bfcl/leaderboard"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func TestAnswerAppendJSON(t *testing.T) {
	args := jsonvalue.Object{{Key: "b", Value: jsonvalue.MustFrom(1)}, {Key: "a", Value: "x"}}
	tests := []struct {
		name string
		a    leaderboard.Answer
		want string
	}{
		{"calls", leaderboard.Answer{ID: "parallel_0", Calls: []toolgrade.Call{{Name: "f", Args: args}, {Name: "g.h"}}, Usage: toolgrade.Usage{PromptTokens: 7, CompletionTokens: 3}, Latency: 1500 * time.Microsecond},
			`{"id":"parallel_0","result":[{"f":{"b":1,"a":"x"}},{"g.h":{}}],"input_token_count":7,"output_token_count":3,"latency":0.0015}`},
		{"arguments that are not JSON", leaderboard.Answer{ID: "simple_python_0", Calls: []toolgrade.Call{{Name: "f", Invalid: true, ArgsRaw: `{"a": `}}},
			`{"id":"simple_python_0","result":[{"f":"{\"a\": "}],"input_token_count":0,"output_token_count":0,"latency":0}`},
		{"text", leaderboard.Answer{ID: "irrelevance_0", Text: "No tool fits.", Latency: 2 * time.Second},
			`{"id":"irrelevance_0","result":"No tool fits.","input_token_count":0,"output_token_count":0,"latency":2}`},
		{"no text, no call", leaderboard.Answer{ID: "irrelevance_0"},
			`{"id":"irrelevance_0","result":"","input_token_count":0,"output_token_count":0,"latency":0}`},
		{"error", leaderboard.Answer{ID: "live_simple_0-0-0", Calls: []toolgrade.Call{{Name: "f"}}, Error: "step 1: timeout"},
			`{"id":"live_simple_0-0-0","result":"Error during inference: step 1: timeout","input_token_count":0,"output_token_count":0,"latency":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(tt.a.AppendJSON([]byte("> "))); got != "> "+tt.want {
				t.Errorf("got  %s\nwant > %s", got, tt.want)
			}
			// The line reads back as a result entry.
			var rs leaderboard.Results
			if err := rs.Read("r.json", strings.NewReader(tt.want)); err != nil || len(rs.Entries) != 1 || rs.Entries[0].ID != tt.a.ID {
				t.Errorf("read back: %v, %+v", err, rs.Entries)
			}
		})
	}
}
