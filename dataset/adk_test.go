package dataset_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// An ADK eval set, or eval results, read as a case file: a case per eval
// case, its invocations its turns, each with the calls expected and, in
// results, those made.
func TestADKEvalFiles(t *testing.T) {
	type call struct {
		Name string
		Turn int
		Args string
	}
	type want struct {
		ID               string
		Inputs           []any
		Expected, Called []call
		Warnings         int
		Err              string
	}
	calls := func(cs []toolgrade.Call) []call {
		var out []call
		for _, c := range cs {
			s := c.String()
			if c.Output != nil {
				s += " → " + string(jsonvalue.Append(nil, c.Output))
			}
			if c.Failed() {
				s += " (error)"
			}
			out = append(out, call{c.Name, c.Turn, s})
		}
		return out
	}
	for _, tt := range []struct {
		file string
		want []want
	}{
		{"roll_die_set.evalset_result.json", []want{
			{ID: "roll_twice_then_prime", Inputs: []any{"Roll a 6 sided die twice", "Is 13 prime?"},
				Expected: []call{{"roll_die", 1, `roll_die({"sides":6})`}, {"roll_die", 1, `roll_die({"sides":6})`}, {"check_prime", 2, `check_prime({"nums":[13]})`}},
				Called:   []call{{"roll_die", 1, `roll_die({"sides":6}) → {"result":4}`}, {"roll_die", 1, `roll_die({"sides":6}) → {"result":6}`}, {"check_prime", 2, `check_prime({"nums":[31]}) → {"error":"the prime service is down"} (error)`}}},
			{ID: "greeting", Inputs: []any{"Hi"}}}},
		{"home_automation.evalset.json", []want{
			{ID: "turn_off_then_check", Inputs: []any{"Turn off device_2 in the Bedroom.", "What is its status now?"},
				Expected: []call{{"set_device_info", 1, `set_device_info({"location":"Bedroom","device_id":"device_2","status":"OFF"}) → {"result":"Device device_2 information updated: status: OFF, location: Bedroom."}`}, {"get_device_info", 2, `get_device_info({"device_id":"device_2"}) → {"status":"OFF"}`}},
				Warnings: 1},
			{ID: "simulated_user", Warnings: 2}}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "trace", "testdata", "adk_evalset", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var got []want
			for rec, err := range dataset.Reader(tt.file, strings.NewReader(string(data)), dataset.Auto) {
				if err != nil {
					t.Fatal(err)
				}
				c, err := rec.Decode()
				w := want{ID: c.ID, Expected: calls(c.Expected), Called: calls(c.Called), Warnings: len(c.Warnings)}
				for _, turn := range c.Turns {
					w.Inputs = append(w.Inputs, turn.Input)
				}
				if err != nil {
					w.Err = err.Error()
				}
				got = append(got, w)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("cases (-want +got):\n%s", diff)
			}
		})
	}
}

// Only an object with a list of eval cases is an eval file; a case that
// mentions one is a case.
func TestADKEvalFilesOnlyByShape(t *testing.T) {
	got, err := readAll(t, "c.jsonl", `{"id": "a", "input": "the \"eval_cases\" key", "expected_tools": []}`+"\n"+
		`{"eval_set_id": "s", "eval_cases": [{"eval_id": "x", "conversation": []}, 7]}`, dataset.Auto)
	if err != nil {
		t.Fatal(err)
	}
	want := []outcome{{"a", 1, ""}, {"x", 2, ""}, {"line-2:eval_cases[1]", 0, "c.jsonl:2: eval_cases[1]: want an eval case object, got integer"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}
