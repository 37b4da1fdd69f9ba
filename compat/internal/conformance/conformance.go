// Package conformance reads the conformance files that prove the
// compatibility profiles (a peer's config, a case, and what the peer's real
// code returned) and checks results against them, for the peers' tests.
//
// The rules: a line's metric is built from its config exactly as a config
// file entry is (package config), and its case read as a case file line is
// (package dataset); a result conforms when its score is within 1e-9 of
// the peer's, its verdict is the peer's, and it is an error exactly where
// the peer raised one. Every profile reads its package's sample (a
// verbatim copy of shared lines, part of the repository) and, when it is
// beside the repository, the whole shared corpus.
//
// Non-goals: producing conformance lines, which come from running each
// peer's real code, outside this repository.
package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Line is one line of a conformance file: a peer's config, a case, and
// what the peer's real code returned.
type Line struct {
	ID     string
	Line   int
	Config jsonvalue.Object
	Case   jsonvalue.Object
	Expect jsonvalue.Object
}

// A Source is one of the two places a peer's conformance test reads its
// lines from: the package's own sample, always, and the whole public file
// of the shared corpus when it is beside the repository.
type Source struct {
	// Name is the source's subtest name: "sample" or "shared".
	Name string
	// Full reports whether the source is the shared corpus, the whole
	// public file (whose line count a test may pin), rather than the
	// sample.
	Full bool
	dir  func(t testing.TB) string
}

// Sources returns the package's sample (its testdata folder: a trimmed,
// verbatim copy of the shared lines, written by TestSamples with
// -update) and the shared corpus's conformance folder, joined with sub
// (for example "bfcl"). Run a test on each with t.Run: a missing sample
// fails (it is part of the repository), a missing shared corpus skips.
func Sources(sub ...string) []Source {
	return []Source{
		{Name: "sample", dir: func(testing.TB) string { return "testdata" }},
		{Name: "shared", Full: true, dir: func(t testing.TB) string {
			t.Helper()
			return Shared(t, sub...)
		}},
	}
}

// Dir returns the source's folder; for the shared corpus it skips the
// test when the shared data is absent.
func (s Source) Dir(t testing.TB) string {
	t.Helper()
	return s.dir(t)
}

// Path returns the path of name in the source's folder; for the shared
// corpus it skips the test when the shared data is absent.
func (s Source) Path(t testing.TB, name string) string {
	t.Helper()
	return filepath.Join(s.dir(t), name)
}

// Load reads the source's file name (see Load).
func (s Source) Load(t *testing.T, name string) []Line {
	t.Helper()
	return Load(t, s.Path(t, name))
}

// Shared returns the path of elem in the shared corpus's conformance
// folder (for example Shared(t, "bfcl", "bfcl.jsonl")), skipping the test
// when the shared data is absent.
func Shared(t testing.TB, elem ...string) string {
	t.Helper()
	return shared.Path(t, append([]string{"conformance"}, elem...)...)
}

// Load reads the conformance file at path and fails the test if it
// cannot: a package's sample is part of the repository. (Look the shared
// corpus up with Shared or a Source, which skip when it is absent.)
func Load(t *testing.T, path string) []Line {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("conformance file: %v", err)
	}
	defer f.Close()
	var lines []Line
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	n := 0
	for sc.Scan() {
		n++
		v, err := jsonvalue.Parse(sc.Bytes())
		if err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		obj := v.(jsonvalue.Object)
		l := Line{Line: n}
		id, _ := obj.Get("id")
		l.ID, _ = id.(string)
		for _, f := range []struct {
			key string
			dst *jsonvalue.Object
		}{{"config", &l.Config}, {"case", &l.Case}, {"expect", &l.Expect}} {
			v, _ := obj.Get(f.key)
			o, ok := v.(jsonvalue.Object)
			if !ok {
				t.Fatalf("%s:%d: %s is not an object", path, n, f.key)
			}
			*f.dst = o
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(lines) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return lines
}

// Grade builds the line's metric from its config, exactly as a config file
// entry would be, and grades the line's case. A config the profile rejects
// gives an error result, as the peer raises at construction.
func Grade(t *testing.T, l Line, env *config.Env) toolgrade.MetricResult {
	t.Helper()
	m, err := config.Metric(l.Config, env)
	if err != nil {
		return toolgrade.MetricResult{Error: err.Error()}
	}
	c, err := dataset.DecodeCaseFor(l.Case, []toolgrade.Metric{m})
	if err != nil {
		return toolgrade.MetricResult{Name: m.Name(), Profile: m.Profile(), Error: err.Error()}
	}
	c.ID = l.ID
	return toolgrade.Grade(context.Background(), c, m).Metrics[0]
}

// Check compares a result with the line's expect: score within 1e-9
// (null: an error result), success (null: no verdict), and an error exactly
// where the peer raised one. It reports through t.Errorf and returns
// whether the line passed.
func Check(t *testing.T, l Line, r toolgrade.MetricResult) bool {
	t.Helper()
	ok := true
	wantErr, _ := l.Expect.Get("error")
	if wantErr != nil {
		if r.Error == "" {
			t.Errorf("%s (line %d): want error %v, got score %v (reason: %s)", l.ID, l.Line, wantErr, r.Score, r.Reason)
			return false
		}
		return true
	}
	score, _ := l.Expect.Get("score")
	if score == nil {
		// The peer gave no score and raised nothing (ADK's NOT_EVALUATED).
		// toolgrade's one form of a result without a score is an error
		// result, so that is what the line must give.
		if r.Error == "" {
			t.Errorf("%s (line %d): want no score (the peer did not evaluate), got score %v (reason: %s)", l.ID, l.Line, r.Score, r.Reason)
			return false
		}
		return true
	}
	if r.Error != "" {
		t.Errorf("%s (line %d): unexpected error: %s", l.ID, l.Line, r.Error)
		return false
	}
	if want := jsonvalue.NumberFloat(score.(json.Number)); math.Abs(r.Score-want) > 1e-9 {
		t.Errorf("%s (line %d): score %v, want %v (reason: %s)", l.ID, l.Line, r.Score, want, r.Reason)
		ok = false
	}
	if s, present := l.Expect.Get("success"); present {
		switch s := s.(type) {
		case nil:
			if r.Threshold != nil {
				t.Errorf("%s (line %d): success %v, want null (no verdict)", l.ID, l.Line, r.Success)
				ok = false
			}
		case bool:
			if r.Threshold == nil || r.Success != s {
				t.Errorf("%s (line %d): success %v (threshold %v), want %v", l.ID, l.Line, r.Success, r.Threshold, s)
				ok = false
			}
		}
	}
	return ok
}

// ParseCase decodes a case written as JSON, as a case file line would be.
func ParseCase(t *testing.T, js string) *toolgrade.Case {
	t.Helper()
	v, err := jsonvalue.ParseString(js)
	if err != nil {
		t.Fatal(err)
	}
	c, err := dataset.DecodeCase(v)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A Suite is one peer's conformance file, for Run.
type Suite struct {
	// File is the file's name, in testdata and in the shared corpus.
	File string
	// Lines, when not 0, is the number of lines the shared file has: a
	// shorter file means a corpus that was cut.
	Lines int
	// Env gives a line the environment its metric is built with (a fake
	// judge, ...); nil builds every metric without one.
	Env func(Line) *config.Env
	// More checks what a line expects beyond Check's score, success and
	// error (a peer's parts, the exception it raised); nil checks nothing
	// more. It reports through t and returns whether the line passed.
	More func(t *testing.T, l Line, r toolgrade.MetricResult) bool
}

// Run checks every line of the suite's file, from the package's sample and
// from the shared corpus when present, each in a subtest, and logs how
// many lines pass.
func Run(t *testing.T, s Suite) {
	t.Helper()
	for _, src := range Sources() {
		t.Run(src.Name, func(t *testing.T) {
			lines := src.Load(t, s.File)
			if src.Full && s.Lines != 0 && len(lines) != s.Lines {
				t.Errorf("%s has %d lines, want %d", s.File, len(lines), s.Lines)
			}
			passed := 0
			for _, l := range lines {
				var env *config.Env
				if s.Env != nil {
					env = s.Env(l)
				}
				r := Grade(t, l, env)
				ok := Check(t, l, r)
				if ok && s.More != nil {
					ok = s.More(t, l, r)
				}
				if ok {
					passed++
				}
			}
			t.Logf("%s: %d of %d lines pass", s.File, passed, len(lines))
		})
	}
}
