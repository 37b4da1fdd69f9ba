package trace

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/jsonvalue"
	"pgregory.net/rapid"
)

// hasNeededKey reports whether o has one of the keys, or a key with one
// of the key prefixes, that f's sniffers need.
func hasNeededKey(f *format, o jsonvalue.Object) bool {
	for _, m := range o {
		if slices.Contains(f.keys, m.Key) || slices.ContainsFunc(f.keyPrefixes, func(p string) bool { return strings.HasPrefix(m.Key, p) }) {
			return true
		}
	}
	return false
}

// sameDetection checks that the keyed detection answers as asking every
// sniffer does: for v as a trace, and for every object and list in it as
// a trace and as an element.
func sameDetection(t interface{ Fatalf(string, ...any) }, where string, v any) {
	fast, every := detector{}, detector{every: true}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case jsonvalue.Object:
			if f, g := fast.object(v), every.object(v); f != g {
				t.Fatalf("%s: object with keys %s detected as %q, asking every sniffer as %q", where, quoteKeys(v), f, g)
			}
			f, fl := fast.classify(sniffers(), v)
			if g, gl := every.classify(sniffers(), v); f != g || fl != gl {
				t.Fatalf("%s: element with keys %s classified as %q (%d), asking every sniffer as %q (%d)", where, quoteKeys(v), f, fl, g, gl)
			}
			// surestItem, the loop of classify, against the plain one.
			if g, gl := surest(func(f *format) level { return sniff(f.item, any(v)) }); f != g || fl != gl {
				t.Fatalf("%s: element with keys %s classified as %q (%d), asking every sniffer in turn as %q (%d)", where, quoteKeys(v), f, fl, g, gl)
			}
			for _, m := range v {
				walk(m.Value)
			}
		case []any:
			if f, g := fast.list(v), every.list(v); f != g {
				t.Fatalf("%s: %s detected as %q, asking every sniffer as %q", where, describe(v), f, g)
			}
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	f, ferr := fast.detect(v)
	g, gerr := every.detect(v)
	if f != g || (ferr == nil) != (gerr == nil) || ferr != nil && ferr.Error() != gerr.Error() {
		t.Fatalf("%s: detected as %q (%v), asking every sniffer as %q (%v)", where, f, ferr, g, gerr)
	}
}

// TestFastDetectionAsksEnough: detection that shows an object only to the
// sniffers of formats whose keys it has answers as asking every sniffer
// does, on every sample and every object and list in it.
func TestFastDetectionAsksEnough(t *testing.T) {
	n := 0
	for _, s := range samplesForTest(t) {
		if v, ok := decodeForTest(s.data); ok {
			sameDetection(t, s.path, v)
			n++
		}
	}
	if n < 100 {
		t.Errorf("only %d samples: where are the test data?", n)
	}
}

// sampleMembers are the members of every object of the samples, and
// their keys, for generated objects.
func sampleMembers(t testing.TB) []jsonvalue.Member {
	var members []jsonvalue.Member
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case jsonvalue.Object:
			members = append(members, v...)
			for _, m := range v {
				walk(m.Value)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	for _, s := range samplesForTest(t) {
		if v, ok := decodeForTest(s.data); ok {
			walk(v)
		}
	}
	return members
}

// TestFastDetectionAsksEnoughGenerated: the same on objects and lists
// made of the samples' members mixed at random (a message's role beside
// another format's keys), nested a few levels, and on every key of any
// format's sniffers set to every kind of value.
func TestFastDetectionAsksEnoughGenerated(t *testing.T) {
	members := sampleMembers(t)
	var keys []string
	for _, f := range registry {
		keys = append(keys, f.keys...)
		for _, p := range f.keyPrefixes {
			keys = append(keys, p, p+"x")
		}
	}
	keys = append(keys, "role", "type", "content", "messages", "name", "arguments", "tool_calls", "other")
	scalars := []any{nil, true, "", "user", "assistant", "tool", "function_call", "tool_use", jsonvalue.Object{}, []any{}}
	var value func(t *rapid.T, depth int) any
	object := func(t *rapid.T, depth int) jsonvalue.Object {
		n := rapid.IntRange(0, 5).Draw(t, "members")
		o := make(jsonvalue.Object, 0, n)
		for range n {
			var m jsonvalue.Member
			if rapid.Bool().Draw(t, "sampled") {
				m = rapid.SampledFrom(members).Draw(t, "member")
			} else {
				m.Key = rapid.SampledFrom(keys).Draw(t, "key")
				m.Value = value(t, depth+1)
			}
			if !o.Has(m.Key) {
				o = append(o, m)
			}
		}
		return o
	}
	value = func(t *rapid.T, depth int) any {
		if depth > 3 {
			return rapid.SampledFrom(scalars).Draw(t, "scalar")
		}
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
			return object(t, depth)
		case 1:
			l := make([]any, rapid.IntRange(0, 3).Draw(t, "elements"))
			for i := range l {
				l[i] = value(t, depth+1)
			}
			return l
		case 2:
			return rapid.SampledFrom(members).Draw(t, "sampled").Value
		}
		return rapid.SampledFrom(scalars).Draw(t, "scalar")
	}
	rapid.Check(t, func(t *rapid.T) {
		sameDetection(t, "generated", value(t, 0))
	})
}

// TestFastDetectionOfErrors: the unrecognized error is the same whichever
// way detection asked.
func TestFastDetectionOfErrors(t *testing.T) {
	for _, s := range []string{`{"foo": 1}`, `[{"name": "f", "arguments": {}}]`, `{"attributes": {}}`, `[]`, `{}`} {
		v := parseValue(t, s)
		_, ferr := detect(v)
		_, gerr := detector{every: true}.detect(v)
		if (ferr == nil) != (gerr == nil) || ferr != nil && (ferr.Error() != gerr.Error() || !errors.Is(ferr, ErrUnknownFormat)) {
			t.Errorf("%s: %v, asking every sniffer %v", s, ferr, gerr)
		}
	}
}

// TestPlainChatAsksEnough: a plain chat message (see plainChat) is shown
// only to plainSniffers, every other format's sniffers answer no to it,
// and plainMessage.claim answers as all of them do: on generated messages whose texts are every string of the samples
// (so that a format that tells its messages by their text is met with
// that text), alone, in lists, and one member away from plain.
func TestPlainChatAsksEnough(t *testing.T) {
	members := sampleMembers(t)
	var texts, contents []string
	for _, m := range members {
		if s, ok := m.Value.(string); ok {
			texts = append(texts, s)
			if m.Key == "content" || m.Key == "text" {
				contents = append(contents, s)
			}
		}
	}
	// The texts plainMessage.claim tells a mini-SWE-agent message by,
	// whole and cut.
	marks := []string{"<returncode>0</returncode>\n<output>ok</output>", "x<returncode>", "<returncode", "```mswea_bash_command\nls\n```", "run <mswea_bash_command>ls</mswea_bash_command>", "```mswea_bash_comman", "<mswea_bash_command"}
	text := rapid.OneOf(rapid.SampledFrom(contents), rapid.SampledFrom(texts), rapid.SampledFrom(marks), rapid.String())
	roles := []string{"system", "user", "assistant", "tool"}
	toolCall := func(t *rapid.T) any {
		fn := jsonvalue.Object{{Key: "name", Value: text.Draw(t, "name")}, {Key: "arguments", Value: text.Draw(t, "arguments")}}
		if rapid.Bool().Draw(t, "swap") {
			fn[0], fn[1] = fn[1], fn[0]
		}
		tc := jsonvalue.Object{{Key: "id", Value: text.Draw(t, "id")}, {Key: "type", Value: rapid.SampledFrom([]string{"function", "custom", ""}).Draw(t, "type")}, {Key: "function", Value: fn}}
		tc = rapid.Permutation(tc).Draw(t, "order")
		return tc[rapid.IntRange(0, 1).Draw(t, "from"):]
	}
	message := func(t *rapid.T) jsonvalue.Object {
		o := jsonvalue.Object{{Key: "role", Value: rapid.SampledFrom(roles).Draw(t, "role")}}
		if rapid.Bool().Draw(t, "content") {
			var c any
			if rapid.IntRange(0, 4).Draw(t, "null") > 0 {
				c = text.Draw(t, "text")
			}
			o = append(o, jsonvalue.Member{Key: "content", Value: c})
		}
		if rapid.Bool().Draw(t, "call id") {
			o = append(o, jsonvalue.Member{Key: "tool_call_id", Value: text.Draw(t, "call id")})
		}
		if rapid.Bool().Draw(t, "tool calls") {
			l := make([]any, rapid.IntRange(0, 3).Draw(t, "calls"))
			for i := range l {
				l[i] = toolCall(t)
			}
			o = append(o, jsonvalue.Member{Key: "tool_calls", Value: l})
		}
		o = rapid.Permutation(o).Draw(t, "order")
		if rapid.IntRange(0, 3).Draw(t, "plain") == 0 { // one member away
			m := rapid.SampledFrom(members).Draw(t, "member")
			if i := rapid.IntRange(0, len(o)).Draw(t, "at"); i < len(o) && rapid.Bool().Draw(t, "replace") {
				o[i].Value = m.Value
			} else {
				o = append(o, m)
			}
		}
		return o
	}
	x := sniffers()
	if !x.plainFast {
		t.Fatal("plain chat messages are asked of every plain sniffer: plainSniffers is not the registry's set")
	}
	rapid.Check(t, func(t *rapid.T) {
		msgs := make([]any, rapid.IntRange(1, 4).Draw(t, "messages"))
		for i := range msgs {
			o := message(t)
			msgs[i] = o
			m, plain := readPlainChat(o)
			if !plain {
				continue
			}
			// The answer given without asking, as asking every sniffer
			// gives it.
			f, l := m.claim(x)
			if g, k := surestItem(x.every, o); f != g || l != k {
				t.Fatalf("plain chat message %v: claimed %s (%d), every sniffer says %s (%d)", o, f, l, g, k)
			}
			for i := range registry {
				f := &registry[i]
				if x.plain[i>>6]&(1<<(i&63)) != 0 {
					continue
				}
				if l := sniff(f.item, any(o)); l != no {
					t.Fatalf("%s's element sniffer claims the plain chat message %v (%d): add it to plainSniffers", f.name, o, l)
				}
				if l := sniff(f.trace, o); l != no {
					t.Fatalf("%s's trace sniffer claims the plain chat message %v (%d): add it to plainSniffers", f.name, o, l)
				}
			}
		}
		sameDetection(t, "generated chat", msgs)
	})
}

// TestOnePassSniffers: the chat and mini-SWE-agent element sniffers,
// which read a message's keys in one pass, answer as the plain lookups
// they replace, on objects made of the samples' members and of the keys
// they read (repeated keys too: the first counts).
func TestOnePassSniffers(t *testing.T) {
	chatRef := func(o jsonvalue.Object) level {
		switch {
		case o.Has("choices"):
			return decisive
		case !o.Has("role"):
			return no
		}
		if tc, ok := firstEntry(o, "tool_calls"); ok && !has(tc, "requestor") && !isInspectCall(tc) && (has(tc, "function") || has(tc, "custom")) {
			return decisive
		}
		if o.Has("function_call") || str(o, "role") == "function" {
			return decisive
		}
		return fallback
	}
	miniRef := func(o jsonvalue.Object) level {
		text, _ := get(o, "content").(string)
		switch r := str(o, "role"); {
		case hasAny(obj(o, "extra"), "actions", "returncode", "interrupt_type", "exit_status"), r == "exit":
			return decisive
		case r == "assistant" && (strings.Contains(text, "```mswea_bash_command") || strings.Contains(text, "<mswea_bash_command>")):
			return decisive
		case r == "user" && strings.HasPrefix(text, "<returncode>"):
			return decisive
		}
		return no
	}
	mini, _ := lookup("mini_swe_agent")
	members := sampleMembers(t)
	keys := []string{"role", "content", "tool_calls", "function_call", "choices", "extra", "requestor", "function", "custom", "other"}
	var values []any
	for _, m := range members {
		if slices.Contains(keys, m.Key) {
			values = append(values, m.Value)
		}
	}
	telling := rapid.SampledFrom([]any{"user", "assistant", "function", "exit", "<returncode>0", "```mswea_bash_command", nil, true,
		jsonvalue.Object{{Key: "returncode", Value: "0"}}})
	sampled := rapid.OneOf(telling, rapid.SampledFrom(values))
	var object func(t *rapid.T, depth int) jsonvalue.Object
	value := func(t *rapid.T, depth int) any {
		if depth < 2 && rapid.IntRange(0, 3).Draw(t, "nested") == 0 {
			if rapid.Bool().Draw(t, "list") {
				return []any{object(t, depth+1)}
			}
			return object(t, depth+1)
		}
		return sampled.Draw(t, "value")
	}
	object = func(t *rapid.T, depth int) jsonvalue.Object {
		o := make(jsonvalue.Object, rapid.IntRange(0, 5).Draw(t, "members"))
		for i := range o {
			o[i] = jsonvalue.Member{Key: rapid.SampledFrom(keys).Draw(t, "key"), Value: value(t, depth)}
		}
		return o
	}
	check := func(t interface{ Fatalf(string, ...any) }, o jsonvalue.Object) {
		if got, want := chatItem(o), chatRef(o); got != want {
			t.Fatalf("chatItem(%v) = %d, want %d", o, got, want)
		}
		if got, want := mini.item(o), miniRef(o); got != want {
			t.Fatalf("mini_swe_agent's item(%v) = %d, want %d", o, got, want)
		}
	}
	for _, m := range members {
		if o, ok := m.Value.(jsonvalue.Object); ok {
			check(t, o)
		}
	}
	rapid.Check(t, func(t *rapid.T) { check(t, object(t, 0)) })
}

// FuzzFastDetection: detection that shows an object only to the sniffers
// that may claim it (by its keys, or as a plain chat message) answers as
// asking every sniffer does, on any JSON.
func FuzzFastDetection(f *testing.F) {
	for _, s := range samplesForTest(f) {
		if len(s.data) < 1<<16 {
			f.Add(s.data)
		}
	}
	f.Add([]byte(`[{"role":"user","content":"<returncode>0</returncode>"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":"{}"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if v, ok := decodeForTest(data); ok {
			sameDetection(t, "fuzzed", v)
		}
	})
}
