package toolgrade_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/match"
)

// testOptions has a field of every shape DecodeOptions walks into.
type testOptions struct {
	Order     string             `json:"order,omitempty"`
	Threshold *float64           `json:"threshold,omitempty"`
	Workers   int                `json:"workers"`
	Weights   *testWeights       `json:"weights"`
	PerTool   map[string]testRef `json:"per_tool"`
	Rules     []testRef          `json:"rules"`
	Modes     []match.Mode       `json:"modes"`
	Custom    selfReading        `json:"custom"`
	Untagged  bool
	Skipped   string `json:"-"`
	internal  string //lint:ignore U1000 an unexported field is no option
}

type testWeights struct {
	Selection *float64 `json:"selection"`
}

type testRef struct {
	Tool string `json:"tool"`
}

// selfReading reads any JSON itself; its keys are its own business.
type selfReading struct{ raw string }

func (s *selfReading) UnmarshalJSON(b []byte) error { s.raw = string(b); return nil }

func TestDecodeOptions(t *testing.T) {
	tests := []struct {
		in string
		// unknown is the path of the unknown option; option and want name
		// an option with a wrong value and the message; all empty: no
		// error.
		unknown      string
		option, want string
	}{
		{in: `{}`},
		{in: `{"order": "any", "threshold": 0.5, "workers": 2, "weights": {"selection": 1}, "per_tool": {"f": {"tool": "g"}}, "rules": [{"tool": "h"}], "modes": ["exact"], "Untagged": true}`},
		{in: `{"ORDER": "any", "untagged": true}`}, // keys match case-insensitively, as in encoding/json
		{in: `{"custom": {"anything": [1, {"at": "all"}]}}`},
		{in: `{"weights": null, "per_tool": null}`},
		{in: `{"treshold": 0.5}`, unknown: "treshold"},
		{in: `{"order": "any", "Skipped": "x"}`, unknown: "Skipped"},
		{in: `{"internal": "x"}`, unknown: "internal"},
		{in: `{"weights": {"selction": 1}}`, unknown: "weights.selction"},
		{in: `{"per_tool": {"f": {"tool": "g", "toll": 1}}}`, unknown: "per_tool.f.toll"},
		{in: `{"rules": [{"tool": "a"}, {"tol": "b"}]}`, unknown: "rules[1].tol"},
		{in: `{"order": 3}`, option: "order", want: "order: want a string, got the number 3"},
		{in: `{"workers": 1.5}`, option: "workers", want: "workers: want a whole number, got 1.5"},
		{in: `{"threshold": "high"}`, option: "threshold", want: "threshold: want a number, got the string \"high\""},
		{in: `{"weights": {"selection": true}}`, option: "weights.selection", want: "weights.selection: want a number, got true"},
		{in: `{"rules": {"tool": "a"}}`, option: "rules", want: "rules: want a list, got object"},
		{in: `{"threshold": 1e999}`, option: "threshold", want: "threshold: want a number, got 1e999, out of range"},
		{in: `{"workers": 1e30}`, option: "workers", want: "workers: want a whole number, got 1e30"},
		{in: `{"workers": 100000000000000000000}`, option: "workers", want: "workers: want a whole number, got 100000000000000000000, out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var o testOptions
			err := toolgrade.DecodeOptions([]byte(tt.in), &o)
			var oe *toolgrade.OptionError
			switch {
			case tt.unknown != "":
				if !errors.Is(err, toolgrade.ErrUnknownOption) || !errors.As(err, &oe) || oe.Option != tt.unknown {
					t.Fatalf("error %v, want unknown option %s", err, tt.unknown)
				}
				if want := fmt.Sprintf("unknown option %q", tt.unknown); err.Error() != want {
					t.Errorf("message %q, want %q", err, want)
				}
			case tt.option != "":
				if !errors.As(err, &oe) || oe.Option != tt.option || errors.Is(err, toolgrade.ErrUnknownOption) {
					t.Fatalf("error %v, want an *OptionError for %s", err, tt.option)
				}
				if err.Error() != tt.want {
					t.Errorf("message %q, want %q", err, tt.want)
				}
			case err != nil:
				t.Fatal(err)
			}
		})
	}
}

// DecodeOptions refuses exactly what encoding/json's strict decoding
// refuses, and reads what it reads: its walk for unknown keys agrees with
// encoding/json's own rules.
func FuzzDecodeOptions(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"order":"any","weights":{"selection":1}}`, `{"ORDER":"x"}`, `{"weights":{"Selection":2,"x":1}}`,
		`{"per_tool":{"a":{"tool":"b","c":1}}}`, `{"rules":[{},{"x":1}]}`, `{"custom":{"y":1}}`, `{"workers":"1"}`,
		`{"modes":["a"],"untagged":false}`, `[]`, `null`, `{"order":"a","order":1}`, `{"ſkipped":1}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !json.Valid([]byte(in)) {
			return
		}
		var strict testOptions
		dec := json.NewDecoder(bytes.NewReader([]byte(in)))
		dec.DisallowUnknownFields()
		jsonErr := dec.Decode(&strict)
		var got testOptions
		err := toolgrade.DecodeOptions([]byte(in), &got)
		if (err == nil) != (jsonErr == nil) {
			t.Fatalf("DecodeOptions: %v; encoding/json: %v", err, jsonErr)
		}
		if err == nil && !reflect.DeepEqual(got, strict) {
			t.Fatalf("DecodeOptions read %+v, encoding/json %+v", got, strict)
		}
	})
}

// A misspelled option in a config entry is an unknown option, which a
// caller tells from a bad value with errors.Is.
func ExampleDecodeOptions() {
	var o match.Options
	err := toolgrade.DecodeOptions([]byte(`{"order": "in-order", "treshold": 0.5}`), &o)
	fmt.Println(err, errors.Is(err, toolgrade.ErrUnknownOption))
	// Output: unknown option "treshold" true
}
