package jsonvalue_test

import (
	"testing"

	"github.com/toolgrade/toolgrade/bench"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// BenchmarkAppendString writes the strings a small case's result line
// holds: a reason quoting arguments as JSON (an escape every few bytes),
// the short keys and values of arguments, and text with non-ASCII.
func BenchmarkAppendString(b *testing.B) {
	for _, bc := range []struct{ name, s string }{
		{"reason", `missing book_flight({"from":"notes","to":"Zürich","passengers":2,"nonstop":true,"max_price":null}) (expected #1): called #1 differs: from missing (expected "notes"); unexpected create_event({"title":"paris meeting table 東京","when":{"date":"2025-07-04","time":"10:...) (called #2)`},
		{"tiny", "to"},
		{"short", "from"},
		{"value", "north"},
		{"word", "passengers"},
		{"plain", "Case 0: please invoice budget table invoice budget"},
		{"unicode", "Done: release report 東京 weather release, café in Zürich."},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.s)))
			b.ReportAllocs()
			buf := make([]byte, 0, 1024)
			for b.Loop() {
				buf = jsonvalue.AppendString(buf[:0], bc.s)
			}
		})
	}
}

// BenchmarkHash hashes what a small case's digest hashes (see the root
// package's shared-id check): its input, and the arguments of its
// expected calls, by meaning.
func BenchmarkHash(b *testing.B) {
	for _, bc := range []struct{ name, doc string }{
		{"input", `"Case 1: please quarterly budget draft release invoice london london"`},
		{"args", `{"from":"team","to":"north","passengers":4,"nonstop":false,"max_price":null}`},
		{"args-list", `{"to":["fatima@example.com","goran@example.com"],"subject":"budget quarterly","body":"north london london weather notes table london draft paris"}`},
		{"args-numbers", `{"user_id":676893,"fields":["name","email","plan"],"limit":20,"ratio":0.25}`},
	} {
		v, err := jsonvalue.ParseString(bc.doc)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var h uint64
			for b.Loop() {
				h += jsonvalue.Hash(h, v)
			}
		})
	}
}

// BenchmarkEqual compares what grading compares most (match's exact
// scores, a pair of calls of one name): arguments alike, spelled alike
// or in another order, and arguments that differ in their last member.
func BenchmarkEqual(b *testing.B) {
	for _, bc := range []struct{ name, a, b string }{
		{"alike", `{"from":"team","to":"north","passengers":4,"nonstop":false,"max_price":null}`, `{"from":"team","to":"north","passengers":4,"nonstop":false,"max_price":null}`},
		{"nested", `{"title":"release","when":{"date":"2025-07-21","time":"01:30","tz":"Europe/Paris"},"attendees":[{"name":"ana","email":"ana@example.com"}],"duration_min":105}`, `{"title":"release","when":{"date":"2025-07-21","time":"01:30","tz":"Europe/Paris"},"attendees":[{"name":"ana","email":"ana@example.com"}],"duration_min":105}`},
		{"reordered", `{"query":"café weather notes draft notes north","top_k":12,"filters":{"lang":"en","after":"2024-01-01","min_score":0.32}}`, `{"query":"café weather notes draft notes north","filters":{"lang":"en","after":"2024-01-01","min_score":0.32},"top_k":12}`},
		{"differ", `{"user_id":676893,"fields":["name","email","plan"],"limit":20}`, `{"user_id":676893,"fields":["name","email","plan"],"limit":21}`},
	} {
		x, err := jsonvalue.ParseString(bc.a)
		if err != nil {
			b.Fatal(err)
		}
		y, err := jsonvalue.ParseString(bc.b)
		if err != nil {
			b.Fatal(err)
		}
		want := bc.name != "differ"
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if jsonvalue.Equal(x, y) != want {
					b.Fatal("Equal is wrong")
				}
			}
		})
	}
}

// BenchmarkParse reads what eval reads: the lines of small generated
// cases (bench/gen -calls 3, about 720 bytes each, a fifth of them with
// an OpenAI transcript) and of 1.5 KB ones (bench/gen's default), and
// the tool-call arguments those transcripts carry as JSON text, parsed
// again on their own. An op is one document.
func BenchmarkParse(b *testing.B) {
	read := func(maxCalls int) (lines, args []string) {
		g := bench.NewGenerator(1)
		g.MaxCalls = maxCalls
		for _, l := range g.Lines(2000) {
			lines = append(lines, string(l))
			v, err := jsonvalue.Parse(l)
			if err != nil {
				b.Fatal(err)
			}
			args = appendArguments(args, v)
		}
		return lines, args
	}
	lines, args := read(3)
	bigLines, bigArgs := read(0)
	for _, bc := range []struct {
		name string
		docs []string
	}{{"small", lines}, {"arguments", args}, {"big", bigLines}, {"big-arguments", bigArgs}} {
		b.Run(bc.name, func(b *testing.B) {
			size := 0
			for _, d := range bc.docs {
				size += len(d)
			}
			b.SetBytes(int64(size / len(bc.docs)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := jsonvalue.ParseString(bc.docs[i%len(bc.docs)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// appendArguments appends the "arguments" strings found anywhere in v.
func appendArguments(list []string, v any) []string {
	switch v := v.(type) {
	case jsonvalue.Object:
		for _, m := range v {
			if s, ok := m.Value.(string); ok && m.Key == "arguments" {
				if _, err := jsonvalue.ParseString(s); err == nil { // some are cut on purpose
					list = append(list, s)
				}
			} else {
				list = appendArguments(list, m.Value)
			}
		}
	case []any:
		for _, e := range v {
			list = appendArguments(list, e)
		}
	}
	return list
}
