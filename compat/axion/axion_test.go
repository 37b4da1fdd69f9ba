package axion_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/axion"
	"github.com/toolgrade/toolgrade/compat/internal/conformance"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
)

// TestAxionConformance runs every line of axion.jsonl (the package's
// sample, and the shared corpus when present): the scores axion's real
// ToolCorrectness gave.
func TestAxionConformance(t *testing.T) {
	conformance.Run(t, conformance.Suite{File: "axion.jsonl", Lines: 1192})
}

func TestAxionQuirks(t *testing.T) {
	fuzzy := func(th float64) axion.Options {
		return axion.Options{CheckParameters: true, ParameterMatchingStrategy: "fuzzy", FuzzyThreshold: &th}
	}
	for _, tt := range []struct {
		name string
		opts axion.Options
		c    string
		want float64 // NaN: an error result
	}{
		{"both empty", axion.Options{}, `{"tools_called":[],"expected_tools":[]}`, 1},
		{"nothing expected", axion.Options{Scoring: "precision"}, `{"tools_called":[{"name":"a"}],"expected_tools":[]}`, 0},
		{"nothing called: recall", axion.Options{}, `{"tools_called":[],"expected_tools":[{"name":"a"}]}`, 0},
		{"nothing called: precision is 1", axion.Options{Scoring: "precision"}, `{"tools_called":[],"expected_tools":[{"name":"a"}]}`, 1},
		{"names are case-sensitive", axion.Options{}, `{"tools_called":[{"name":"A"}],"expected_tools":[{"name":"a"}]}`, 0},
		{"args ignored by default", axion.Options{}, `{"tools_called":[{"name":"a","args":{"x":1}}],"expected_tools":[{"name":"a","args":{"x":2}}]}`, 1},
		{"exact: 1 == 1.0 == true", axion.Options{CheckParameters: true}, `{"tools_called":[{"name":"a","args":{"x":1.0,"y":[true]}}],"expected_tools":[{"name":"a","args":{"y":[1],"x":true}}]}`, 1},
		{"exact: \"1\" != 1", axion.Options{CheckParameters: true}, `{"tools_called":[{"name":"a","args":{"x":"1"}}],"expected_tools":[{"name":"a","args":{"x":1}}]}`, 0},
		{"subset: extra keys at every level", axion.Options{CheckParameters: true, ParameterMatchingStrategy: "subset"},
			`{"tools_called":[{"name":"a","args":{"x":{"y":1,"z":2},"w":0}}],"expected_tools":[{"name":"a","args":{"x":{"y":1}}}]}`, 1},
		{"subset: arrays of objects compare whole", axion.Options{CheckParameters: true, ParameterMatchingStrategy: "subset"},
			`{"tools_called":[{"name":"a","args":{"x":[{"y":1,"z":2}]}}],"expected_tools":[{"name":"a","args":{"x":[{"y":1}]}}]}`, 0},
		{"strict order: positions", axion.Options{StrictOrder: true, Scoring: "precision"},
			`{"tools_called":[{"name":"b"},{"name":"a"}],"expected_tools":[{"name":"a"},{"name":"b"}]}`, 0},
		{"greedy first match, not the best", axion.Options{CheckParameters: true, ParameterMatchingStrategy: "subset"},
			`{"tools_called":[{"name":"a","args":{"x":1,"y":2}},{"name":"a","args":{"x":1}}],"expected_tools":[{"name":"a","args":{"x":1}},{"name":"a","args":{"x":1,"y":2}}]}`, 0.5},
		{"f1", axion.Options{Scoring: "f1"}, `{"tools_called":[{"name":"a"},{"name":"c"}],"expected_tools":[{"name":"a"},{"name":"b"},{"name":"d"}]}`, 0.4},
		{"fuzzy: empty expected args match anything", fuzzy(0.99), `{"tools_called":[{"name":"a","args":{"x":1}}],"expected_tools":[{"name":"a","args":{}}]}`, 1},
		{"fuzzy: int vs float scores 0", fuzzy(0.5), `{"tools_called":[{"name":"a","args":{"x":1.0}}],"expected_tools":[{"name":"a","args":{"x":1}}]}`, 0},
		{"fuzzy: null vs null scores 0", fuzzy(0.5), `{"tools_called":[{"name":"a","args":{"x":null}}],"expected_tools":[{"name":"a","args":{"x":null}}]}`, 0},
		{"fuzzy: opposite signs fail threshold 0", fuzzy(0), `{"tools_called":[{"name":"a","args":{"x":5,"y":"s"}}],"expected_tools":[{"name":"a","args":{"x":-5,"y":"sx"}}]}`, 0},
		{"fuzzy: negative float similarity", fuzzy(0), `{"tools_called":[{"name":"a","args":{"x":2.5}}],"expected_tools":[{"name":"a","args":{"x":-5.0}}]}`, 0},
		{"fuzzy: close floats", fuzzy(0.75), `{"tools_called":[{"name":"a","args":{"x":4.0}}],"expected_tools":[{"name":"a","args":{"x":5.0}}]}`, 1},
		{"fuzzy: a null expected value scores 0", fuzzy(0.75), `{"tools_called":[{"name":"a","args":{"x":"abcd"}}],"expected_tools":[{"name":"a","args":{"x":"abcx","y":null}}]}`, 0},
		{"fuzzy: string ratio equal to the threshold passes", fuzzy(0.75), `{"tools_called":[{"name":"a","args":{"x":"abcd"}}],"expected_tools":[{"name":"a","args":{"x":"abcx"}}]}`, 1},
		{"fuzzy: objects", fuzzy(0.75), `{"tools_called":[{"name":"a","args":{"x":{"p":1,"q":2}}}],"expected_tools":[{"name":"a","args":{"x":{"p":1}}}]}`, 1},
		{"fuzzy: bool vs int", fuzzy(0.5), `{"tools_called":[{"name":"a","args":{"x":true}}],"expected_tools":[{"name":"a","args":{"x":1}}]}`, 0},
		{"null args: CustomValidationError", axion.Options{}, `{"tools_called":[{"name":"a","args":null}],"expected_tools":[{"name":"a"}]}`, math.NaN()},
		{"absent args are {}", axion.Options{CheckParameters: true}, `{"tools_called":[{"name":"a"}],"expected_tools":[{"name":"a","args":{}}]}`, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := axion.New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			r := m.Grade(context.Background(), conformance.ParseCase(t, tt.c))
			if math.IsNaN(tt.want) {
				if r.Error == "" {
					t.Fatalf("score %v, want an error", r.Score)
				}
				return
			}
			if r.Error != "" {
				t.Fatalf("error %s", r.Error)
			}
			if math.Abs(r.Score-tt.want) > 1e-12 {
				t.Errorf("score %v, want %v (reason: %s)", r.Score, tt.want, r.Reason)
			}
			if r.Success != (r.Score >= 0.5) {
				t.Errorf("success %v for score %v", r.Success, r.Score)
			}
		})
	}
}

func TestAxionOptionErrors(t *testing.T) {
	for _, opts := range []axion.Options{
		{ParameterMatchingStrategy: "loose"},
		{Scoring: "accuracy"},
	} {
		if _, err := axion.New(opts); err == nil {
			t.Errorf("New(%+v) accepted", opts)
		}
	}
	_, err := config.Metric(jsonvalue.Object{{Key: "profile", Value: "axion"}, {Key: "strict", Value: true}}, nil)
	if err == nil {
		t.Error("config accepted an option axion does not have")
	}
}

// TestAxionRatioMatchesCPython pins match.Ratio, which axion's fuzzy
// strategy relies on, to values computed with CPython 3.11's
// difflib.SequenceMatcher(None, a, b).ratio().
func TestAxionRatioMatchesCPython(t *testing.T) {
	long := func(unit string, n int) string {
		s := ""
		for range n {
			s += unit
		}
		return s
	}
	const (
		longB = "table east north lazy west summary gamma fox dog london fox value beta flight table the gamma user quick search search north north table report brown account forecast jumps results results the data results weather over search"
		longA = "table east north lazy west summary gamma fox dog paris fox value beta flight table the gamma user quick search search north south table report brown account forecast jumps results results the data results weather over search"
	)
	for _, tt := range []struct {
		a, b string
		want float64
	}{
		{"", "", 1},
		{"a", "", 0},
		{"abcd", "abcx", 0.75},
		{"abcd", "bcda", 0.75},
		{"tokyo", "Tokyo", 0.8},
		{"😀 smile", "smile 😀", 0.7142857142857143},
		{"é", "e\u0301", 0},
		{"naïve café", "naive cafe", 0.8},
		// Not symmetric: the junk heuristic looks at b only.
		{"private Thread currentThread;", "private volatile Thread currentThread;", 0.8656716417910447},
		{"the quick brown fox", "the quack brown fix", 0.8947368421052632},
		// b has 200+ characters: its popular characters cannot start a
		// match, which lowers the ratio of long texts (autojunk).
		{long("ab", 100), long("ab", 150), 0.8},
		{long("ab", 150), long("ab", 150), 1},
		{long("ba", 150), long("ab", 150), 0},                                // 0.9967 without autojunk
		{"x" + long("ab", 120), long("ab", 120) + "x", 0.004149377593360996}, // 0.9959 without
		{long("the quick brown fox ", 12), long("the quick brown fox ", 12) + "jumps", 0.9896907216494846},
		{long("the quick brown fox ", 11) + "jumps over", long("the quick brown fox ", 10) + "jumps over the lazy dog", 0.9271523178807947},
		// One word changed in a 225-character text: 0.9666 without autojunk.
		{longA, longB, 0.22717149220489977},
	} {
		if got := match.Ratio(tt.a, tt.b); got != tt.want {
			t.Errorf("Ratio(%.30q, %.30q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func ExampleNew() {
	m, err := axion.New(axion.Options{
		CheckParameters:           true,
		ParameterMatchingStrategy: "subset",
		Scoring:                   "f1",
	})
	if err != nil {
		panic(err)
	}
	c := &toolgrade.Case{
		Expected: []toolgrade.Call{
			{Name: "search", Args: jsonvalue.MustFrom(map[string]any{"city": "Paris"})},
			{Name: "book", Args: jsonvalue.MustFrom(map[string]any{"seats": 2})},
		},
		Called: []toolgrade.Call{
			{Name: "search", Args: jsonvalue.MustFrom(map[string]any{"city": "Paris", "days": 3})},
			{Name: "book", Args: jsonvalue.MustFrom(map[string]any{"seats": 3})},
		},
	}
	r := m.Grade(context.Background(), c)
	fmt.Println(r.Score, r.Success)
	fmt.Println(r.Reason)
	// Output:
	// 0.5 true
	// 1 of 2 expected calls matched, 2 calls made (recall 0.5, precision 0.5, f1 0.5; scoring f1); expected #1 book({"seats":2}) not matched: called #1 argument "seats" is 3, want 2; called #1 book({"seats":3}) not expected
}
