package jsonvalue

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// twins are two parsers read the same documents, one by the loop
// (parser.value) and one by the recursive parser it replaced
// (json_recursive_test.go), so that what each leaves behind can be
// compared too.
type twins struct{ loop, recursive parser }

// tb is what twins.check needs of testing.T and rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// check reads doc with both parsers and fails unless they agree exactly:
// the same value (types, contents and the capacities of its objects and
// arrays), the same error (message, offset and line), and the same state
// of the slab and the levels afterwards (lengths and capacities of every
// chunk, the generation's budget, the levels' counts and hints), which
// decide where the next documents' values go.
func (tw *twins) check(t tb, doc string) {
	t.Helper()
	tw.loop.data, tw.recursive.data = doc, doc
	got, err := tw.loop.document()
	want, wantErr := tw.recursive.recursiveDocument()
	tw.loop.data, tw.recursive.data = "", ""
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%.300q: error %v, recursive parser %v", doc, err, wantErr)
	}
	if !reflect.DeepEqual(got, want) || shape(got) != shape(want) {
		t.Fatalf("%.300q: %.300s, recursive parser %.300s", doc, shape(got), shape(want))
	}
	if g, w := parserState(&tw.loop), parserState(&tw.recursive); g != w {
		t.Fatalf("%.300q leaves the parser as\n%s\nthe recursive parser as\n%s", doc, g, w)
	}
	if err := chainErr(&tw.loop); err != nil {
		t.Fatalf("after %.300q: %v", doc, err)
	}
}

// chainErr reports the levels linked from the parser's top (child by
// child) unless they are its levels, in order, each knowing its parent
// and its depth: the loop opens and closes containers by the links, and
// newGeneration drops the chunks of the parser's levels only.
func chainErr(p *parser) error {
	parent := &p.top
	for depth, lv := range p.levels {
		if parent.child != lv || lv.parent != parent || lv.depth != depth+1 {
			return fmt.Errorf("level %d of %d is not linked as the %dth", depth, len(p.levels), depth)
		}
		parent = lv
	}
	if parent.child != nil {
		return fmt.Errorf("the last of %d levels links to another", len(p.levels))
	}
	return nil
}

// shape writes v with the length and capacity of each object and array.
func shape(v any) string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case Object:
			fmt.Fprintf(&b, "{%d/%d ", len(v), cap(v))
			for _, m := range v {
				fmt.Fprintf(&b, "%q:", m.Key)
				walk(m.Value)
				b.WriteByte(',')
			}
			b.WriteByte('}')
		case []any:
			fmt.Fprintf(&b, "[%d/%d ", len(v), cap(v))
			for _, e := range v {
				walk(e)
				b.WriteByte(',')
			}
			b.WriteByte(']')
		default:
			fmt.Fprintf(&b, "%T(%v)", v, v)
		}
	}
	walk(v)
	return b.String()
}

// parserState describes what a parser keeps between documents.
func parserState(p *parser) string {
	s := &p.slab
	var b strings.Builder
	fmt.Fprintf(&b, "strs %d/%d objs %d/%d arrs %d/%d text %d/%d budget %d input %d doc %d",
		len(s.strs), cap(s.strs), len(s.objs), cap(s.objs), len(s.arrs), cap(s.arrs), len(s.text), cap(s.text),
		s.budget, s.input, s.doc)
	for depth, lv := range p.levels {
		fmt.Fprintf(&b, "\n  level %d: members %d/%d elems %d/%d used %d %d hints %d %d index %t",
			depth, len(lv.members), cap(lv.members), len(lv.elems), cap(lv.elems),
			lv.usedMembers, lv.usedElems, lv.memberHint, lv.elemHint, lv.index != nil)
	}
	return b.String()
}

// TestLoopAgreesWithRecursive: streams of generated documents (nested
// up to about 85 deep, with every kind of string, number and literal,
// repeated keys, white space between any tokens, objects and arrays
// wider than a chunk, a document now and then large enough to fill a
// generation), compact or spaced, some broken by a dropped, doubled or
// replaced byte or cut short, are read by the loop exactly as by the
// recursive parser: values, errors, and what each leaves in the slab and
// the levels for the documents after.
func TestLoopAgreesWithRecursive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var tw twins
		for range rapid.IntRange(1, 30).Draw(t, "documents") {
			tw.check(t, genDocument(t))
		}
	})
}

// genDocument draws a document for TestLoopAgreesWithRecursive.
func genDocument(t *rapid.T) string {
	var doc string
	switch rapid.IntRange(0, 19).Draw(t, "form") {
	case 0:
		// Wider than any chunk: members and elements move.
		var b strings.Builder
		b.WriteString(`[{`)
		for i := range rapid.IntRange(1, 2*maxMembers+10).Draw(t, "members") {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":[%d,"v",{}]`, i, i)
		}
		b.WriteString(`}]`)
		doc = b.String()
	case 1:
		// Large enough to fill a generation alone.
		doc = `{"items":[` + strings.Repeat(`{"name":"n","args":{"a":1,"b":"text"}},`, genInput/36) + `{}]}`
	default:
		v := genValue(t, 0)
		// Wrapped in containers, to nest deeper than genValue does, and
		// than the levels a pooled parser keeps (maxPooledLevels).
		for range rapid.IntRange(0, maxPooledLevels+16).Draw(t, "wrappers") {
			if rapid.Bool().Draw(t, "object") {
				v = Object{{Key: rapid.SampledFrom([]string{"k", "", "é", `"`}).Draw(t, "key"), Value: v}}
			} else {
				v = []any{v}
			}
		}
		if rapid.Bool().Draw(t, "spaced") {
			doc = string(appendSpaced(nil, v, rapid.SampledFrom([]string{" ", "\n", "\t ", "\r\n  "}).Draw(t, "space")))
		} else {
			doc = string(Append(nil, v))
		}
	}
	if rapid.Bool().Draw(t, "broken") {
		doc = breakDocument(t, doc)
	}
	return doc
}

// TestLoopDepthAgreesWithRecursive: at MaxDepth and past it, in arrays,
// objects and both alternating, every kind of value and every broken
// first member of an object too deep for its members (the loop refuses
// such a container when it opens, and reads that member apart, in
// tooDeepMember) is read as the recursive parser reads it.
func TestLoopDepthAgreesWithRecursive(t *testing.T) {
	inners := []string{
		`"x"`, `"x\n"`, `1`, `-`, `true`, `nul`, `[]`, `{}`, `[ ]`, `{ }`, `["x"]`, `[1,2]`, `[`, `]`, ``, ` `,
		`{"k":"v"}`, `{"k":1}`, `{"k":{}}`, `{"k":[]}`, `{ "k" : 1 }`, `{"k" 1}`, `{"k"`, `{"k":`, `{"k": `,
		`{1:2}`, `{"\x01":1}`, `{"\u12":1}`, `{"a\"b":1}`, `{`, `{"k":1,"k":2}`,
	}
	for _, n := range []int{MaxDepth - 1, MaxDepth, MaxDepth + 1} {
		for _, inner := range inners {
			for name, doc := range map[string]string{
				"arrays":  strings.Repeat("[", n) + inner + strings.Repeat("]", n),
				"objects": strings.Repeat(`{"a":`, n) + inner + strings.Repeat("}", n),
				"both":    strings.Repeat(`[{"a":`, n/2) + strings.Repeat("[", n%2) + inner + strings.Repeat("]", n%2) + strings.Repeat("}]", n/2),
				"spaced":  strings.Repeat("[ ", n) + inner + strings.Repeat(" ]", n),
			} {
				t.Run(fmt.Sprintf("%s/%d/%s", name, n, inner), func(t *testing.T) {
					var tw twins
					tw.check(t, doc)
					tw.check(t, `{"after":[1,"x"]}`)
				})
			}
		}
	}
}

// FuzzLoopAgreesWithRecursive: any input, read whole and then line by
// line through the same two parsers, is read by the loop exactly as by
// the recursive parser (see twins.check).
func FuzzLoopAgreesWithRecursive(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,2.5,"x"],"b":{"c":null,"d":true}}`, `[]`, `{}`, `[[[[{"deep":[{"er":[]}]}]]]]`,
		"{\"a\":\n[1,\n\"b\\x\"]}\n[1,]\n{\"a\" 1}\n\"x\"", `{"a":1,"a":2}`, `[1e5,-0,0.5E-3,-]`,
		`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"ka":10,"kb":11,"kc":12,"kd":13,"ke":14,"kf":15,"kg":16,"k3":17}`,
		"[\"Zürich \\u00e9\", {\"\\ud83d\\ude00\": [tru]}]\n{\"a\":{\"b\":[{}]}}", " \t[ 1 , { \"a\" : [ ] } ] ", `{"a":[}`, `[{"a":1]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var tw twins
		tw.check(t, string(data))
		for line := range strings.SplitSeq(string(data), "\n") {
			tw.check(t, line)
		}
	})
}
