package bench_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/bench"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/internal/assign"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
)

// Benchmarks whose op is one case (or one call, or one pair) cycle through
// the generated cases, so that ns/op is the cost of an average one.

// records are the generated lines split off by the JSON Lines reader, not
// yet decoded.
func records(tb testing.TB) []toolgrade.Record { return linesRecords(tb, lines()) }

// linesRecords are the given lines split off by the JSON Lines reader.
func linesRecords(tb testing.TB, lines [][]byte) []toolgrade.Record {
	var recs []toolgrade.Record
	for rec, err := range dataset.Reader("bench.jsonl", bytes.NewReader(bytes.Join(lines, []byte("\n"))), dataset.JSONL) {
		if err != nil {
			tb.Fatal(err)
		}
		recs = append(recs, rec)
	}
	return recs
}

// cases are the generated cases, decoded.
var cases = sync.OnceValue(func() []*toolgrade.Case { return decodeAll(records(nil)) })

// decodeAll decodes records that must decode.
func decodeAll(recs []toolgrade.Record) []*toolgrade.Case {
	var out []*toolgrade.Case
	for _, rec := range recs {
		c, err := rec.Decode()
		if err != nil {
			panic(err)
		}
		out = append(out, c)
	}
	return out
}

// BenchmarkParseJSON reads one case line into the value model:
// jsonvalue.Parse copies the line once, jsonvalue.ParseString shares it.
func BenchmarkParseJSON(b *testing.B) {
	ls := lines()
	strs := make([]string, len(ls))
	size := 0
	for i, l := range ls {
		strs[i] = string(l)
		size += len(l)
	}
	b.Run("bytes", func(b *testing.B) {
		b.SetBytes(int64(size / len(ls)))
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := jsonvalue.Parse(ls[i%len(ls)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("string", func(b *testing.B) {
		b.SetBytes(int64(size / len(ls)))
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := jsonvalue.ParseString(strs[i%len(strs)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkDecodeCase decodes one record as a worker does: parse the line,
// read the calls (from a trajectory in a fifth of the cases).
func BenchmarkDecodeCase(b *testing.B) {
	recs := records(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := recs[i%len(recs)].Decode(); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkDecodeCaseTree decodes one case from its parsed value tree,
// as dataset.DecodeCaseFor does after the parser: the default cases and
// the small ones (at most 3 expected calls) of BenchmarkEvalSmall.
func BenchmarkDecodeCaseTree(b *testing.B) {
	for _, size := range []struct {
		name  string
		calls int
	}{{"default", 8}, {"small", 3}} {
		b.Run(size.name, func(b *testing.B) {
			g := bench.NewGenerator(1)
			g.MaxCalls = size.calls
			var trees []any
			for _, l := range g.Lines(2000) {
				v, err := jsonvalue.Parse(l)
				if err != nil {
					b.Fatal(err)
				}
				trees = append(trees, v)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := dataset.DecodeCase(trees[i%len(trees)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// argPairs are the arguments of expected calls with those of a called call
// of the same tool, as pairing compares them.
var argPairs = sync.OnceValue(func() [][2]any {
	var pairs [][2]any
	for _, c := range cases() {
		for _, e := range c.Expected {
			for _, g := range c.Called {
				if g.Name == e.Name && !g.Invalid {
					pairs = append(pairs, [2]any{e.Args, g.Args})
					break
				}
			}
		}
	}
	return pairs
})

// BenchmarkCompareArgs compares one pair of argument values in each mode,
// and lists the differences (Diff) as reasons need them.
func BenchmarkCompareArgs(b *testing.B) {
	pairs := argPairs()
	for _, mode := range []match.Mode{match.ArgsExact, match.ArgsPartial, match.ArgsContains, match.ArgsFuzzy} {
		b.Run(string(mode), func(b *testing.B) {
			c := match.Comparer{Mode: mode}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				p := pairs[i%len(pairs)]
				c.Score(p[0], p[1], nil)
				i++
			}
		})
	}
	b.Run("diff", func(b *testing.B) {
		c := match.Comparer{Mode: match.ArgsExact}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			p := pairs[i%len(pairs)]
			c.Diff(p[0], p[1], nil)
			i++
		}
	})
}

// scoreMatrix is an n×n matrix of pair scores in [0, 1], a quarter of them
// positive: denser than real cases, where most pairs differ in name.
func scoreMatrix(n int) [][]float64 {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	scores := make([][]float64, n)
	for i := range scores {
		scores[i] = make([]float64, n)
		for j := range scores[i] {
			if rng.IntN(4) == 0 {
				scores[i][j] = float64(rng.IntN(5)) / 4
			}
		}
	}
	return scores
}

// BenchmarkAssign pairs n expected with n called calls for the largest
// total score: 8 is a large real case, 100 the target size (under 5 ms),
// and past assign.MaxExact the pairing turns greedy.
func BenchmarkAssign(b *testing.B) {
	for _, n := range []int{8, 100, 1000, assign.MaxExact + 1} {
		scores := scoreMatrix(n)
		b.Run(strconv.Itoa(n)+"x"+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				assign.Maximize(scores)
			}
		})
	}
}

// BenchmarkMatch grades one decoded case with the native metric: pair
// scores, optimal pairing, differences and the reason.
func BenchmarkMatch(b *testing.B) { benchmarkMatch(b, cases()) }

func benchmarkMatch(b *testing.B, cs []*toolgrade.Case) {
	m := nativeMetric(b)
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Grade(ctx, cs[i%len(cs)])
		i++
	}
}

// smallCases are generated cases of at most 3 expected calls, as
// `bench/gen -calls 3` writes them, decoded.
var smallCases = sync.OnceValue(func() []*toolgrade.Case {
	g := bench.NewGenerator(1)
	g.MaxCalls = 3
	return decodeAll(linesRecords(nil, g.Lines(2000)))
})

// BenchmarkMatchSmall is BenchmarkMatch on the small cases.
func BenchmarkMatchSmall(b *testing.B) { benchmarkMatch(b, smallCases()) }

// BenchmarkResultJSON writes one graded case as a result line.
func BenchmarkResultJSON(b *testing.B) {
	m := nativeMetric(b)
	var results []toolgrade.Result
	for _, c := range cases() {
		results = append(results, toolgrade.Grade(context.Background(), c, m))
	}
	var line []byte
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		line = results[i%len(results)].AppendJSON(line[:0])
		i++
	}
}
