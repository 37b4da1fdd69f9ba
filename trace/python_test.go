package trace

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/jsonvalue"
	"pgregory.net/rapid"
)

func TestParsePython(t *testing.T) {
	tests := []struct {
		in   string
		want string // JSON; "" means an error is expected
	}{
		{`{'a': 1, "b": [True, False, None], 'c': (1, 2), 'd': (3,), 'e': ()}`, `{"a":1,"b":[true,false,null],"c":[1,2],"d":[3],"e":[]}`},
		{`{"json": true, "still": null, "ok": false}`, `{"json":true,"still":null,"ok":false}`},
		{`[1.0, 1., .5, -2, +3, 1_000, 0x1F, 0o17, 0b101, 1e3, 2.5E-3, 007.5, -0]`, `[1.0,1.0,0.5,-2,3,1000,31,15,5,1e3,2.5e-3,7.5,-0]`},
		{`'it\'s' "a" 'b'`, `"it'sab"`},
		{`'\n\t\\ \x41\u00e9\U0001F600 \101 \q'`, `"\n\t\\ Aé😀 A \\q"`},
		{`r'\d+\n'`, `"\\d+\\n"`},
		{`'''multi
line'''`, `"multi\nline"`},
		{`{1: 'int key', 2.5: 'float', True: 't', None: 'n'}`, `{"1":"int key","2.5":"float","true":"t","null":"n"}`},
		{`{'a': 1, 'a': 2, 'b': 3}`, `{"a":2,"b":3}`},
		{"[1, # a comment\n 2]", `[1,2]`},
		{`(((1)))`, `1`},
		{`{1, 2}`, ""},
		{`{'a' 1}`, ""},
		{`f(1)`, ""},
		{`inf`, ""},
		{`1j`, ""},
		{`f'x'`, ""},
		{`'unterminated`, ""},
		{"'line\nbreak'", ""},
		{`[1, 2`, ""},
		{`'\x4'`, ""},
		{`{(1, 2): 3}`, ""},
		{`- `, ""},
		{`1 2`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parsePython(tt.in)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("no error; got %s", jsonvalue.Append(nil, got))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g := string(jsonvalue.Append(nil, got)); g != tt.want {
				t.Errorf("got %s, want %s", g, tt.want)
			}
		})
	}
}

func TestParsePythonDepth(t *testing.T) {
	deep := strings.Repeat("[", 100000)
	if _, err := parsePython(deep); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("got %v, want a nesting error", err)
	}
}

func TestParseCalls(t *testing.T) {
	tests := []struct {
		in   string
		want string // name(args JSON | !raw) joined by "; ", or "error"
	}{
		{`f()`, `f({})`},
		{`f(a=1, b='x')`, `f({"a":1,"b":"x"})`},
		{`[f(a=1), g.h(b=[1, 2])]`, `f({"a":1}); g.h({"b":[1,2]})`},
		{"f(a=1)\ng(b=2); h(c=3)", `f({"a":1}); g({"b":2}); h({"c":3})`},
		{`f(a=(1, 2), s="(not) a paren")`, `f({"a":[1,2],"s":"(not) a paren"})`},
		{`f('pos', k=1)`, `f(!'pos', k=1)`},
		{`f(a=x)`, `f(!a=x)`},
		{`f(a=1, a=2)`, `f(!a=1, a=2)`},
		{`f(a==1)`, `f(!a==1)`},
		{`f(a=g(b=1))`, `f(!a=g(b=1))`},
		{`f(a=1`, "error"},
		{`f(a=[1)]`, "error"},
		{`1(a=1)`, "error"},
		{`f`, "error"},
		{`[f()`, "error"},
		{`[f()] x`, "error"},
		{``, "error"},
		{`Call: f(a=1)<bot_end> Thought: done`, `f({"a":1})`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			calls, err := parseCalls(tt.in)
			if tt.want == "error" {
				if err == nil {
					t.Fatalf("no error; got %v", calls)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range calls {
				if c.Invalid {
					got = append(got, c.Name+"(!"+c.ArgsRaw+")")
				} else {
					got = append(got, c.Name+"("+string(jsonvalue.Append(nil, c.Args))+")")
				}
			}
			if g := strings.Join(got, "; "); g != tt.want {
				t.Errorf("got %s, want %s", g, tt.want)
			}
		})
	}
}

// pyValue generates JSON values together with a Python spelling of each.
func pyValue(depth int) *rapid.Generator[[2]any] {
	return rapid.Custom(func(t *rapid.T) [2]any {
		kinds := 6
		if depth <= 0 {
			kinds = 4
		}
		switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
		case 0:
			b := rapid.Bool().Draw(t, "bool")
			return [2]any{b, map[bool]string{true: "True", false: "False"}[b]}
		case 1:
			return [2]any{nil, "None"}
		case 2:
			if rapid.Bool().Draw(t, "int") {
				n := rapid.Int64().Draw(t, "n")
				return [2]any{json.Number(strconv.FormatInt(n, 10)), strconv.FormatInt(n, 10)}
			}
			f := rapid.Float64Range(-1e6, 1e6).Draw(t, "f")
			s := strconv.FormatFloat(f, 'f', -1, 64)
			if !strings.Contains(s, ".") {
				s += ".0"
			}
			return [2]any{json.Number(s), s}
		case 3:
			s := rapid.String().Draw(t, "s")
			return [2]any{s, pyQuote(t, s)}
		case 4:
			n := rapid.IntRange(0, 4).Draw(t, "len")
			l, parts := make([]any, n), make([]string, n)
			for i := range n {
				e := pyValue(depth-1).Draw(t, "elem")
				l[i], parts[i] = e[0], e[1].(string)
			}
			open, close := "[", "]"
			if rapid.Bool().Draw(t, "tuple") && n != 1 {
				open, close = "(", ")"
			}
			return [2]any{l, open + strings.Join(parts, ", ") + close}
		default:
			n := rapid.IntRange(0, 4).Draw(t, "len")
			o, parts := jsonvalue.Object{}, []string{}
			for range n {
				k := rapid.StringMatching(`[a-z_]{1,6}`).Draw(t, "key")
				if o.Has(k) {
					continue
				}
				e := pyValue(depth-1).Draw(t, "value")
				o = append(o, jsonvalue.Member{Key: k, Value: e[0]})
				parts = append(parts, pyQuote(t, k)+": "+e[1].(string))
			}
			return [2]any{o, "{" + strings.Join(parts, ", ") + "}"}
		}
	})
}

// pyQuote spells s as a Python string literal, in either quote style.
func pyQuote(t *rapid.T, s string) string {
	q := rapid.SampledFrom([]string{`'`, `"`}).Draw(t, "quote")
	var sb strings.Builder
	sb.WriteString(q)
	for _, r := range s {
		switch {
		case r == '\\' || string(r) == q:
			sb.WriteString(`\` + string(r))
		case r == '\n':
			sb.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&sb, `\x%02x`, r)
		case r == 0xFFFD:
			sb.WriteString(`\ufffd`)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteString(q)
	return sb.String()
}

// TestPythonLiteralRoundTrip: a value written as a Python literal reads
// back as the same JSON value.
func TestPythonLiteralRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := pyValue(3).Draw(t, "value")
		got, err := parsePython(v[1].(string))
		if err != nil {
			t.Fatalf("%s: %v", v[1], err)
		}
		if !jsonvalue.Equal(got, v[0]) {
			t.Fatalf("%s: got %s, want %s", v[1], jsonvalue.Append(nil, got), jsonvalue.Append(nil, v[0]))
		}
	})
}

// TestPythonCallRoundTrip: a call written with keyword arguments reads
// back as its name and arguments.
func TestPythonCallRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.StringMatching(`[a-z_][a-z0-9_]{0,8}(\.[a-z_][a-z0-9_]{0,8})?`).Draw(t, "name")
		n := rapid.IntRange(0, 4).Draw(t, "args")
		args, parts := jsonvalue.Object{}, []string{}
		for range n {
			k := rapid.StringMatching(`[a-z_][a-z0-9_]{0,5}`).Draw(t, "key")
			if args.Has(k) {
				continue
			}
			v := pyValue(2).Draw(t, "value")
			args = append(args, jsonvalue.Member{Key: k, Value: v[0]})
			parts = append(parts, k+"="+v[1].(string))
		}
		text := name + "(" + strings.Join(parts, ", ") + ")"
		calls, err := parseCalls(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if len(calls) != 1 || calls[0].Name != name || calls[0].Invalid || !jsonvalue.Equal(calls[0].Args, args) {
			t.Fatalf("%s: got %+v", text, calls)
		}
	})
}

func FuzzPythonLiteral(f *testing.F) {
	for _, s := range []string{`{'a': [1, (2,), None]}`, `r'\x' 'y'`, `0x_1F`, `-.5e-3`, `"""a"b"""`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parsePython(s)
		if err != nil {
			return
		}
		if _, err := jsonvalue.Parse(jsonvalue.Append(nil, v)); err != nil {
			t.Fatalf("%q reads as %#v, which is not JSON: %v", s, v, err)
		}
	})
}
