package conformance

// The peers' conformance samples: a few hundred lines of each shared
// conformance file, copied verbatim into compat/<peer>/testdata/, so that
// a clone without ../shared still proves every profile. TestSamples checks
// that the samples are what the selection below makes of the shared
// corpus; after the corpus changes, rewrite them with
//
//	go test ./compat/internal/conformance -run TestSamples -update
//
// The selection is deterministic: no random generator, only a seeded
// hash of each line's id, so re-running it gives the same files.
//
// It first covers features, picking greedily the line that covers the
// most features not yet covered (ties: lowest hash), then fills up to the
// target size in hash order, alternating lines with a score strictly
// between 0 and 1 and other lines. The features of a line are:
//   - each config key=value, every pair of them and their whole
//     combination (numbers count as key=value and in pairs, not in the
//     combination; an object with many distinct values, agentevals'
//     tool_args_match_overrides, counts by its members' kinds: each mode
//     string, key-path lists by length, dotted and array-index paths);
//   - the outcome: score class (null, 0, 1, between, below 0, above 1),
//     success, error, and BFCL's error_type, alone, together, and with
//     each config key=value;
//   - the other expect fields (classes of their values);
//   - the case's set of fields and the kind of each (null, list length,
//     string class, number class, and the value itself when the field has
//     few distinct values, such as judge_score or BFCL's mutation);
//   - the shapes inside the case: the fields of each call and the kind of
//     its args, output and type; each message's role, fields and kind of
//     tool_calls; whether function arguments parse as JSON; the lengths of
//     the lists of calls, invocations, samples, messages;
//   - the kinds of argument values: long strings (difflib's autojunk
//     starts at 200), non-ASCII, empty or padded strings, integral floats,
//     exponents, negative numbers, -0, nulls, booleans, empty and nested
//     objects and arrays;
//   - the id's category (the id without its trailing number: agentevals'
//     category and modes, deepeval's quirk and hand-written probes);
//   - for BFCL, the candidate's mutation with its verdict, and each entry
//     the corpus's README names as a dataset quirk, valid and invalid.
//
// BFCL lines are taken from as few entries as the cover allows (on a tie
// it prefers an entry already taken, and the fill takes only lines of
// entries already taken). The BFCL data files (question and
// possible-answer files, one JSON entry per line) are sampled as the first
// bfclDataEntries entries of each category plus every entry a sampled
// line grades, copied verbatim in the original order, with BFCL's LICENSE
// beside them.

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the peers' conformance samples (compat/<peer>/testdata) from the shared corpus")

// sampleSeed seeds the hash that orders the lines.
const sampleSeed = "toolgrade conformance sample 1"

// bfclDataEntries is the number of leading entries of each BFCL data file
// the sample keeps (besides the entries the sampled lines grade).
const bfclDataEntries = 5

// samples lists each peer's sample: the package under compat/, the file
// (in ../shared/conformance/<sub>/ and in the package's testdata/), and
// the number of lines to aim for (more if the features need them).
var samples = []struct {
	peer, sub, file string
	size            int
}{
	{"adk", "", "adk.jsonl", 300},
	{"agentevals", "", "agentevals.jsonl", 300},
	{"axion", "", "axion.jsonl", 300},
	{"deepeval", "", "deepeval.jsonl", 300},
	{"deepfabric", "", "deepfabric.jsonl", 300},
	{"ragas", "", "ragas.jsonl", 300},
	{"openevals", "", "openevals.jsonl", 300},
	{"evalite", "", "evalite.jsonl", 300},
	{"mastra", "", "mastra.jsonl", 300},
	{"promptfoo", "", "promptfoo.jsonl", 300},
	{"bfcl", "bfcl", "bfcl.jsonl", 400},
}

// bfclQuirkEntries are the entries the corpus's README names as dataset
// quirks.
var bfclQuirkEntries = []string{
	"live_multiple_862-181-3", "live_multiple_964-207-0", "live_simple_106-63-0", "live_simple_112-68-0",
	"simple_java_36", "simple_java_65", "simple_java_64", "live_multiple_507-149-4",
	"simple_python_17", "simple_python_200", "parallel_88", "parallel_multiple_87", "parallel_multiple_119",
	"live_multiple_68-29-0", "live_multiple_69-30-0", "live_multiple_77-35-1", "live_multiple_114-44-1",
	"live_multiple_144-56-0", "live_multiple_834-178-9", "live_multiple_905-186-2", "live_multiple_906-186-3",
	"parallel_multiple_12", "parallel_multiple_26",
	"simple_java_35", "simple_java_78", "simple_java_83", "simple_java_85", "simple_java_86", "simple_java_89",
	"simple_java_90", "simple_java_91", "simple_java_67", "parallel_178",
}

// TestSampleFiles checks that every peer's testdata folder has its sample
// and a SOURCE.md saying where the lines come from.
func TestSampleFiles(t *testing.T) {
	for _, s := range samples {
		t.Run(s.peer, func(t *testing.T) {
			dir := filepath.Join("..", "..", s.peer, "testdata")
			for _, name := range []string{s.file, "SOURCE.md"} {
				if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
					t.Errorf("%s: missing or empty (%v)", filepath.Join(dir, name), err)
				}
			}
		})
	}
}

// TestSamples checks that the samples are what the selection makes of the
// shared corpus (skipping when it is absent), or with -update writes them.
func TestSamples(t *testing.T) {
	for _, s := range samples {
		found := false
		t.Run(s.peer, func(t *testing.T) {
			src := Shared(t, s.sub, s.file)
			found = true
			raw, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			lines := splitLines(raw)
			picked := selectSample(t, lines, s.peer == "bfcl", s.size)
			dir := filepath.Join("..", "..", s.peer, "testdata")
			files := map[string][]byte{s.file: joinLines(lines, picked)}
			frac := 0
			for _, i := range picked {
				if fractional(lines[i]) {
					frac++
				}
			}
			t.Logf("%s: %d of %d lines (%d with a score strictly between 0 and 1), %d bytes", s.file, len(picked), len(lines), frac, len(files[s.file]))
			if s.peer == "bfcl" {
				bfclData(t, filepath.Dir(src), lines, picked, files)
			}
			for name, want := range files {
				path := filepath.Join(dir, name)
				if *update {
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, want, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				got, err := os.ReadFile(path)
				if err != nil {
					t.Errorf("%v (rewrite the samples with -update)", err)
				} else if !bytes.Equal(got, want) {
					t.Errorf("%s is not the sample of %s (rewrite the samples with -update)", path, src)
				}
			}
		})
		if *update && !found {
			t.Fatalf("-update: no shared corpus to sample %s from (it must be beside the repository, as ../shared)", s.file)
		}
	}
}

// bfclData adds the sample of BFCL's data files to files: for each
// question file, its first bfclDataEntries entries and the entries the
// picked lines grade, and the same entries of its possible-answer file;
// and BFCL's LICENSE.
func bfclData(t *testing.T, dir string, lines [][]byte, picked []int, files map[string][]byte) {
	want := map[string]bool{}
	for _, i := range picked {
		var l struct {
			Case struct {
				ID string `json:"bfcl_id"`
			} `json:"case"`
		}
		if err := json.Unmarshal(lines[i], &l); err != nil || l.Case.ID == "" {
			t.Fatalf("bfcl.jsonl line %d: no case.bfcl_id (%v)", i+1, err)
		}
		want[l.Case.ID] = true
	}
	questions, err := filepath.Glob(filepath.Join(dir, "BFCL_v4_*.json"))
	if err != nil || len(questions) == 0 {
		t.Fatalf("no BFCL data files in %s (%v)", dir, err)
	}
	found := 0
	for _, q := range questions {
		name := filepath.Base(q)
		for _, rel := range []string{name, filepath.Join("possible_answer", name)} {
			raw, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil {
				t.Fatal(err)
			}
			entries := splitLines(raw)
			var keep []int
			for i, e := range entries {
				var id struct{ ID string }
				if err := json.Unmarshal(e, &id); err != nil {
					t.Fatalf("%s:%d: %v", rel, i+1, err)
				}
				if i < bfclDataEntries || want[id.ID] {
					keep = append(keep, i)
					if want[id.ID] && rel == name {
						found++
					}
				}
			}
			files[rel] = joinLines(entries, keep)
		}
	}
	if found != len(want) {
		t.Errorf("the sampled lines grade %d entries, %d of them in the question files", len(want), found)
	}
	license, err := os.ReadFile(filepath.Join(dir, "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	files["LICENSE"] = license
}

// splitLines splits a JSON Lines file into its non-empty lines, verbatim.
func splitLines(raw []byte) [][]byte {
	var out [][]byte
	for l := range bytes.Lines(raw) {
		if l = bytes.TrimRight(l, "\r\n"); len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// joinLines writes the lines at the indexes given (in ascending order),
// one per line.
func joinLines(lines [][]byte, idx []int) []byte {
	var b bytes.Buffer
	for _, i := range idx {
		b.Write(lines[i])
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// selectSample returns the indexes, ascending, of the lines to keep.
func selectSample(t *testing.T, lines [][]byte, bfcl bool, size int) []int {
	objs := make([]map[string]any, len(lines))
	for i, l := range lines {
		d := json.NewDecoder(bytes.NewReader(l))
		d.UseNumber()
		if err := d.Decode(&objs[i]); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	st := newStats(objs)
	ids := map[string]int{} // feature → number
	feats := make([][]int, len(lines))
	rank := make([]string, len(lines))
	for i, o := range objs {
		for _, f := range lineFeatures(o, st, bfcl) {
			n, ok := ids[f]
			if !ok {
				n = len(ids)
				ids[f] = n
			}
			feats[i] = append(feats[i], n)
		}
		id, _ := o["id"].(string)
		h := sha256.Sum256([]byte(sampleSeed + "\x00" + id))
		rank[i] = string(h[:])
	}
	// BFCL lines are grouped by entry: the sample keeps few entries (the
	// data files' sample holds every entry a line grades) and more of
	// each entry's candidates.
	group := make([]string, len(lines))
	if bfcl {
		for i, o := range objs {
			c, _ := o["case"].(map[string]any)
			group[i], _ = c["bfcl_id"].(string)
		}
	}
	inGroup := map[string]bool{}
	order := make([]int, len(lines)) // lines by rank
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(rank[a], rank[b]) })

	// Greedy cover: the line that covers the most new features; on a tie,
	// one of an entry already taken, then the first in rank order.
	covered := make([]bool, len(ids))
	taken := make([]bool, len(lines))
	var picked []int
	for {
		best, bestGain := -1, 0
		for _, i := range order {
			if taken[i] {
				continue
			}
			gain := 0
			for _, f := range feats[i] {
				if !covered[f] {
					gain++
				}
			}
			if gain > bestGain || gain == bestGain && gain > 0 && inGroup[group[i]] && !inGroup[group[best]] {
				best, bestGain = i, gain
			}
		}
		if best < 0 {
			break
		}
		taken[best] = true
		picked = append(picked, best)
		if group[best] != "" {
			inGroup[group[best]] = true
		}
		for _, f := range feats[best] {
			covered[f] = true
		}
	}
	t.Logf("%d features, covered by %d lines", len(ids), len(picked))
	// Fill up in rank order, alternating lines with a score strictly
	// between 0 and 1 and the others (for BFCL: lines of the entries
	// taken).
	var pools [2][]int
	for _, i := range order {
		if !taken[i] && (!bfcl || inGroup[group[i]]) {
			k := 0
			if fractional(lines[i]) {
				k = 1
			}
			pools[k] = append(pools[k], i)
		}
	}
	for k := 1; len(picked) < size && len(pools[0])+len(pools[1]) > 0; k = 1 - k {
		if len(pools[k]) == 0 {
			continue
		}
		picked = append(picked, pools[k][0])
		pools[k] = pools[k][1:]
	}
	slices.Sort(picked)
	return picked
}

// fractional reports whether a line's expect.score is strictly between 0
// and 1.
func fractional(line []byte) bool {
	var l struct {
		Expect struct {
			Score *float64 `json:"score"`
		} `json:"expect"`
	}
	if json.Unmarshal(line, &l) != nil || l.Expect.Score == nil {
		return false
	}
	return *l.Expect.Score > 0 && *l.Expect.Score < 1
}

// stats holds what the features need to know of the whole file: how many
// distinct values each config key and each scalar field takes.
type stats struct {
	distinct map[string]map[string]bool // "config.k", "case.k", "expect.k" → values
}

func newStats(objs []map[string]any) *stats {
	st := &stats{distinct: map[string]map[string]bool{}}
	for _, o := range objs {
		for _, sec := range []string{"config", "case", "expect"} {
			m, _ := o[sec].(map[string]any)
			for k, v := range m {
				key := sec + "." + k
				if st.distinct[key] == nil {
					st.distinct[key] = map[string]bool{}
				}
				st.distinct[key][canonical(v)] = true
			}
		}
	}
	return st
}

// few reports whether a field takes few enough distinct values that each
// is a feature.
func (st *stats) few(key string) bool { return len(st.distinct[key]) <= 100 }

// continuous reports whether a config key is a number with many values
// (a threshold), left out of the combinations.
func (st *stats) continuous(key string) bool {
	if len(st.distinct[key]) <= 8 {
		return false
	}
	for v := range st.distinct[key] {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return false
		}
	}
	return true
}

func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func lineFeatures(o map[string]any, st *stats, bfcl bool) []string {
	var out []string
	add := func(parts ...string) { out = append(out, strings.Join(parts, " | ")) }

	// Config.
	cfg, _ := o["config"].(map[string]any)
	var kv, combo, members []string
	for _, k := range sortedKeys(cfg) {
		if k == "profile" {
			continue
		}
		v := canonical(cfg[k])
		if !st.few("config." + k) {
			v = shape(cfg[k])
			// An object with many values (agentevals' overrides) counts by
			// the kinds of its members.
			if m, ok := cfg[k].(map[string]any); ok {
				add("config members", k, lengthClass(len(m)))
				for _, mk := range sortedKeys(m) {
					members = append(members, k+" member "+memberKind(m[mk]))
				}
			}
		}
		add("config", k+"="+v)
		if st.continuous("config." + k) {
			continue
		}
		c := k + "=" + canonical(cfg[k])
		if len(st.distinct["config."+k]) > 16 {
			c = k + "=" + kind(cfg[k])
		}
		kv = append(kv, c)
		if _, ok := cfg[k].(json.Number); !ok {
			combo = append(combo, c)
		}
	}
	add("config combination", strings.Join(combo, " "))
	for i := range kv {
		for j := i + 1; j < len(kv); j++ {
			add("config pair", kv[i], kv[j])
		}
	}
	for _, m := range members {
		add("config", m)
		for _, c := range kv {
			add("config pair", m, c)
		}
	}

	// Outcome.
	exp, _ := o["expect"].(map[string]any)
	score := numberClass(exp["score"])
	success := canonical(exp["success"])
	errText := canonical(exp["error"])
	errType := canonical(exp["error_type"])
	add("score", score)
	add("success", success)
	add("error", errText)
	add("outcome", score, success, errText, errType)
	if _, ok := exp["error_type"]; ok {
		add("error_type", errType)
	}
	for _, c := range kv {
		add("config and outcome", c, score, success, errType)
	}
	for _, k := range sortedKeys(exp) {
		switch k {
		case "score", "success", "error", "error_type":
			continue
		}
		few := st.few("expect." + k)
		if _, ok := exp[k].(json.Number); ok {
			few = false // a number counts by its class
		}
		add("expect", k, valueClass(exp[k], few))
	}
	add("expect fields", strings.Join(sortedKeys(exp), ","))

	// Case.
	c, _ := o["case"].(map[string]any)
	add("case fields", strings.Join(sortedKeys(c), ","))
	for _, k := range sortedKeys(c) {
		add("case", k, valueClass(c[k], st.few("case."+k)))
	}
	w := &walker{add: add}
	w.walk(c, "")
	for _, f := range slices.Sorted(maps.Keys(w.values)) {
		add("argument value", f)
	}

	// Id and entry.
	id, _ := o["id"].(string)
	if bfcl {
		entry, _ := c["bfcl_id"].(string)
		if slices.Contains(bfclQuirkEntries, entry) {
			add("quirk entry", entry, success)
		}
		if mut, ok := c["mutation"].(string); ok {
			add("mutation and outcome", mut, success)
		}
	} else {
		add("id", strings.TrimRightFunc(strings.TrimRight(id, "0123456789"), func(r rune) bool { return r == '-' || r == '_' }))
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// memberKind classes a member of a config object: a string by its value
// (agentevals' mode), a list of key paths by its length and whether the
// paths are dotted or go through array indices.
func memberKind(v any) string {
	list, ok := v.([]any)
	if !ok {
		if _, isNum := v.(json.Number); isNum {
			return "number " + numberClass(v)
		}
		return canonical(v)
	}
	out := "list " + lengthClass(len(list))
	dotted, index := false, false
	for _, e := range list {
		p, _ := e.(string)
		for seg := range strings.SplitSeq(p, ".") {
			if _, err := strconv.Atoi(seg); err == nil {
				index = true
			}
		}
		dotted = dotted || strings.Contains(p, ".")
	}
	if dotted {
		out += " dotted"
	}
	if index {
		out += " index"
	}
	return out
}

// kind is the JSON kind of a value, with the class of a string.
func kind(v any) string {
	switch x := v.(type) {
	case nil, bool:
		return canonical(x)
	case map[string]any:
		if len(x) == 0 {
			return "empty object"
		}
		return "object"
	case []any:
		if len(x) == 0 {
			return "empty list"
		}
		return "list"
	case json.Number:
		return "number"
	case string:
		return "string " + stringClass(x)
	}
	return fmt.Sprintf("%T", v)
}

// shape is the JSON kind of a value, with the keys of an object.
func shape(v any) string {
	switch x := v.(type) {
	case map[string]any:
		return "{" + strings.Join(sortedKeys(x), ",") + "}"
	case []any:
		return "list " + lengthClass(len(x))
	case json.Number:
		return "number " + numberClass(x)
	case string:
		return "string " + stringClass(x)
	default:
		return canonical(v)
	}
}

// valueClass classes a field's value; with few, scalars by their value.
func valueClass(v any, few bool) string {
	switch x := v.(type) {
	case nil, bool:
		return canonical(x)
	case json.Number:
		if few {
			return "number " + string(x)
		}
		return "number " + numberClass(x)
	case string:
		if few {
			return "string " + canonical(x)
		}
		return "string " + stringClass(x)
	case []any:
		classes := map[string]bool{}
		for _, e := range x {
			classes[kind(e)] = true
		}
		return "list " + lengthClass(len(x)) + " of " + strings.Join(slices.Sorted(maps.Keys(classes)), ",")
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func lengthClass(n int) string {
	switch {
	case n <= 2:
		return strconv.Itoa(n)
	case n <= 4:
		return "3-4"
	}
	return "5+"
}

// numberClass classes a score-like number: null, 0, 1, between, below 0,
// above 1.
func numberClass(v any) string {
	n, ok := v.(json.Number)
	if !ok {
		return canonical(v)
	}
	f, err := n.Float64()
	switch {
	case err != nil:
		return "unreadable"
	case f == 0:
		return "0"
	case f == 1:
		return "1"
	case f < 0:
		return "below 0"
	case f > 1:
		return "above 1"
	}
	return "between 0 and 1"
}

func stringClass(s string) string {
	switch {
	case s == "":
		return "empty"
	case strings.TrimSpace(s) == "":
		return "blank"
	}
	return "text"
}

// walker collects the features of the shapes inside a case.
type walker struct {
	add    func(...string)
	values map[string]bool
}

// structural lists are those whose length is a feature.
var structural = []string{"tools_called", "expected_tools", "invocations", "samples", "trajectory", "expected_trajectory", "tool_calls", "available_tools", "possible_answer"}

func (w *walker) walk(v any, key string) {
	switch x := v.(type) {
	case []any:
		if slices.Contains(structural, key) {
			w.add("length", key, lengthClass(len(x)))
		}
		for _, e := range x {
			w.walk(e, key)
		}
	case map[string]any:
		switch {
		case key == "tools_called" || key == "expected_tools":
			w.call(key, x)
		case x["role"] != nil:
			w.message(x)
		}
		for _, k := range sortedKeys(x) {
			switch k {
			case "args":
				w.value(x[k], 0)
				continue
			case "arguments":
				if s, ok := x[k].(string); ok {
					w.arguments(s)
					continue
				}
			}
			w.walk(x[k], k)
		}
	}
}

func (w *walker) call(list string, c map[string]any) {
	w.add("call fields", list, strings.Join(sortedKeys(c), ","))
	args, ok := c["args"]
	k := "absent"
	if ok {
		k = kind(args)
	}
	w.add("call args", list, k)
	if out, ok := c["output"]; ok {
		w.add("call output", list, kind(out))
	}
	if typ, ok := c["type"]; ok {
		w.add("call type", list, canonical(typ))
	}
}

func (w *walker) message(m map[string]any) {
	role, _ := m["role"].(string)
	w.add("message fields", role, strings.Join(sortedKeys(m), ","))
	tc, ok := m["tool_calls"]
	k := "absent"
	if ok {
		k = kind(tc)
	}
	w.add("message tool_calls", role, k)
}

func (w *walker) arguments(s string) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		w.add("arguments", "invalid", stringClass(s))
		return
	}
	w.add("arguments", "valid", kind(v))
	if strings.Contains(s, `\u`) {
		w.add("arguments", "escapes")
	}
	w.value(v, 0)
}

// value collects the kinds of an argument value and of what it holds.
func (w *walker) value(v any, depth int) {
	if w.values == nil {
		w.values = map[string]bool{}
	}
	if depth >= 3 {
		w.values["nested 3 deep"] = true
	}
	switch x := v.(type) {
	case nil:
		w.values["null"] = true
	case bool:
		w.values["bool"] = true
	case string:
		switch {
		case utf8.RuneCountInString(x) >= 200:
			w.values["long string"] = true
		case x == "":
			w.values["empty string"] = true
		case strings.TrimFunc(x, unicode.IsSpace) != x:
			w.values["padded string"] = true
		}
		for _, r := range x {
			if r >= utf8.RuneSelf {
				w.values["non-ASCII string"] = true
				break
			}
		}
	case json.Number:
		s := string(x)
		f, _ := x.Float64()
		switch {
		case s == "-0" || s == "-0.0":
			w.values["negative zero"] = true
		case f < 0:
			w.values["negative number"] = true
		}
		if strings.ContainsAny(s, "eE") {
			w.values["exponent"] = true
		}
		if strings.ContainsAny(s, ".eE") && f == math.Trunc(f) {
			w.values["integral float"] = true
		}
		if !strings.ContainsAny(s, ".eE") && math.Abs(f) > 1<<53 {
			w.values["big integer"] = true
		}
	case []any:
		if len(x) == 0 {
			w.values["empty array"] = true
		}
		for _, e := range x {
			if _, ok := e.(map[string]any); ok {
				w.values["array of objects"] = true
			}
			w.value(e, depth+1)
		}
	case map[string]any:
		if len(x) == 0 {
			w.values["empty object"] = true
		}
		for _, k := range sortedKeys(x) {
			w.value(x[k], depth+1)
		}
	}
}
