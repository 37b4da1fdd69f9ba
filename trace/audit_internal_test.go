package trace

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"pgregory.net/rapid"
)

func parseValue(t testing.TB, s string) any {
	t.Helper()
	v, err := jsonvalue.ParseString(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestCallShapes checks each rule of the audit, and what is not
// call-shaped, as docs/traces.md states them.
func TestCallShapes(t *testing.T) {
	tests := []struct {
		name, input string
		want        []string // "where: kind"
	}{
		{"tool_calls entry, its function not again",
			`{"messages":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`,
			[]string{`messages[0].tool_calls[0]: tool_calls entry "f"`}},
		{"streamed tool_calls fragment without a name",
			`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a"}}]}}]}`,
			[]string{`choices[0].delta.tool_calls[0]: tool_calls entry`}},
		{"legacy function_call",
			`{"role":"assistant","function_call":{"name":"f","arguments":"{}"}}`,
			[]string{`function_call: function_call "f"`}},
		{"a request's choice of function is no call",
			`{"messages":[],"function_call":{"name":"f"},"tool_choice":{"type":"function","function":{"name":"f"}}}`,
			nil},
		{"Gemini functionCall",
			`{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]}]}`,
			[]string{`contents[0].parts[0].functionCall: functionCall "f"`}},
		{"Bedrock toolUse",
			`{"content":[{"toolUse":{"toolUseId":"t","name":"f","input":{}}}]}`,
			[]string{`content[0].toolUse: toolUse block "f"`}},
		{"Responses function_call item",
			`{"output":[{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}]}`,
			[]string{`output[0]: function_call item "f"`}},
		{"Anthropic tool_use and server_tool_use",
			`[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}},{"type":"server_tool_use","id":"s","name":"web_search","input":{}}]}]`,
			[]string{`[0].content[0]: tool_use block "f"`, `[0].content[1]: server_tool_use block "web_search"`}},
		{"AI SDK tool-call part",
			`{"content":[{"type":"tool-call","toolCallId":"c","toolName":"f","input":{}}]}`,
			[]string{`content[0]: tool-call part "f"`}},
		{"MCP tools/call request",
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","arguments":{}}}`,
			[]string{`: MCP tools/call request "f"`}},
		{"by keys",
			`[{"name":"a","args":{},"id":"1"},{"toolName":"b","input":{}},{"tool":"c","tool_input":"x"},{"function":"d","arguments":{}},{"tool_name":"e","kwargs":{}},{"name":"f","parameters":{"x":1}},{"toolName":"g","toolArgs":{}}]`,
			[]string{`[0]: object with "name" and "args" "a"`, `[1]: object with "toolName" and "input" "b"`,
				`[2]: object with "tool" and "tool_input" "c"`, `[3]: object with "function" and "arguments" "d"`,
				`[4]: object with "tool_name" and "kwargs" "e"`, `[5]: object with "name" and "parameters" "f"`,
				`[6]: object with "toolName" and "toolArgs" "g"`}},
		{"tool definitions are not calls",
			`{"tools":[{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object","properties":{"name":{"type":"string"},"args":{}}}}},
			{"name":"g","parameters":{"properties":{}}},{"name":"h","description":"d","parameters":{}},{"name":"i","input_schema":{"type":"object"}}]}`,
			nil},
		{"tool results are not calls",
			`[{"type":"tool-result","toolCallId":"c","toolName":"f","input":{},"output":"x"},{"type":"function_call_output","call_id":"c","output":"x"}]`,
			nil},
		{"a type alone makes no call",
			`{"tool_invocations":{"c1":{"type":"function_call","executed":false}}}`,
			nil},
		{"a name that is no string makes no call, what it holds is walked",
			`{"name":{"first":"x"},"args":{"nested":{"name":"f","args":{}}}}`,
			[]string{`args.nested: object with "name" and "args" "f"`}},
		{"arguments hold data, not calls",
			`{"name":"outer","args":{"name":"inner","args":{}}}`,
			[]string{`: object with "name" and "args" "outer"`}},
		{"JSON held in a string",
			`{"attributes":{"ai.prompt.messages":"[{\"role\":\"assistant\",\"content\":[{\"type\":\"tool-call\",\"toolCallId\":\"c\",\"toolName\":\"f\",\"args\":{}}]}]"}}`,
			[]string{`attributes.ai.prompt.messages[0].content[0]: tool-call part "f"`}},
		{"tool_calls given as JSON text",
			`{"tool_calls":"[{\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]"}`,
			[]string{`tool_calls[0]: tool_calls entry "f"`}},
		{"text that is not JSON", `{"content":"call f(x) {name: f, args: {}}"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range callShapes(parseValue(t, tt.input)) {
				got = append(got, s.Where+": "+s.Kind)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("call-shaped objects (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLedger checks how what a reader records accounts for call-shaped
// objects.
func TestLedger(t *testing.T) {
	input := `{"a":{"name":"f","args":{}},"b":[{"name":"g","args":{}}],"c":"{\"name\":\"h\",\"args\":{}}",
		"d":{"name":"span","input":{"x":{"name":"i","args":{}}}},"e":{"name":"j","args":{},"id":"1"}}`
	tests := []struct {
		name   string
		record func(b *builder, v jsonvalue.Object)
		want   []string
	}{
		{"nothing recorded", func(*builder, jsonvalue.Object) {},
			[]string{"a", "b[0]", "c", "d", "e"}},
		{"add accounts for its source", func(b *builder, v jsonvalue.Object) {
			b.add(get(v, "a"), toolgradeCall("f"))
		}, []string{"b[0]", "c", "d", "e"}},
		{"skip and notCall account for all they hold", func(b *builder, v jsonvalue.Object) {
			b.skip(get(v, "b"), "b", "a list")
			b.notCall(get(v, "d"), "an example")
		}, []string{"a", "c", "e"}},
		{"JSON text parsed through the builder", func(b *builder, v jsonvalue.Object) {
			x, _ := b.parse(str(v, "c"))
			b.add(x, toolgradeCall("h"))
		}, []string{"a", "b[0]", "d", "e"}},
		{"a result given as JSON text", func(b *builder, v jsonvalue.Object) {
			k := b.add(nil, toolgradeCall("z"))
			b.set(k, str(v, "c"))
		}, []string{"a", "b[0]", "d", "e"}},
		{"notCallItself leaves what it holds to the audit", func(b *builder, v jsonvalue.Object) {
			b.notCallItself(obj(v, "d"), "a span")
		}, []string{"a", "b[0]", "c", "d.input.x", "e"}},
		{"an object with the id and name of a call read shows it again", func(b *builder, v jsonvalue.Object) {
			b.add(nil, toolgradeCallID("j", "1"))
		}, []string{"a", "b[0]", "c", "d"}},
		{"not with another name", func(b *builder, v jsonvalue.Object) {
			b.add(nil, toolgradeCallID("k", "1"))
		}, []string{"a", "b[0]", "c", "d", "e"}},
		{"a copy stands for its original", func(b *builder, v jsonvalue.Object) {
			cp := append(jsonvalue.Object(nil), obj(v, "a")...)
			b.copied(cp, obj(v, "a"))
			b.add(cp, toolgradeCall("f"))
		}, []string{"b[0]", "c", "d", "e"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := parseValue(t, input).(jsonvalue.Object)
			var b builder
			tt.record(&b, v)
			missed, _ := b.audit(v)
			var got []string
			for _, m := range missed {
				got = append(got, m.Where)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("missed (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAuditBudgets checks that the audit stops where its budgets say, and
// says so.
func TestAuditBudgets(t *testing.T) {
	deep := strings.Repeat(`{"a":`, maxAuditDepth+10) + `{"name":"f","args":{}}` + strings.Repeat(`}`, maxAuditDepth+10)
	big := `{"s":"[` + strings.Repeat(`{"x":1},`, maxAuditText/8) + `{"name":"f","args":{}}]"}`
	big = strings.ReplaceAll(big, `"x"`, `\"x\"`)
	big = strings.ReplaceAll(big, `{"name":"f","args":{}}]`, `{\"name\":\"f\",\"args\":{}}]`)
	for _, tt := range []struct{ name, input, note string }{
		{"depth", deep, "the audit stopped at depth"},
		// a scalar past the depth is walked to, and noted, as an object is
		{"depth of a scalar", strings.Repeat(`{"a":`, maxAuditDepth+1) + `1` + strings.Repeat(`}`, maxAuditDepth+1), "the audit stopped at depth"},
		{"text", big, "the audit did not parse"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b builder
			missed, notes := b.audit(parseValue(t, tt.input))
			if len(missed) != 0 || len(notes) != 1 || !strings.Contains(notes[0], tt.note) {
				t.Errorf("missed %v, notes %q; want none missed and a note %q", missed, notes, tt.note)
			}
		})
	}
}

// TestGeneric reads call-shaped objects by shape, never detected.
func TestGeneric(t *testing.T) {
	input := `{"log":[{"step":1,"call":{"tool":"search","arguments":"{\"q\":\"x\"}","id":"a"}},
		{"step":2,"msg":{"tool_calls":[{"id":"b","function":{"name":"fetch","arguments":"{\"url\":\"u\"}"}}]}},
		{"step":3,"again":{"tool":"search","arguments":"{\"q\":\"x\"}","id":"a"}},
		{"tools":[{"name":"search","description":"d","parameters":{"type":"object","properties":{}}}]}]}`
	if _, err := detect(parseValue(t, input)); err == nil {
		t.Fatal("detected a format")
	}
	tr, err := Read([]byte(input), "generic")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"format":"generic","calls":[{"name":"search","args":{"q":"x"},"id":"a","output":null},{"name":"fetch","args":{"url":"u"},"id":"b","output":null}]}`
	if got := string(tr.AppendJSON(nil)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if len(tr.Notes) != 1 || !strings.Contains(tr.Warnings()[0], "read by shape") {
		t.Errorf("warnings %q, want the note that calls were read by shape", tr.Warnings())
	}
	if _, err := Read([]byte(`{"messages":[{"role":"user","content":"hi"}]}`), "generic"); err == nil {
		t.Error("generic on a trace without call-shaped objects: no error")
	}
}

// TestUnrecognizedSaysWhatItHolds: the error on a trace of no format
// lists its call-shaped objects and names --format generic.
func TestUnrecognizedSaysWhatItHolds(t *testing.T) {
	_, err := Read([]byte("{\"kind\":\"start\"}\n{\"kind\":\"step\",\"call\":{\"tool\":\"f\",\"args\":{}}}\n"), "")
	want := `it holds 1 call-shaped object, line 2 call (object with "tool" and "args" "f"); --format generic reads them in document order`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one saying %q", err, want)
	}
}

// TestDetectionIsNotATie: on every sample, the format detected is the
// only one sure of it at that level, so that detection never rests on the
// alphabetical order of equally sure formats.
func TestDetectionIsNotATie(t *testing.T) {
	for _, s := range samplesForTest(t) {
		v, ok := decodeForTest(s.data)
		if !ok {
			continue
		}
		var claims []string
		if o, isObj := v.(jsonvalue.Object); isObj {
			_, at := surest(func(f *format) level { return sniff(f.trace, o) })
			if at > no {
				for i := range registry {
					if sniff(registry[i].trace, o) == at {
						claims = append(claims, registry[i].name)
					}
				}
			}
		}
		if len(claims) > 1 {
			t.Errorf("%s: %v are equally sure of it", s.path, claims)
		}
	}
}

// TestAuditPartition is the property on every sample, for every format.
func TestAuditPartition(t *testing.T) {
	for _, s := range samplesForTest(t) {
		checkPartition(t, s.data)
	}
}

// FuzzAudit checks the audit's property for any input: for every format
// that reads it, each call-shaped object is accounted for by the reader
// (read, skipped or declared not a call) or listed as missed, and the
// trace is an error exactly when one is missed; an independent walk that
// prunes nothing is the oracle. The generic format misses nothing.
func FuzzAudit(f *testing.F) {
	for _, s := range samplesForTest(f) {
		if len(s.data) < 1<<16 {
			f.Add(s.data)
		}
	}
	f.Add([]byte(`{"a":{"name":"f","args":{"name":"g"}},"b":"[{\"tool\":\"h\",\"input\":1}]"}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkPartition(t, data) })
}

func checkPartition(t *testing.T, data []byte) {
	t.Helper()
	v, ok := decodeForTest(data)
	if !ok {
		return
	}
	formats := append([]string{""}, Formats()...)
	for _, name := range formats {
		fname := name
		if fname == "" {
			d, err := detect(v)
			if err != nil {
				continue
			}
			fname = d
		}
		f, _ := lookup(fname)
		b, err := f.extract(v, false)
		if err != nil {
			continue
		}
		missed, _ := b.audit(v)
		var want []string
		a := audit{ledger: &b.ledger, calls: b.calls}
		oracle(&a, v, v, nil, "", false, 0, &want)
		var got []string
		for _, m := range missed {
			got = append(got, m.Where)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: audit missed %q, oracle %q", fname, got, want)
		}
		if fname == "generic" && len(missed) > 0 {
			t.Errorf("generic missed %q", got)
		}
		tr, err := Extract(v, name)
		if (len(tr.Missed) > 0) != (err != nil) {
			t.Errorf("%s: %d missed, error %v", fname, len(tr.Missed), err)
		}
	}
}

// oracle lists the call-shaped objects in v that nothing the ledger
// accounts for holds, walking everything.
func oracle(a *audit, root, v any, path []int32, parent string, covered bool, nested int, out *[]string) {
	l := a.ledger
	switch v := v.(type) {
	case jsonvalue.Object:
		if len(v) == 0 {
			return
		}
		covered = covered || l.has(v)
		if rule, name := callShape(v, parent); rule != "" && !l.shell(v) {
			if !covered && !a.shown(v, name) {
				w := audit{ledger: l, root: root}
				for _, i := range path {
					w.push(int(i))
				}
				*out = append(*out, w.where())
			}
			return
		}
		for i, m := range v {
			oracle(a, root, m.Value, append(slices.Clip(path), int32(i)), m.Key, covered, nested, out)
		}
	case []any:
		if len(v) == 0 {
			return
		}
		covered = covered || l.has(v)
		for i, e := range v {
			oracle(a, root, e, append(slices.Clip(path), int32(i)), parent, covered, nested, out)
		}
	case string:
		if !looksJSONText(v) || nested >= maxAuditTextNested {
			return
		}
		if x, err := l.parse(v); err == nil {
			oracle(a, root, x, path, parent, covered || l.hasText(v), nested+1, out)
		}
	}
}

type testSample struct {
	path string
	data []byte
}

// samplesForTest reads the project's samples and the shared fixtures
// (when ../shared is there).
func samplesForTest(t testing.TB) []testSample {
	var samples []testSample
	for _, root := range []string{"testdata", filepath.Join("..", "testdata", "shared", "fixtures", "traces"), filepath.Join("..", "testdata", "shared", "fixtures", "realworld")} {
		files, _ := filepath.Glob(filepath.Join(root, "*", "*"))
		for _, f := range files {
			if strings.HasSuffix(f, ".expected.json") || strings.HasSuffix(f, ".md") || strings.Contains(f, "fuzz") {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			samples = append(samples, testSample{f, data})
		}
	}
	return samples
}

// decodeForTest decodes data as Read does, for JSON inputs.
func decodeForTest(data []byte) (any, bool) {
	data = bytes.TrimSpace(data)
	if !looksJSON(data) {
		if events, ok, err := sseEvents(data); ok && err == nil && len(events) > 0 {
			return events, true
		}
		return nil, false
	}
	if v, err := jsonvalue.Parse(data); err == nil {
		if _, isText := v.(string); isText {
			return nil, false
		}
		return v, true
	}
	if lines, err := jsonLines(data); err == nil {
		return lines, true
	}
	return nil, false
}

func toolgradeCall(name string) toolgrade.Call { return toolgrade.Call{Name: name} }

func toolgradeCallID(name, id string) toolgrade.Call { return toolgrade.Call{Name: name, ID: id} }

// TestSniffersNeedTheirKeys: a format's sniffers claim only objects that
// have one of the keys it declares, on every object of every sample (the
// keys let detection skip the formats an object cannot be).
func TestSniffersNeedTheirKeys(t *testing.T) {
	var objects []jsonvalue.Object
	var collect func(v any)
	collect = func(v any) {
		switch v := v.(type) {
		case jsonvalue.Object:
			objects = append(objects, v)
			for _, m := range v {
				collect(m.Value)
			}
		case []any:
			for _, e := range v {
				collect(e)
			}
		}
	}
	for _, s := range samplesForTest(t) {
		if v, ok := decodeForTest(s.data); ok {
			collect(v)
		}
	}
	for i := range registry {
		f := &registry[i]
		if f.keys == nil && f.keyPrefixes == nil {
			continue
		}
		for _, o := range objects {
			if sniff(f.trace, o) == no && sniff(f.item, any(o)) == no {
				continue
			}
			if !hasNeededKey(f, o) {
				t.Errorf("%s claims an object with none of its keys %q or key prefixes %q: keys %s", f.name, f.keys, f.keyPrefixes, quoteKeys(o))
				break
			}
		}
	}
}

// BenchmarkAudit measures the audit alone, after the reader, on a 27-call
// τ-bench trajectory (BenchmarkExtractTauBench reads it whole).
func BenchmarkAudit(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "shared", "fixtures", "traces", "tau_bench", "gpt-4o-airline.task02.trial1.json"))
	if err != nil {
		b.Skip("no shared fixtures:", err)
	}
	v := parseValue(b, string(data))
	f, _ := lookup("tau_bench")
	r, err := f.extract(v, false)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if missed, _ := r.audit(v); len(missed) > 0 {
			b.Fatal(missed)
		}
	}
}

// TestAuditWhereDeep: a call-shaped object deeper than the path's array
// is located as one near the root is.
func TestAuditWhereDeep(t *testing.T) {
	for _, depth := range []int{0, 1, 31, 32, 33, 100} {
		var open, close, path strings.Builder
		for d := range depth { // index d%3 of a list at each level
			fmt.Fprintf(&open, `{"a":[%s`, strings.Repeat("0,", d%3))
			close.WriteString("]}")
			fmt.Fprintf(&path, ".a[%d]", d%3)
		}
		found := callShapes(parseValue(t, open.String()+`{"name":"f","args":{}}`+close.String()))
		want := strings.TrimPrefix(path.String(), ".")
		if len(found) != 1 || found[0].Where != want {
			t.Errorf("depth %d: found %v, want one at %q", depth, found, want)
		}
	}
}

// trimmedJSONText is looksJSONText as it was written first: trim, then
// look at the ends.
func trimmedJSONText(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) >= 2 && (s[0] == '{' && s[len(s)-1] == '}' || s[0] == '[' && s[len(s)-1] == ']')
}

// TestLooksJSONText: telling JSON text by its ends first answers as
// trimming first does, on strings made of the bytes that matter (brackets,
// every space TrimSpace trims, the first bytes of Unicode spaces).
func TestLooksJSONText(t *testing.T) {
	pieces := []string{"{", "}", "[", "]", " ", "\t", "\n", "\v", "\f", "\r", "\u00a0", "\u0085", "\u2028", "\u3000", "\xc2", "\x00", "\x7f", "x", `"`, "é", ""}
	rapid.Check(t, func(t *rapid.T) {
		s := strings.Join(rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 6).Draw(t, "pieces"), "")
		if got, want := looksJSONText(s), trimmedJSONText(s); got != want {
			t.Fatalf("looksJSONText(%q) = %v, trimming first %v", s, got, want)
		}
	})
}

func FuzzLooksJSONText(f *testing.F) {
	for _, s := range []string{"{}", " {} ", "\u00a0[1]", "[x}", "x", "{", "\t{\"a\":1}\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := looksJSONText(s), trimmedJSONText(s); got != want {
			t.Fatalf("looksJSONText(%q) = %v, trimming first %v", s, got, want)
		}
	})
}

// TestShapeKeys: every key callShape's switch names is a shapeKey, read
// from the source, so that walk's shortcut (mayBeCallShaped) never skips
// an object callShape would find call-shaped; and on generated objects,
// one mayBeCallShaped turns down callShape finds no call.
func TestShapeKeys(t *testing.T) {
	file, err := parser.ParseFile(token.NewFileSet(), "audit.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, d := range file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "callShape" {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok {
				return true
			}
			if sel, ok := sw.Tag.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Key" {
				t.Errorf("callShape switches on %T: teach TestShapeKeys what it tells", sw.Tag)
				return true
			}
			for _, st := range sw.Body.List {
				for _, e := range st.(*ast.CaseClause).List {
					lit, ok := e.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						t.Fatalf("callShape's case %T is no string", e)
					}
					k, _ := strconv.Unquote(lit.Value)
					keys = append(keys, k)
				}
			}
			return true
		})
	}
	if len(keys) < 10 {
		t.Fatalf("found %d keys in callShape's switch: %q", len(keys), keys)
	}
	for _, k := range keys {
		if !shapeKey(k) {
			t.Errorf("callShape looks at %q, which shapeKey does not name", k)
		}
	}
	if t.Failed() {
		return
	}

	others := []string{"role", "content", "tool_calls", "tool_call_id", "id", "params", "messages", "parts", "text", "Name", "types", ""}
	parents := []string{"", "messages", "tool_calls", "function_call", "functionCall", "toolUse", "content", "input"}
	values := []any{nil, true, "", "f", "tools/call", "function_call", "tool_use", "tool_result", "{}", jsonvalue.Object{}, jsonvalue.Object{{Key: "type", Value: "object"}}, jsonvalue.Object{{Key: "name", Value: "g"}}, []any{}}
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.OneOf(rapid.SampledFrom(keys), rapid.SampledFrom(others), rapid.String())
		n := rapid.IntRange(0, 5).Draw(t, "members")
		o := make(jsonvalue.Object, n)
		for i := range o {
			o[i] = jsonvalue.Member{Key: key.Draw(t, "key"), Value: rapid.SampledFrom(values).Draw(t, "value")}
		}
		parent := rapid.OneOf(rapid.SampledFrom(parents), rapid.String()).Draw(t, "parent")
		if rule, _ := callShape(o, parent); rule != "" && !mayBeCallShaped(o, parent) {
			t.Fatalf("%v under %q: call-shaped (%s), and mayBeCallShaped turns it down", o, parent, rule)
		}
	})
}
