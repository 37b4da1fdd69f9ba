package dataset_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/process"
	"github.com/toolgrade/toolgrade/state"
)

// TestDecodeTurns reads the three ways of writing a case's turns, ADK's
// invocations, and the mistakes each can hold.
func TestDecodeTurns(t *testing.T) {
	// A chat whose two user messages open two turns; the tool message
	// opens none.
	const chat = `[{"role":"user","content":"find my order"},
		{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"find","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"c1","content":"{\"id\":\"W1\"}"},
		{"role":"user","content":"cancel it"},
		{"role":"assistant","tool_calls":[{"id":"c2","type":"function","function":{"name":"cancel","arguments":"{\"id\":\"W1\"}"}}]}]`
	tests := []struct {
		name     string
		record   string
		turns    int      // len(Case.Turns)
		called   []int    // each called call's Turn
		expected []int    // each expected call's Turn
		inputs   []string // each turn's input, as JSON
		err      string   // a substring of the error, when one is wanted
		warning  string
	}{
		{name: "turns with their own calls",
			record: `{"turns":[{"input":"a","expected_tools":[{"name":"f"}],"tools_called":[{"name":"f"}]},
				{"input":"b","expected_tools":[{"name":"g"},{"name":"h"}],"tools_called":[]}]}`,
			turns: 2, called: []int{1}, expected: []int{1, 2, 2}, inputs: []string{`"a"`, `"b"`}},
		{name: "turns over the case's trajectory",
			record: `{"trajectory":` + chat + `,"turns":[{"expected_tools":[{"name":"find"}]},{"expected_tools":[{"name":"cancel"}]}]}`,
			turns:  2, called: []int{1, 2}, expected: []int{1, 2}, inputs: []string{`"find my order"`, `"cancel it"`}},
		{name: "turns over tools_called with turn numbers",
			record: `{"tools_called":[{"name":"f","turn":2}],"turns":[{"expected_tools":[]},{"expected_tools":[{"name":"f"}]}]}`,
			turns:  2, called: []int{2}, expected: []int{2}, inputs: []string{`null`, `null`}},
		{name: "pinned expected calls over a trajectory",
			record: `{"trajectory":` + chat + `,"expected_tools":[{"name":"find","turn":1},{"name":"cancel","turn":2}]}`,
			turns:  2, called: []int{1, 2}, expected: []int{1, 2}, inputs: []string{`"find my order"`, `"cancel it"`}},
		{name: "a trajectory without pins is one list, its turns known",
			record: `{"trajectory":` + chat + `,"expected_tools":[{"name":"find"},{"name":"cancel"}]}`,
			turns:  2, called: []int{1, 2}, expected: []int{0, 0}, inputs: []string{`"find my order"`, `"cancel it"`}},
		{name: "a one-message trajectory is one turn, carved with the case",
			record: `{"trajectory":` + chat[:strings.Index(chat, `{"role":"user","content":"cancel`)-4] + `],"expected_tools":[{"name":"find"},{"name":"f"},{"name":"g"}]}`,
			turns:  1, called: []int{1}, expected: []int{0, 0, 0}, inputs: []string{`"find my order"`}},
		{name: "an expected trajectory pins nothing",
			record: `{"tools_called":[],"expected_trajectory":` + chat + `}`,
			turns:  0, called: []int{}, expected: []int{0, 0}},
		{name: "ADK invocations are turns",
			record: `{"invocations":[{"tools_called":[{"name":"f","args":{}}],"expected_tools":[{"name":"f","args":{}}]},{"expected_tools":[{"name":"g"}]}]}`,
			turns:  2, called: []int{1}, expected: []int{1, 2}, inputs: []string{`null`, `null`}},
		{name: "empty ADK invocations warn",
			record:  `{"invocations":[]}`,
			warning: "nothing to grade"},

		{name: "empty turns", record: `{"turns":[]}`, err: "field turns: no turns"},
		{name: "turns not a list", record: `{"turns":{}}`, err: "field turns: want a list of turns, got object"},
		{name: "turn not an object", record: `{"turns":[1]}`, err: "field turns[0]: want a turn object, got integer"},
		{name: "misspelled turn field", record: `{"turns":[{"expected_tool":[]}]}`, err: "unknown field `turns[0].expected_tool`; did you mean `expected_tools`?"},
		{name: "calls both in the case and its turns",
			record: `{"tools_called":[],"turns":[{"tools_called":[]}]}`, err: "field turns[0]: called calls (tools_called or trajectory) are given both for the case and in its turns"},
		{name: "turns that do not fit the trajectory",
			record: `{"trajectory":` + chat + `,"turns":[{"expected_tools":[]}]}`, err: "1 turn, but the case's trajectory has 2 user messages"},
		{name: "tools_called without turn numbers under turns",
			record: `{"tools_called":[{"name":"f"}],"turns":[{"expected_tools":[]}]}`, err: `field tools_called[0]: want "turn" from 1 to 1`},
		{name: "pinned calls without any turns to pin them to",
			record: `{"tools_called":[{"name":"f"}],"expected_tools":[{"name":"f","turn":2}]}`, err: `calls are pinned to turns`},
		{name: "bad turn number", record: `{"tools_called":[],"expected_tools":[{"name":"f","turn":0}]}`, err: `field expected_tools[0].turn: want the turn's number`},
		{name: "bad status", record: `{"tools_called":[{"name":"f","status":"failed"}],"expected_tools":[]}`, err: `field tools_called[0].status: want "ok" or "error", got "failed"`},
		{name: "bad from rule", record: `{"tools_called":[],"expected_tools":[{"name":"f","rules":{"id":{"from":"lookup.id"}}}]}`, err: `field expected_tools[0].rules.id.from: want <tool>.output.<path>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := jsonvalue.ParseString(tt.record)
			if err != nil {
				t.Fatal(err)
			}
			c, err := dataset.DecodeCase(v)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.warning != "" {
				if !strings.Contains(strings.Join(c.Warnings, "\n"), tt.warning) {
					t.Errorf("warnings %q, want one containing %q", c.Warnings, tt.warning)
				}
				return
			}
			if len(c.Turns) != tt.turns || cap(c.Turns) != len(c.Turns) {
				t.Errorf("%d turns (room for %d), want %d and no more room", len(c.Turns), cap(c.Turns), tt.turns)
			}
			turnsOf := func(calls []toolgrade.Call) []int {
				out := []int{}
				for _, c := range calls {
					out = append(out, c.Turn)
				}
				return out
			}
			if diff := cmp.Diff(tt.called, turnsOf(c.Called)); diff != "" {
				t.Errorf("called turns (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.expected, turnsOf(c.Expected)); diff != "" {
				t.Errorf("expected turns (-want +got):\n%s", diff)
			}
			var inputs []string
			for _, turn := range c.Turns {
				inputs = append(inputs, jsonvalue.Format(turn.Input))
			}
			if diff := cmp.Diff(tt.inputs, inputs); diff != "" {
				t.Errorf("turn inputs (-want +got):\n%s", diff)
			}
		})
	}
}

// The fields of the process and state metrics stay in the record, where
// those metrics read them.
func TestDecodeTrajectoryFields(t *testing.T) {
	v, err := jsonvalue.ParseString(`{"tools_called":[{"name":"x"}],"available_tools":[{"name":"x"}],"process":[{"never":"x"}],"expected_state":{"a":1,"b":1},"final_state":{"a":2,"b":2},"state_rules":{"$.a":{"ignore":true}}}`)
	if err != nil {
		t.Fatal(err)
	}
	c, err := dataset.DecodeCase(v)
	if err != nil {
		t.Fatal(err)
	}
	pm, _ := process.New(process.Options{})
	sm, _ := state.New(state.Options{})
	r := toolgrade.Grade(context.Background(), c, pm, sm)
	got := []string{r.Metrics[0].Reason, r.Metrics[1].Reason}
	want := []string{"1 process rule broken; never: x (x (#0) called)", "state differs at 1 of 1 values: $.b expected 1, got 2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
