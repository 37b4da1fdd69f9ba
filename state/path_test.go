package state

import (
	"strings"
	"testing"
)

func TestParsePath(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want: the canonical form
	}{
		{`$`, `$`},
		{`$.orders`, `$.orders`},
		{`$.orders[0].status`, `$.orders[0].status`},
		{`$["orders"][ 0 ]["status"]`, `$.orders[0].status`},
		{`$['key with space']`, `$["key with space"]`},
		{`$['it\'s']`, `$["it's"]`},
		{`$['say "hi"']`, `$["say \"hi\""]`},
		{`$["a\u0041\n"]`, `$["aA\n"]`},
		{`$["order-id"]`, `$["order-id"]`},
		{`$["0"]`, `$["0"]`},
		{`$.orders[*].ts`, `$.orders[*].ts`},
		{`$.orders.*.ts`, `$.orders[*].ts`},
		{`$..ts`, `$..ts`},
		{`$..*`, `$..*`},
		{`$..[2]`, `$..[2]`},
		{`$..["a b"]`, `$..["a b"]`},
		{`$.é_1`, `$.é_1`},
		{`$._x9`, `$._x9`},
	} {
		p, err := ParsePath(tc.in)
		if err != nil {
			t.Errorf("ParsePath(%q): %v", tc.in, err)
			continue
		}
		if got := p.String(); got != tc.want {
			t.Errorf("ParsePath(%q).String() = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParsePathErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{``, `want "$" at the start`},
		{`orders[0]`, `want "$" at the start`},
		{`$.`, `want a name or "*" after "."`},
		{`$.order-id`, `unexpected "-"`},
		{`$.1a`, `want a name of letters`},
		{`$.["a"]`, `"[" right after "."`},
		{`$[`, `unterminated "["`},
		{`$[0`, `unterminated "["`},
		{`$["a]`, `unterminated string`},
		{`$[-1]`, `negative indexes are not supported`},
		{`$[0:2]`, `slices are not supported`},
		{`$[:2]`, `slices are not supported`},
		{`$[0,1]`, `unions are not supported`},
		{`$[?@.a]`, `filters are not supported`},
		{`$[a]`, `want "*", an index or a quoted name`},
		{`$["a\q"]`, `bad string`},
		{`$[99999999999999999999]`, `out of range`},
		{`$x`, `unexpected "x"`},
		{"$[\"\xff\"]", `not valid UTF-8`},
	} {
		_, err := ParsePath(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePath(%q) = %v, want an error with %q", tc.in, err, tc.want)
		}
	}
}

func TestPathMatches(t *testing.T) {
	loc := func(parts ...any) []step {
		var steps []step
		for _, p := range parts {
			switch p := p.(type) {
			case int:
				steps = append(steps, step{index: p})
			case string:
				steps = append(steps, step{key: p, index: -1})
			}
		}
		return steps
	}
	for _, tc := range []struct {
		path string
		at   []step
		want bool
	}{
		{`$`, nil, true},
		{`$`, loc("a"), false},
		{`$.a`, loc("a"), true},
		{`$.a`, loc("a", "b"), false},
		{`$.a.b`, loc("a"), false},
		{`$.rows[0]`, loc("rows", 0), true},
		{`$.rows["0"]`, loc("rows", 0), false},
		{`$.rows[0]`, loc("rows", "0"), false},
		{`$.rows[*].ts`, loc("rows", 3, "ts"), true},
		{`$.rows[*].ts`, loc("rows", "k", "ts"), true},
		{`$.rows[*].ts`, loc("rows", 3, "x", "ts"), false},
		{`$..ts`, loc("ts"), true},
		{`$..ts`, loc("a", 1, "b", "ts"), true},
		{`$..ts`, loc("a", "ts", "b"), false},
		{`$..*`, nil, false},
		{`$..*`, loc("a", 1), true},
		{`$.a..b..c`, loc("a", "x", "b", "y", "z", "c"), true},
		{`$.a..b..c`, loc("a", "c", "b"), false},
		{`$..[1]`, loc("a", 1), true},
		{`$[*][*]`, loc("a", 1), true},
		{`$[*][*]`, loc("a"), false},
	} {
		p, err := ParsePath(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := p.matches(tc.at, nil); got != tc.want {
			t.Errorf("%s selects %s: %v, want %v", tc.path, formatSteps(tc.at), got, tc.want)
		}
	}
}

func TestFormatSteps(t *testing.T) {
	got := formatSteps([]step{{key: "orders", index: -1}, {index: 0}, {key: "a b", index: -1}, {key: "", index: -1}, {key: `q"`, index: -1}})
	if want := `$.orders[0]["a b"][""]["q\""]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
