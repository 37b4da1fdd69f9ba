package match_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
)

type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

func v(t tb, s string) any {
	t.Helper()
	if s == "" {
		return nil
	}
	x, err := jsonvalue.ParseString(s)
	if err != nil {
		t.Fatalf("parse %s: %v", s, err)
	}
	return x
}

func rules(t tb, s string) map[string]toolgrade.Rule {
	t.Helper()
	if s == "" {
		return nil
	}
	r, err := toolgrade.DecodeRules(v(t, s))
	if err != nil {
		t.Fatalf("rules %s: %v", s, err)
	}
	return r
}

func TestComparerModes(t *testing.T) {
	tests := []struct {
		name           string
		expected, got  string
		rules          string
		mode           match.Mode
		want           float64
		wantDiffSubstr string // a path or note the diff must mention
	}{
		{"exact equal", `{"a":1,"b":"x"}`, `{"b":"x","a":1.0}`, "", match.ArgsExact, 1, ""},
		{"exact value differs", `{"a":1}`, `{"a":2}`, "", match.ArgsExact, 0, "a"},
		{"exact extra key", `{"a":1}`, `{"a":1,"b":2}`, "", match.ArgsExact, 0, "b"},
		{"exact missing key", `{"a":1,"b":2}`, `{"a":1}`, "", match.ArgsExact, 0, "missing"},
		{"exact null is not missing", `{"a":1,"b":null}`, `{"a":1}`, "", match.ArgsExact, 0, "b"},
		{"exact true is not 1", `{"a":true}`, `{"a":1}`, "", match.ArgsExact, 0, "a"},
		{"exact string is not number", `{"a":"1"}`, `{"a":1}`, "", match.ArgsExact, 0, "a"},
		{"exact arrays ordered", `{"a":[1,2]}`, `{"a":[2,1]}`, "", match.ArgsExact, 0, "a.0"},
		{"exact nested", `{"w":{"d":"2024-01-01","t":"9:00"}}`, `{"w":{"t":"9:00","d":"2024-01-01"}}`, "", match.ArgsExact, 1, ""},
		{"exact nested differs", `{"w":{"d":"2024-01-01"}}`, `{"w":{"d":"2024-01-02"}}`, "", match.ArgsExact, 0, "w.d"},
		{"no expected args accepts any", ``, `{"a":1}`, "", match.ArgsExact, 1, ""},
		{"no called args is an empty object", `{}`, ``, "", match.ArgsExact, 1, ""},
		{"no called args misses keys", `{"a":1}`, ``, "", match.ArgsExact, 0, "a"},
		{"non-object args", `[1,2]`, `[1,2]`, "", match.ArgsExact, 1, ""},

		{"ignore", `{"a":1}`, `{"b":2}`, "", match.ArgsIgnore, 1, ""},

		{"contains extra ok", `{"a":1}`, `{"a":1,"b":2}`, "", match.ArgsContains, 1, ""},
		{"contains missing", `{"a":1,"b":2}`, `{"a":1}`, "", match.ArgsContains, 0, "b"},
		{"contains nested extra ok", `{"w":{"d":1}}`, `{"w":{"d":1,"t":2},"x":3}`, "", match.ArgsContains, 1, ""},
		{"contains array elements", `{"l":[{"n":"a"}]}`, `{"l":[{"n":"a","e":"x"}]}`, "", match.ArgsContains, 1, ""},
		{"contains array length", `{"l":[1]}`, `{"l":[1,2]}`, "", match.ArgsContains, 0, "l"},

		{"within subset ok", `{"a":1,"b":2}`, `{"a":1}`, "", match.ArgsWithin, 1, ""},
		{"within extra key", `{"a":1}`, `{"a":1,"b":2}`, "", match.ArgsWithin, 0, "b"},
		{"within nested", `{"w":{"d":1,"t":2}}`, `{"w":{"d":1}}`, "", match.ArgsWithin, 1, ""},

		{"partial half", `{"a":1,"b":2}`, `{"a":1,"b":3}`, "", match.ArgsPartial, 0.5, "b"},
		{"partial union counts extras", `{"a":1}`, `{"a":1,"b":2}`, "", match.ArgsPartial, 0.5, "b"},
		{"partial nested recursion", `{"a":1,"w":{"x":1,"y":2}}`, `{"a":1,"w":{"x":1,"y":0}}`, "", match.ArgsPartial, 0.75, "w.y"},
		{"partial arrays all or nothing", `{"l":[1,2,3]}`, `{"l":[1,2,4]}`, "", match.ArgsPartial, 0, "l.2"},
		{"partial both empty", `{}`, `{}`, "", match.ArgsPartial, 1, ""},

		{"fuzzy close string", `{"q":"weather in paris"}`, `{"q":"weather in Paris"}`, "", match.ArgsFuzzy, 1, ""},
		{"fuzzy far string", `{"q":"weather in paris"}`, `{"q":"book a flight"}`, "", match.ArgsFuzzy, 0, "similarity"},
		{"fuzzy close number", `{"n":100}`, `{"n":95}`, "", match.ArgsFuzzy, 1, ""},
		{"fuzzy far number", `{"n":100}`, `{"n":10}`, "", match.ArgsFuzzy, 0, "similarity"},
		{"fuzzy type mismatch", `{"n":1}`, `{"n":"1"}`, "", match.ArgsFuzzy, 0, ""},

		{"rule one_of", `{"u":"metric"}`, `{"u":"celsius"}`, `{"u":{"one_of":["metric","celsius"]}}`, match.ArgsExact, 1, ""},
		{"rule one_of fails", `{"u":"metric"}`, `{"u":"kelvin"}`, `{"u":{"one_of":["metric","celsius"]}}`, match.ArgsExact, 0, "not one of"},
		{"rule regex", `{"d":"2024-05-01"}`, `{"d":"2024-06-30"}`, `{"d":{"regex":"^2024-\\d\\d-\\d\\d$"}}`, match.ArgsExact, 1, ""},
		{"rule regex fails", `{}`, `{"d":"May 1"}`, `{"d":{"regex":"^2024-"}}`, match.ArgsExact, 0, "does not match"},
		{"rule regex needs the key", `{}`, `{}`, `{"d":{"regex":"^2024-"}}`, match.ArgsExact, 0, "missing"},
		{"rule approx", `{"t":20}`, `{"t":20.4}`, `{"t":{"approx":20,"tol":0.5}}`, match.ArgsExact, 1, ""},
		{"rule approx fails", `{"t":20}`, `{"t":21}`, `{"t":{"approx":20,"tol":0.5}}`, match.ArgsExact, 0, "not within"},
		{"rule tol around expected", `{"t":20}`, `{"t":19.9}`, `{"t":{"tol":0.2}}`, match.ArgsExact, 1, ""},
		{"rule fuzzy", `{"q":"restaurants in paris"}`, `{"q":"restaurant in paris"}`, `{"q":{"fuzzy":0.9}}`, match.ArgsExact, 1, ""},
		{"rule fuzzy fails", `{"q":"restaurants in paris"}`, `{"q":"hotels"}`, `{"q":{"fuzzy":0.9}}`, match.ArgsExact, 0, "similarity"},
		{"rule type", `{"id":"x"}`, `{"id":"anything"}`, `{"id":{"type":"string"}}`, match.ArgsExact, 1, ""},
		{"rule type fails", `{"id":"x"}`, `{"id":3}`, `{"id":{"type":"string"}}`, match.ArgsExact, 0, "not of type"},
		{"rule integer accepts 2.0", `{}`, `{"n":2.0}`, `{"n":{"type":"integer"}}`, match.ArgsExact, 1, ""},
		{"rule optional absent", `{"a":1,"u":"metric"}`, `{"a":1}`, `{"u":{"optional":true}}`, match.ArgsExact, 1, ""},
		{"rule optional null", `{"a":1,"u":"metric"}`, `{"a":1,"u":null}`, `{"u":{"optional":true}}`, match.ArgsExact, 1, ""},
		{"rule optional present is compared", `{"a":1,"u":"metric"}`, `{"a":1,"u":"imperial"}`, `{"u":{"optional":true}}`, match.ArgsExact, 0, "u"},
		{"rule optional extra allowed", `{"a":1}`, `{"a":1,"verbose":true}`, `{"verbose":{"optional":true}}`, match.ArgsExact, 1, ""},
		{"rule ignore", `{"a":1,"ts":"x"}`, `{"a":1,"ts":"y"}`, `{"ts":{"ignore":true}}`, match.ArgsExact, 1, ""},
		{"rule ignore extra", `{"a":1}`, `{"a":1,"ts":"y"}`, `{"ts":{"ignore":true}}`, match.ArgsExact, 1, ""},
		{"rule nested path", `{"w":{"d":"2024-01-01","t":"9"}}`, `{"w":{"d":"tomorrow","t":"9"}}`, `{"w.d":{"ignore":true}}`, match.ArgsExact, 1, ""},
		{"rule array index path", `{"p":[{"n":"a","id":1}]}`, `{"p":[{"n":"a","id":2}]}`, `{"p[0].id":{"ignore":true}}`, match.ArgsExact, 1, ""},
		{"rule in partial mode", `{"a":1,"d":"x"}`, `{"a":2,"d":"2024"}`, `{"d":{"regex":"^20"}}`, match.ArgsPartial, 0.5, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := match.Comparer{Mode: tt.mode}
			e, g, r := v(t, tt.expected), v(t, tt.got), rules(t, tt.rules)
			if got := c.Score(e, g, r); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Score = %v, want %v", got, tt.want)
			}
			diffs := c.Diff(e, g, r)
			if tt.want == 1 && len(diffs) > 0 {
				t.Errorf("full match but Diff = %+v", diffs)
			}
			if tt.want < 1 && len(diffs) == 0 {
				t.Errorf("score %v but no diffs", tt.want)
			}
			if tt.wantDiffSubstr != "" {
				var all []string
				for _, d := range diffs {
					all = append(all, d.Path+" "+d.Note)
				}
				if !strings.Contains(strings.Join(all, "; "), tt.wantDiffSubstr) {
					t.Errorf("diffs %q do not mention %q", all, tt.wantDiffSubstr)
				}
			}
		})
	}
}

func TestRatioMatchesPythonDifflib(t *testing.T) {
	// Values from CPython 3.11: difflib.SequenceMatcher(None, a, b).ratio().
	tests := []struct {
		a, b string
		want float64
	}{
		{"", "", 1},
		{"abc", "", 0},
		{"abcd", "bcde", 0.75},
		{"weather in Paris", "weather in paris", 0.9375},
		{"private Thread currentThread;", "private volatile Thread currentThread;", 0.8656716417910447},
		{"naïve café", "naive cafe", 0.8},
		{"😀 smile", "smile", 0.8333333333333334},
		// Popular elements are skipped, then matches extend over them.
		{strings.Repeat("ab", 60), strings.Repeat("ab", 100) + "c", 0.7476635514018691},
		// b has 200+ characters: autojunk makes popular characters unable to
		// start a match (without autojunk, Python gives 0.4509283819628647).
		{"london the weather the over jumps weather dog jumps london london over brown over brown over over london jumps jumps",
			"lazy lazy dog paris lazy weather london weather paris quick london paris jumps lazy weather fox jumps lazy jumps paris jumps paris over the lazy london over the lazy london london weather brown the weather weather over dog over weather over london jumps dog the",
			0.07957559681697612},
	}
	for _, tt := range tests {
		if got := match.Ratio(tt.a, tt.b); math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("Ratio(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// FuzzComparer: any two values compare without panicking, every mode scores
// in [0, 1], and a value always fully matches itself.
func FuzzComparer(f *testing.F) {
	f.Add(`{"a":1,"b":[1,{"c":"x"}]}`, `{"a":1.0,"b":[1,{"c":"y"}],"d":null}`, `{"b.1.c":{"fuzzy":0.5}}`)
	f.Add(`[1,2]`, `"x"`, ``)
	f.Add(`{"q":"weather"}`, `{}`, `{"q":{"optional":true}}`)
	modes := []match.Mode{match.ArgsIgnore, match.ArgsExact, match.ArgsContains, match.ArgsWithin, match.ArgsPartial, match.ArgsFuzzy}
	f.Fuzz(func(t *testing.T, a, b, r string) {
		va, err1 := jsonvalue.ParseString(a)
		vb, err2 := jsonvalue.ParseString(b)
		if err1 != nil || err2 != nil {
			return
		}
		var rs map[string]toolgrade.Rule
		if r != "" {
			vr, err := jsonvalue.ParseString(r)
			if err != nil {
				return
			}
			if rs, err = toolgrade.DecodeRules(vr); err != nil {
				return
			}
		}
		for _, mode := range modes {
			c := match.Comparer{Mode: mode}
			s := c.Score(va, vb, rs)
			if s < 0 || s > 1 || math.IsNaN(s) {
				t.Fatalf("mode %s: score %v out of [0, 1]", mode, s)
			}
			c.Diff(va, vb, rs)
			if rs == nil {
				if self := c.Score(va, va, nil); self != 1 {
					t.Fatalf("mode %s: %s against itself scores %v", mode, a, self)
				}
			}
		}
	})
}

// Arguments that only rules name are reported in the same order every
// run (the rules are a map).
func TestRuleOnlyArgumentsInStableOrder(t *testing.T) {
	rules, err := toolgrade.DecodeRules(jsonvalue.MustFrom(map[string]any{
		"subject": map[string]any{"type": "string"}, "body": map[string]any{"type": "string"},
		"cc": map[string]any{"type": "string"}, "attachments": map[string]any{"type": "array"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	args := jsonvalue.MustFrom(map[string]any{"to": "bo"})
	var first []string
	for i := range 30 {
		var paths []string
		for _, d := range (match.Comparer{Mode: match.ArgsExact}).Diff(args, args, rules) {
			paths = append(paths, d.Path)
		}
		if i == 0 {
			first = paths
			if len(paths) != 4 {
				t.Fatalf("diffs at %v, want the four rule-only arguments", paths)
			}
		} else if !slices.Equal(paths, first) {
			t.Fatalf("run %d: diffs at %v, then %v", i, first, paths)
		}
	}
}
