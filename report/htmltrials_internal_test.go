package report

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/bench"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"pgregory.net/rapid"
)

// TestCallSampleRoundTrip: a trial's calls read back from their sample
// are the calls as parting read them before samples were encoded: the
// same names, raw arguments and arguments, down to the kind of every
// value and nil slices, over generated cases' documents, values of every
// kind, and random values.
func TestCallSampleRoundTrip(t *testing.T) {
	sp, err := newSpool("toolgrade-test-*")
	if err != nil {
		t.Fatal(err)
	}
	defer sp.close()
	sp.w.WriteString("something before")
	check := func(t interface{ Fatalf(string, ...any) }, calls []toolgrade.Call) {
		want := make([]toolgrade.Call, len(calls))
		for i, c := range calls {
			want[i] = toolgrade.Call{Name: c.Name, Args: c.Args, ArgsRaw: c.ArgsRaw, Invalid: c.Invalid}
		}
		s := &callSample{at: sp.size()}
		b := s.encode(nil, calls)
		s.size = len(b)
		sp.w.Write(b)
		sp.w.WriteString("something after")
		got, err := s.calls(sp)
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		if len(got) == 0 && len(want) == 0 {
			return // nil or empty: parting reads them alike
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read back\n%#v\nwant\n%#v", got, want)
		}
	}
	t.Run("kinds", func(t *testing.T) {
		type custom struct{ n int }
		check(t, nil)
		check(t, []toolgrade.Call{})
		check(t, []toolgrade.Call{
			{Name: "a"},
			{Name: "b", Args: jsonvalue.Object(nil)},
			{Name: "c", Args: []any(nil)},
			{Name: "d", ArgsRaw: "{not json", Invalid: true},
			{Name: "é\x00\xff", Args: jsonvalue.Object{{Key: "k", Value: []any{nil, true, false, "s\xff", json.Number("1.50"), jsonvalue.Object{}, []any{}}},
				{Key: "k", Value: 2.5}, {Key: "", Value: custom{7}}, {Key: "m", Value: map[string]any{"x": 1}}}},
		})
	})
	t.Run("generated", func(t *testing.T) {
		for i, line := range bench.NewGenerator(1).Lines(500) {
			v, err := jsonvalue.Parse(line)
			if err != nil {
				t.Fatalf("line %d: %v", i, err)
			}
			check(t, []toolgrade.Call{{Name: "doc", Args: v}, {Name: "again", Args: v}})
		}
	})
	t.Run("random", rapid.MakeCheck(func(t *rapid.T) {
		n := rapid.IntRange(0, 4).Draw(t, "calls")
		calls := make([]toolgrade.Call, n)
		for i := range calls {
			calls[i] = toolgrade.Call{Name: rapid.String().Draw(t, "name"), ArgsRaw: rapid.String().Draw(t, "raw"),
				Invalid: rapid.Bool().Draw(t, "invalid"), Args: randomValue(t, 3)}
		}
		check(t, calls)
	}))
}

// randomValue draws a value of the JSON value model, depth levels deep
// at most.
func randomValue(t *rapid.T, depth int) any {
	kinds := 5
	if depth > 0 {
		kinds = 9
	}
	switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
	case 0:
		return nil
	case 1:
		return rapid.Bool().Draw(t, "bool")
	case 2:
		return rapid.String().Draw(t, "string")
	case 3:
		return json.Number(rapid.StringMatching(`-?[0-9]{1,20}(\.[0-9]{1,5})?`).Draw(t, "number"))
	case 4:
		return rapid.SampledFrom([]any{[]any(nil), jsonvalue.Object(nil), []any{}, jsonvalue.Object{}}).Draw(t, "empty")
	case 5, 6:
		a := make([]any, rapid.IntRange(0, 4).Draw(t, "len"))
		for i := range a {
			a[i] = randomValue(t, depth-1)
		}
		return a
	default:
		o := make(jsonvalue.Object, rapid.IntRange(0, 4).Draw(t, "len"))
		for i := range o {
			o[i] = jsonvalue.Member{Key: rapid.String().Draw(t, "key"), Value: randomValue(t, depth-1)}
		}
		return o
	}
}

// TestTrialSamplesFull: once the table is full, every id kept finds its
// sample, through the filter and the map, and no new id is given one.
func TestTrialSamplesFull(t *testing.T) {
	var ts trialSamples
	id := func(i int) string { return "case-" + strconv.Itoa(i) }
	first := make([]*trialSample, htmlTrialCases)
	for i := range first {
		if first[i] = ts.sample(id(i)); first[i] == nil {
			t.Fatalf("no sample for %s, the %dth case", id(i), i+1)
		}
		first[i].n = i + 1
	}
	for i := range htmlTrialCases + 20000 {
		got := ts.sample(id(i))
		switch {
		case i < htmlTrialCases && (got == nil || got.n != i+1):
			t.Fatalf("%s, kept, found %+v", id(i), got)
		case i >= htmlTrialCases && got != nil:
			t.Fatalf("%s, past the table, given a sample", id(i))
		}
	}
}
