package jsonvalue

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"weak"

	"pgregory.net/rapid"
)

// TestSlabValuesSurviveCollection: values whose backing arrays are carved
// from slab chunks behave as ordinary values (type switches, reflect, ==)
// and keep their content through garbage collections while other
// documents come and go.
func TestSlabValuesSurviveCollection(t *testing.T) {
	var kept []any
	var want [][]byte
	for i := range 200 {
		doc := fmt.Sprintf(`{"id":"c%d","n":%d,"f":1.5,"ok":true,"none":null,"s":"%s",`+
			`"list":[1,"two",{"three":[3]}],"nested":{"a":{"b":{"c":"deep %d"}}}}`, i, i, strings.Repeat("x", i%40), i)
		v, err := ParseString(doc)
		if err != nil {
			t.Fatal(err)
		}
		if i%10 == 0 { // keep a part of some documents, drop the rest
			part, _ := v.(Object).Get("nested")
			kept = append(kept, v, part)
			want = append(want, Append(nil, v), Append(nil, part))
		}
		if i%25 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	for i, v := range kept {
		if got := Append(nil, v); !bytes.Equal(got, want[i]) {
			t.Fatalf("value %d changed after collection: %s, want %s", i, got, want[i])
		}
	}
	obj := kept[0].(Object)
	for _, m := range obj {
		switch m.Key {
		case "id":
			if s, ok := m.Value.(string); !ok || s != "c0" || m.Value != any("c0") {
				t.Errorf("id = %#v, want the string c0", m.Value)
			}
		case "n":
			if n, ok := m.Value.(json.Number); !ok || n != "0" || reflect.TypeOf(m.Value) != reflect.TypeFor[json.Number]() {
				t.Errorf("n = %#v, want json.Number 0", m.Value)
			}
		case "list":
			l, ok := m.Value.([]any)
			if !ok || len(l) != 3 || cap(l) != 3 || reflect.ValueOf(m.Value).Len() != 3 {
				t.Errorf("list = %#v, want 3 elements, capacity 3", m.Value)
			}
		}
	}
	// Appending to a parsed container must not write into its neighbours.
	list, _ := obj.Get("list")
	grown := append(list.([]any), "four")
	if again, _ := obj.Get("list"); len(again.([]any)) != 3 || len(grown) != 4 {
		t.Error("append to a parsed array changed the document")
	}
	if got := Append(nil, kept[0]); !bytes.Equal(got, want[0]) {
		t.Errorf("after appending to a parsed array the document reads %s, want %s", got, want[0])
	}
}

// TestSlabGenerationsEnd: chunks shared by a stream of documents are
// collected once the documents in them are dropped, while the parser goes
// on. If a document's values could point into the chunks of an earlier
// generation, each generation would keep the one before it alive and a run
// over a dataset would never free any of it.
func TestSlabGenerationsEnd(t *testing.T) {
	var first []weak.Pointer[Member]
	var last any
	for i := range 2000 {
		doc := fmt.Sprintf(`{"id":"c%d","calls":[{"name":"f","args":{"a":%d,"b":["x","y"],"c":{"d":true}}}],"s":"%s"}`,
			i, i, strings.Repeat("x", i%50))
		v, err := ParseString(doc)
		if err != nil {
			t.Fatal(err)
		}
		if i < 10 {
			first = append(first, weak.Make(&v.(Object)[0]))
		}
		last = v
	}
	runtime.GC()
	for i, w := range first {
		if w.Value() != nil {
			t.Errorf("document %d is still in memory after 2000 more were read", i)
		}
	}
	runtime.KeepAlive(last)
}

// TestLevelsKeepNoOldGeneration: what a document left in the parser's
// levels (a wide object, whose members fill more of its depth's chunk than
// the next documents reach) does not keep it alive once later documents
// have started a new generation.
func TestLevelsKeepNoOldGeneration(t *testing.T) {
	// One P, so that every document goes through the same pooled parser.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	// Narrower and wider than any chunk.
	for _, width := range []int{100, 3000} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			var b strings.Builder
			b.WriteString("{")
			for i := range width {
				fmt.Fprintf(&b, `"k%d":{"a":[%d]},`, i, i)
			}
			b.WriteString(`"end":{}}`)
			v, err := ParseString(b.String())
			if err != nil {
				t.Fatal(err)
			}
			w := weak.Make(&v.(Object)[width-1].Value.(Object)[0])
			v = nil
			// More than a generation of input, none ending one exactly
			// (which would end it too): documents of about 120
			// bytes.
			for i := range genInput / 100 {
				if _, err := ParseString(fmt.Sprintf(`{"id":%d,"s":"%s"}`, i, strings.Repeat("x", 103))); err != nil {
					t.Fatal(err)
				}
			}
			runtime.GC()
			if w.Value() != nil {
				t.Error("a document left in the levels is still in memory a generation later")
			}
		})
	}
}

// TestSlabLargeDocumentNotKept: a document that fills a generation alone is
// not kept alive by the parser it went through once it is dropped.
func TestSlabLargeDocumentNotKept(t *testing.T) {
	doc := `{"items":[` + strings.Repeat(`{"name":"n","args":{"a":1,"b":"text"}},`, 1000) + `{}]}`
	v, err := ParseString(doc)
	if err != nil {
		t.Fatal(err)
	}
	first := v.(Object)[0].Value.([]any)[0].(Object)
	w := weak.Make(&first[0])
	first, v = nil, nil
	runtime.GC() // the pool still holds the parser through this collection
	if w.Value() != nil {
		t.Error("a dropped large document is still in memory after a collection")
	}
}

// TestLevelsKeepEveryValue: the containers read into a level's chunks
// (one pair for each depth, shared by the containers at that depth, see
// level) keep what they held while later documents are read into the
// same chunks: documents that fail part way, containers that outgrow
// their chunk and move, wide ones, and new generations.
func TestLevelsKeepEveryValue(t *testing.T) {
	// One P, so that every document goes through the same pooled parser.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	rapid.Check(t, func(t *rapid.T) {
		var kept []any
		var texts []string
		for range rapid.IntRange(1, 40).Draw(t, "documents") {
			var doc string
			if rapid.IntRange(0, 9).Draw(t, "wide") == 0 {
				// Wider than any chunk at depths 1 and 2.
				var b strings.Builder
				b.WriteString(`[{`)
				for i := range rapid.IntRange(1, 2*maxMembers+10).Draw(t, "members") {
					if i > 0 {
						b.WriteByte(',')
					}
					fmt.Fprintf(&b, `"k%d":[%d,"v"]`, i, i)
				}
				b.WriteString(`}]`)
				doc = b.String()
			} else {
				doc = string(Append(nil, genValue(t, 0)))
			}
			if rapid.IntRange(0, 3).Draw(t, "cut") == 0 {
				doc = doc[:rapid.IntRange(0, len(doc)).Draw(t, "at")]
			}
			v, err := ParseString(doc)
			if err != nil {
				continue
			}
			kept, texts = append(kept, v), append(texts, doc)
			if rapid.IntRange(0, 9).Draw(t, "collect") == 0 {
				runtime.GC()
			}
		}
		for i, v := range kept {
			if got := string(Append(nil, v)); got != texts[i] {
				t.Fatalf("document %d reads back as %.200s, want %.200s", i, got, texts[i])
			}
		}
	})
}

// TestWideContainersMoveSeldom: an object and an array far wider than any
// chunk move a few times, not once an entry (each move copies what the
// container has read, so moving for every entry takes time that grows
// with the square of its width): far fewer allocations than entries, the
// chunks of their strings' headers and the object's index of keys
// included.
func TestWideContainersMoveSeldom(t *testing.T) {
	const width = 20 * maxElems
	for _, open := range []string{`{`, `[`} {
		var b strings.Builder
		b.WriteString(open)
		for i := range width {
			if i > 0 {
				b.WriteByte(',')
			}
			if open == `{` {
				fmt.Fprintf(&b, `"k%d":`, i)
			}
			b.WriteString(`"v"`)
		}
		b.WriteString(map[string]string{`{`: `}`, `[`: `]`}[open])
		doc := b.String()
		if allocs := testing.AllocsPerRun(3, func() {
			if _, err := ParseString(doc); err != nil {
				t.Fatal(err)
			}
		}); allocs > width/20 {
			t.Errorf("%s of %d entries: %.0f allocations, want a few", open, width, allocs)
		}
	}
}

// TestUnescapedTextKept: strings with escapes, which are unescaped into
// the slab's text chunk, keep their text while later documents are read
// into the same chunk: short ones that fit, ones longer than the room
// left (moved by append), longer than any chunk, in documents that fail
// part way, across generations and collections.
func TestUnescapedTextKept(t *testing.T) {
	// One P, so that every document goes through the same pooled parser.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	rapid.Check(t, func(t *rapid.T) {
		var kept []any
		var want []string
		for range rapid.IntRange(1, 60).Draw(t, "documents") {
			var doc strings.Builder
			var text strings.Builder
			doc.WriteString(`{"s":"`)
			for range rapid.IntRange(1, 4).Draw(t, "runs") {
				plain := strings.Repeat(rapid.SampledFrom([]string{"a", "é", "{x:1}"}).Draw(t, "piece"),
					rapid.SampledFrom([]int{0, 1, 7, 60, 300, 3000}).Draw(t, "repeats"))
				doc.WriteString(plain)
				text.WriteString(plain)
				esc := rapid.SampledFrom([]string{`\"`, `\\`, `\n`, `\u00e9`}).Draw(t, "escape")
				doc.WriteString(esc)
				text.WriteString(map[string]string{`\"`: `"`, `\\`: `\`, `\n`: "\n", `\u00e9`: "é"}[esc])
			}
			doc.WriteString(`","n":[1,"x\"y"]}`)
			in := doc.String()
			if rapid.IntRange(0, 4).Draw(t, "cut") == 0 {
				if _, err := ParseString(in[:rapid.IntRange(0, len(in)-1).Draw(t, "at")]); err == nil {
					t.Fatal("a cut document parsed")
				}
				continue
			}
			v, err := ParseString(in)
			if err != nil {
				t.Fatal(err)
			}
			kept = append(kept, v)
			want = append(want, text.String())
			if rapid.IntRange(0, 9).Draw(t, "collect") == 0 {
				runtime.GC()
			}
		}
		for i, v := range kept {
			s, _ := v.(Object).Get("s")
			if s != any(want[i]) {
				t.Fatalf("document %d: s = %.80q, want %.80q", i, s, want[i])
			}
			n, _ := v.(Object).Get("n")
			if n.([]any)[1] != any(`x"y`) {
				t.Fatalf("document %d: n[1] = %q, want x\"y", i, n.([]any)[1])
			}
		}
	})
}
