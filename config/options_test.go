package config_test

import (
	"errors"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// An option that an entry's metric does not take is a
// *toolgrade.OptionError wrapping toolgrade.ErrUnknownOption, and its
// message says what the entry may have meant.
func TestUnknownOptions(t *testing.T) {
	tests := []struct {
		entry   string
		option  string // the unknown option; "" for an error of another kind
		message string
	}{
		{`{"ordr": "any"}`, "ordr",
			`profile default: unknown option "ordr"; did you mean "order"?`},
		{`{"profile": "deepeval", "args": "exact"}`, "args",
			`profile deepeval: unknown option "args": args is how the default profile spells it; under deepeval, set evaluation_params`},
		{`{"profile": "adk", "ragas_metric": "x"}`, "ragas_metric",
			`profile adk: unknown option "ragas_metric": it is an option of the ragas profile, not of adk (want match_type, threshold, or profile, name, metric)`},
		{`{"profile": "adk", "zzzzzzzz": 1}`, "zzzzzzzz",
			`profile adk: unknown option "zzzzzzzz" (want match_type, threshold, or profile, name, metric)`},
		{`{"metric": "tool_process", "rulez": []}`, "rulez",
			`metric tool_process: unknown option "rulez"; did you mean "rules"?`},
		{`{"metric": "tool_process", "zzzzzzzz": 1}`, "zzzzzzzz",
			`metric tool_process: unknown option "zzzzzzzz" (want rules, threshold, or name, metric)`},
		{`{"metric": "schema", "weights": {"tool_selectoin": 1}}`, "weights.tool_selectoin",
			`metric schema: unknown option "weights.tool_selectoin"`},
		{`{"profile": "deepeval", "treshold": 0.5}`, "treshold",
			`profile deepeval: unknown option "treshold"; did you mean "threshold"?`},
		{`{"order": 3}`, "",
			`profile default: order: want a string, got the number 3`},
		{`{"profile": "deepeval", "threshold": "high"}`, "",
			`profile deepeval: threshold: want a number, got the string "high"`},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			entry, err := jsonvalue.ParseString(tt.entry)
			if err != nil {
				t.Fatal(err)
			}
			_, err = config.Metric(entry.(jsonvalue.Object), nil)
			if err == nil || err.Error() != tt.message {
				t.Errorf("error %v\nwant     %s", err, tt.message)
			}
			var oe *toolgrade.OptionError
			if !errors.As(err, &oe) {
				t.Fatalf("error %v is no *toolgrade.OptionError", err)
			}
			if unknown := errors.Is(err, toolgrade.ErrUnknownOption); unknown != (tt.option != "") || tt.option != "" && oe.Option != tt.option {
				t.Errorf("option %q, unknown %v; want unknown option %q", oe.Option, unknown, tt.option)
			}
		})
	}
}
