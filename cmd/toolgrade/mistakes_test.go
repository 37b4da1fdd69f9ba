package main

import (
	"bytes"
	"compress/gzip"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/text/encoding/unicode"
)

// TestMistakes: every mistake a new user makes gives a non-zero exit and
// a message that says what to do.
func TestMistakes(t *testing.T) {
	const (
		weather = `{"name":"get_weather","args":{"city":"Paris"}}`
		book    = `{"name":"book","args":{"id":1}}`
		email   = `{"name":"send_email","args":{"to":"a"}}`
	)
	result := func(id, score string, pass bool) string {
		p := "false"
		if pass {
			p = "true"
		}
		return `{"id":"` + id + `","success":` + p + `,"metrics":[{"name":"tool_correctness","profile":"default","score":` + score + `,"success":` + p + `,"threshold":0.5,"error":null}]}` + "\n"
	}
	typos := writeFile(t, "typos.jsonl", `{"id":"a","tool_called":[`+weather+`],"expected_tool":[`+weather+`]}`+"\n")
	chat := writeFile(t, "chat.json", `[{"role":"user","content":"Weather?"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"sun"},{"role":"assistant","content":"Sunny."}]`)
	body := writeFile(t, "body.json", `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}}]}`)
	empty := writeFile(t, "empty.jsonl", "")
	missedBooking := writeFile(t, "missed.jsonl", `{"id":"m","tools_called":[`+weather+`,`+email+`],"expected_tools":[`+weather+`,`+book+`]}`+"\n")
	oneWrongOfFive := writeFile(t, "five.jsonl", `{"id":"w","tools_called":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e","args":{"x":2}}],"expected_tools":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e","args":{"x":1}}]}`+"\n")
	wrongArgs := writeFile(t, "args.jsonl", `{"id":"w","input":"q","tools_called":[{"name":"get_weather","args":{"city":"Rome"}}],"expected_tools":[`+weather+`]}`+"\n")
	meta := writeFile(t, "meta.jsonl", `{"id":"a","tools_called":[],"expected_tools":[],"category":"x"}`+"\n"+`{"id":"b","tools_called":[],"expected_tools":[],"category":"y","source":"z"}`+"\n")
	base := writeFile(t, "base.jsonl", result("a", "1", true)+result("b", "1", true)+result("gone", "1", true))
	flipped := writeFile(t, "flipped.jsonl", result("a", "1", true)+result("b", "0.45", false)+result("gone", "1", true))
	missing := writeFile(t, "missing.jsonl", result("a", "1", true)+result("b", "1", true))
	out := filepath.Join(t.TempDir(), "results.jsonl")

	for _, tt := range []struct {
		name string
		args []string
		code int
		want []string // in stdout + stderr
	}{
		{"misspelled fields", []string{"eval", typos}, 1, []string{"typos.jsonl:1: unknown field `tool_called`; did you mean `tools_called`?", "0 passed"}},
		{"a chat trace for a case file", []string{"eval", chat}, 1, []string{"4 cases: 0 passed, 0 failed, 4 erred", "openai_chat", "agent_trajectory", "toolgrade extract"}},
		{"a response body for a case file", []string{"eval", body}, 1, []string{"a trace (openai_chat format), not a case", "toolgrade extract"}},
		{"an empty case file", []string{"eval", empty}, 2, []string{"no cases in", "--allow-empty"}},
		{"a report to standard output", []string{"eval", "--out", out, "--junit", "-", wrongArgs}, 2, []string{"--junit -: a report is written to a file", "name a file"}},
		{"an empty case file, allowed", []string{"eval", "--allow-empty", empty}, 0, []string{"0 cases"}},
		{"compare a case file", []string{"compare", base, meta}, 2, []string{"meta.jsonl:1: not a toolgrade results file", "is a case", "toolgrade eval --out"}},
		{"compare an empty file", []string{"compare", base, empty}, 2, []string{"not a toolgrade results file", "no result lines"}},
		{"compare with a case missing", []string{"compare", base, missing}, 1, []string{"only in BASE (1): regressions", "gone", "1 case missing from NEW"}},
		{"compare with a case missing, allowed", []string{"compare", "--allow-missing", base, missing}, 0, []string{"no regression"}},
		{"compare pass to fail within tolerance", []string{"compare", "--allow-missing", "--tolerance", "0.6", base, flipped}, 1, []string{"regressed (1)", "b  tool_correctness  1.000 → 0.450  (-0.550)  passed, now fails", "1 from pass to fail"}},
		{"default threshold fails a missed call", []string{"eval", missedBooking}, 1, []string{"< 1.000", "missing book"}},
		{"default threshold fails one wrong call of five", []string{"eval", oneWrongOfFive}, 1, []string{"0.800 < 1.000", `x expected 1, got 2`}},
		{"deepeval says what it did not compare", []string{"eval", "--profile", "deepeval", wrongArgs}, 0, []string{`"score":1`, "arguments not compared (evaluation_params lacks input_parameters)"}},
		{"deepeval options from the command line", []string{"eval", "--profile", "deepeval", "--option", "evaluation_params=input_parameters", wrongArgs}, 1, []string{`"score":0`}},
		{"an option another profile spells differently", []string{"eval", "--profile", "deepeval", "--option", "args=exact", wrongArgs}, 2, []string{`unknown option "args"`, "under deepeval, set evaluation_params"}},
		{"a misspelled option", []string{"eval", "--profile", "axion", "--option", "check_parameter=true", wrongArgs}, 2, []string{`did you mean "check_parameters"?`}},
		{"a misspelled flag", []string{"eval", "--treshold", "0.5", wrongArgs}, 2, []string{"unknown flag --treshold; did you mean --threshold?"}},
		{"a misspelled profile", []string{"eval", "--profile", "axon", wrongArgs}, 2, []string{`unknown profile "axon"; did you mean "axion"?`}},
		{"an option given as a flag", []string{"eval", "--evaluation-params", "output", wrongArgs}, 2, []string{"--option evaluation_params=VALUE"}},
		{"extract without a file", []string{"extract"}, 2, []string{"extract: give a trace file, or - for standard input"}},
		{"compare with one file", []string{"compare", base}, 2, []string{"compare: give two results files"}},
		{"unknown fields are listed once with their counts", []string{"eval", meta}, 0, []string{"ignored fields", "category (2 cases), source (1 case)"}},
		{"--strict-fields makes them errors", []string{"eval", "--strict-fields", meta}, 1, []string{"unknown field `category`", "--strict-fields"}},
		{"eval names the files it wrote", []string{"eval", "--out", out, "--html", out + ".html", meta}, 0, []string{"wrote " + out + ", " + out + ".html"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout+stderr, w) {
					t.Errorf("output lacks %q\nstdout: %s\nstderr: %s", w, stdout, stderr)
				}
			}
		})
	}
}

// utf16File encodes text as UTF-16 little-endian, after a byte-order mark
// unless bare.
func utf16File(text string, bare bool) string {
	bom := unicode.UseBOM
	if bare {
		bom = unicode.IgnoreBOM
	}
	out, err := unicode.UTF16(unicode.LittleEndian, bom).NewEncoder().String(text)
	if err != nil {
		panic(err)
	}
	return out
}

func gzipped(t *testing.T, text string) string {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(text))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestInputMistakes: a file of the wrong kind (a results file, a config,
// CSV, a directory, compressed or UTF-16 text) given to any command that
// reads files is refused at start, with exit 2, a message naming the
// file and what it is, and no output before it; and each mistake is tried
// in other words (another command, another encoding, standard input).
func TestInputMistakes(t *testing.T) {
	const caseLine = `{"id":"a","tools_called":[{"name":"f","args":{"x":1}}],"expected_tools":[{"name":"f","args":{"x":1}}]}` + "\n"
	const resultLine = `{"id":"a","success":true,"metrics":[{"name":"tool_correctness","profile":"default","score":1,"success":true,"threshold":1,"error":null}]}` + "\n"
	cases := writeFile(t, "cases.jsonl", caseLine)
	results := writeFile(t, "results.jsonl", resultLine)
	cfg := writeFile(t, "toolgrade.yaml", "metrics:\n  - profile: default\n    threshold: 0.5\n")
	jsonCfg := writeFile(t, "config.json", `{"metrics": [{"profile": "deepeval"}], "workers": 2}`)
	csv := writeFile(t, "cases.csv", "id,input,expected_tools\n1,hi,[]\n")
	csvNoExt := writeFile(t, "cases", "id,input\n1,hi\n")
	tsv := writeFile(t, "cases.tsv", "id\tinput\n1\thi\n")
	dir := t.TempDir()
	gz := writeFile(t, "cases.jsonl.gz", gzipped(t, caseLine))
	gzNamedPlain := writeFile(t, "gz.jsonl", gzipped(t, caseLine))
	utf16Cases := writeFile(t, "utf16.jsonl", utf16File(caseLine, false))
	bareUTF16 := writeFile(t, "bare16.jsonl", utf16File(caseLine, true))
	utf16Config := writeFile(t, "utf16.yaml", utf16File("metrics:\n  - threshold: 0.5\n", false))
	utf16Results := writeFile(t, "utf16-results.jsonl", utf16File(resultLine, false))
	utf16Tools := writeFile(t, "tools.json", utf16File(`[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]`, false))
	badUTF16 := writeFile(t, "bad16.jsonl", utf16File(caseLine, false)+"\x00\xdc")
	fortyTwo := writeFile(t, "42", "42\n")
	fortyTwoJSON := writeFile(t, "42.json", "42\n")
	parquet := writeFile(t, "cases.parquet", "PAR1\x15\x04\x15")
	emptyMetrics := writeFile(t, "empty-metrics.yaml", "metrics: []\n")
	emptyMetricsJSON := writeFile(t, "empty-metrics.json", `{"metrics": []}`)
	emptyObject := writeFile(t, "empty.json", "{}\n")
	badYAML := writeFile(t, "bad.yaml", "- id: a\n  tools_called: []\n  expected_tools: []\n- id: b\n  tools_called: [\n")
	badConfigYAML := writeFile(t, "bad-config.yaml", "metrics:\n  - profile: default\n    threshold: [\n")
	typeMismatch := writeFile(t, "types.jsonl", `{"id":"t","tools_called":[{"name":"web_search","type":"custom","args":{"q":"x"}}],"expected_tools":[{"name":"web_search","type":"function","args":{"q":"x"}}]}`+"\n")
	runFlags := []string{"run", "--model", "m", "--base-url", "http://127.0.0.1:1/v1", "--key-env="}

	// Mistakes found midway, after the lines before them were graded.
	midway := map[string]bool{"utf-16 with an unpaired surrogate": true}
	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  []string // in stdout + stderr
	}{
		// A results file given as cases: use compare.
		{"results for eval", "", []string{"eval", results}, 2, []string{results + ":1: a toolgrade results file, not cases", "toolgrade compare BASE NEW"}},
		{"results for eval on stdin", resultLine, []string{"eval", "-"}, 2, []string{"-:1: a toolgrade results file, not cases"}},
		{"results after a case file", "", []string{"eval", cases, results}, 2, []string{"a toolgrade results file, not cases"}},
		{"results for run", "", append(runFlags, results), 2, []string{"a toolgrade results file, not cases"}},
		{"results in UTF-16 for eval", "", []string{"eval", utf16Results}, 2, []string{"a toolgrade results file, not cases"}},
		{"results for a config", "", []string{"eval", "--config", results, cases}, 2, []string{results + ": a toolgrade results file, not a config"}},
		{"results for tools", "", []string{"tools", results}, 2, []string{"a toolgrade results file, not tool definitions"}},
		{"toolgrade results for bfcl", "", []string{"bfcl", "--data", dir, "--results", results}, 2, []string{"a toolgrade results file, not BFCL results"}},
		// A config given as cases: use --config.
		{"a config for eval", "", []string{"eval", cfg}, 2, []string{cfg + ": a toolgrade config, not cases (keys metrics): give it with --config " + cfg}},
		{"a JSON config for eval", "", []string{"eval", jsonCfg}, 2, []string{"a toolgrade config, not cases (keys metrics, workers)"}},
		{"a config on stdin", "judge:\n  model: m\n", []string{"eval", "-"}, 2, []string{"a toolgrade config, not cases (keys judge)"}},
		{"a config for compare", "", []string{"compare", jsonCfg, results}, 2, []string{jsonCfg + ":1: not a toolgrade results file: the line is a toolgrade config"}},
		{"a config for tools", "", []string{"eval", "--tools", jsonCfg, cases}, 2, []string{"a toolgrade config, not tool definitions"}},
		// Cases given as a config or as tools.
		{"cases for a config", "", []string{"eval", "--config", cases, cases}, 2, []string{cases + ": a case file, not a config", "give case files as arguments"}},
		{"cases for tools", "", []string{"tools", cases}, 2, []string{cases + ": a case file, not tool definitions"}},
		// CSV.
		{"csv", "", []string{"eval", csv}, 2, []string{csv + `: a CSV file (its first line is "id,input,expected_tools"), not cases`, "JSON Lines, JSON or YAML"}},
		{"csv without its extension", "", []string{"eval", csvNoExt}, 2, []string{"a CSV file"}},
		{"csv on stdin", "id,input\n1,hi\n", []string{"eval", "-"}, 2, []string{"-: a CSV file"}},
		{"tsv", "", []string{"eval", tsv}, 2, []string{"a tab-separated file"}},
		{"csv for run", "", append(runFlags, csv), 2, []string{"a CSV file"}},
		{"csv for a config", "", []string{"eval", "--config", csv, cases}, 2, []string{csv + ": a CSV file, not a config"}},
		{"semicolons", "id;input\n1;hi\n", []string{"eval", "-"}, 2, []string{"-: a CSV file"}},
		// A directory.
		{"a directory", "", []string{"eval", dir}, 2, []string{dir + " is a directory: give a file in it"}},
		{"a directory after a file", "", []string{"eval", cases, dir}, 2, []string{dir + " is a directory"}},
		{"a directory for a config", "", []string{"eval", "--config", dir, cases}, 2, []string{dir + " is a directory"}},
		{"a directory for tools", "", []string{"tools", dir}, 2, []string{dir + " is a directory"}},
		{"a directory for extract", "", []string{"extract", dir}, 2, []string{dir + " is a directory"}},
		{"a directory for compare", "", []string{"compare", dir, results}, 2, []string{dir + " is a directory"}},
		// Compressed and binary files.
		{"gzip", "", []string{"eval", gz}, 2, []string{gz + ": gzip-compressed data, not UTF-8 text: decompress it first"}},
		{"gzip named as text", "", []string{"eval", gzNamedPlain}, 2, []string{"gzip-compressed data"}},
		{"gzip on stdin", gzipped(t, caseLine), []string{"eval", "-"}, 2, []string{"-: gzip-compressed data"}},
		{"gzip for a config", "", []string{"eval", "--config", gz, cases}, 2, []string{"gzip-compressed data"}},
		{"gzip for extract", "", []string{"extract", gz}, 2, []string{"gzip-compressed data"}},
		{"gzip for compare", "", []string{"compare", gz, results}, 2, []string{"gzip-compressed data"}},
		{"gzip for tools", "", []string{"tools", gz}, 2, []string{"gzip-compressed data"}},
		{"gzip for bfcl", "", []string{"bfcl", "--data", dir, "--results", gz}, 2, []string{"gzip-compressed data"}},
		{"gzip for serve", gzipped(t, `{"op":"version"}`+"\n"), []string{"serve"}, 2, []string{"serve: standard input: gzip-compressed data"}},
		{"parquet", "", []string{"eval", parquet}, 2, []string{"a Parquet file, not UTF-8 text: convert it to JSON Lines first"}},
		{"/dev/zero's NUL bytes", "\x00\x00\x00\x00\x00\x00", []string{"eval", "-"}, 2, []string{"binary data (it starts with a NUL byte)"}},
		// UTF-16: read with a byte-order mark, refused without one.
		{"utf-16 cases", "", []string{"eval", utf16Cases}, 0, []string{"1 case: 1 passed"}},
		{"utf-16 cases on stdin", utf16File(caseLine, false), []string{"eval", "-"}, 0, []string{"1 case: 1 passed"}},
		{"utf-16 config", "", []string{"eval", "--config", utf16Config, cases}, 0, []string{`"threshold":0.5`}},
		{"utf-16 tools", "", []string{"tools", utf16Tools}, 0, []string{"f"}},
		{"utf-16 results", "", []string{"compare", utf16Results, results}, 0, []string{"no regression"}},
		{"utf-16 trace", "", []string{"extract", utf16Cases}, 0, []string{`"name": "f"`}},
		{"utf-16 without a byte-order mark", "", []string{"eval", bareUTF16}, 2, []string{bareUTF16 + ": UTF-16 (little-endian) text without a byte-order mark, not UTF-8 text: save it as UTF-8"}},
		{"utf-16 without a mark for a config", "", []string{"eval", "--config", bareUTF16, cases}, 2, []string{"UTF-16 (little-endian) text without a byte-order mark"}},
		{"utf-16 without a mark for compare", "", []string{"compare", bareUTF16, results}, 2, []string{"UTF-16 (little-endian) text without a byte-order mark"}},
		{"utf-16 with an unpaired surrogate", "", []string{"eval", badUTF16}, 2, []string{badUTF16 + ":2: invalid UTF-16: an unpaired surrogate (\\udc00)", "1 case: 1 passed"}},
		// 42 as a file.
		{"42 as a file", "", []string{"eval", fortyTwo}, 1, []string{fortyTwo + ":1: want a case object, got the number 42"}},
		{"42 as a JSON file", "", []string{"eval", fortyTwoJSON}, 2, []string{fortyTwoJSON + `:1: not a JSON case file: it starts with "42"`}},
		{"42 as a config", "", []string{"eval", "--config", fortyTwo, cases}, 2, []string{"want a mapping at the top, got the number 42"}},
		{"42 as tools", "", []string{"tools", fortyTwo}, 2, []string{"want a tool definition (an object), got integer"}},
		// Configs that would grade with the defaults.
		{"metrics: []", "", []string{"eval", "--config", emptyMetrics, cases}, 2, []string{emptyMetrics + ": field metrics: an empty list grades nothing"}},
		{"metrics: [] in JSON", "", []string{"eval", "--config", emptyMetricsJSON, cases}, 2, []string{"field metrics: an empty list grades nothing"}},
		{"metrics: [] for run", "", append(runFlags, "--config", emptyMetrics, cases), 2, []string{"field metrics: an empty list grades nothing"}},
		{"an empty object for a config", "", []string{"eval", "--config", emptyObject, cases}, 2, []string{"the config is empty ({})"}},
		{"metrics: [] in a serve request", `{"op":"evaluate","config":{"metrics":[]},"cases":[]}` + "\n", []string{"serve"}, 0, []string{`"error":"config.metrics: want at least one metric entry"`}},
		// One line number, the right one.
		{"a YAML case error names its line", "", []string{"eval", badYAML}, 1, []string{badYAML + ":5: invalid YAML: did not find expected node content"}},
		{"a YAML config error names its line", "", []string{"eval", "--config", badConfigYAML, cases}, 2, []string{badConfigYAML + ":3: invalid YAML: did not find expected node content"}},
		{"an invalid result line names its line", "", []string{"compare", csv, results}, 2, []string{csv + ":1: not a result line: invalid JSON: unexpected 'i', want a value (byte 1 of the line)"}},
		// A call of another type is not an argument difference.
		{"a call type mismatch", "", []string{"eval", typeMismatch}, 1, []string{"called #0 is of type custom, not function"}},
		{"a call type mismatch in order", "", []string{"eval", "--order", "in-order", typeMismatch}, 1, []string{"called #0 is of type custom, not function"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			all := stdout + stderr
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q\nstdout: %s\nstderr: %s", w, stdout, stderr)
				}
			}
			noInternals(t, all)
			if code == 2 && !midway[tt.name] && (stdout != "" || strings.Contains(stderr, "0 cases")) {
				t.Errorf("output before the refusal\nstdout: %s\nstderr: %s", stdout, stderr)
			}
		})
	}
}

// noInternals fails when a message shows Go's internals rather than the
// mistake: a panic, a stack, a parser's or a type's own words.
func noInternals(t *testing.T, out string) {
	t.Helper()
	for _, s := range []string{"panic", "goroutine", "strconv.", "Go struct", "Go value", "cannot unmarshal", "arguments differ", ": yaml: ", "at line 1, byte"} {
		if strings.Contains(out, s) {
			t.Errorf("output shows %q:\n%s", s, out)
		}
	}
}

// TestFlagMistakes: a number out of its range, or not a number, in a flag
// of any command, in a config or in a serve request, is refused at start
// with exit 2 and a message naming the flag or field and the value given,
// never a panic or a run that cannot end.
func TestFlagMistakes(t *testing.T) {
	cases := writeFile(t, "cases.jsonl", `{"id":"a","tools_called":[{"name":"f"}],"expected_tools":[{"name":"f"}]}`+"\n")
	results := writeFile(t, "results.jsonl", `{"id":"a","success":true,"metrics":[{"name":"tool_correctness","profile":"default","score":1,"success":true,"threshold":1,"error":null}]}`+"\n")
	config := func(text string) string { return writeFile(t, "toolgrade.yaml", text) }
	runFlags := []string{"run", "--model", "m", "--base-url", "http://127.0.0.1:1/v1", "--key-env="}
	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"--threshold NaN", "", []string{"eval", "--threshold", "NaN", cases}, 2, "eval: --threshold: want a finite number, got NaN"},
		{"--threshold nan", "", []string{"eval", "--threshold", "nan", cases}, 2, "--threshold: want a finite number, got NaN"},
		{"--threshold Inf", "", []string{"eval", "--threshold", "Inf", cases}, 2, "--threshold: want a finite number, got +Inf"},
		{"--threshold -infinity", "", []string{"eval", "--threshold=-infinity", cases}, 2, "--threshold: want a finite number, got -Inf"},
		{"--threshold 2", "", []string{"eval", "--threshold", "2", cases}, 2, "threshold: want a share in [0, 1], got 2"},
		{"--threshold high", "", []string{"eval", "--threshold", "high", cases}, 2, `eval: --threshold: want a number, got "high"`},
		{"--fuzzy-threshold NaN", "", []string{"eval", "--args", "fuzzy", "--fuzzy-threshold", "NaN", cases}, 2, "--fuzzy-threshold: want a finite number, got NaN"},
		{"run --threshold Inf", "", append(runFlags, "--threshold", "Inf", cases), 2, "run: --threshold: want a finite number, got +Inf"},
		{"--option threshold=NaN", "", []string{"eval", "--option", "threshold=NaN", cases}, 2, `threshold: want a number, got the string "NaN"`},
		{"--option fuzzy_threshold=Infinity", "", []string{"eval", "--profile", "axion", "--option", "fuzzy_threshold=Infinity", cases}, 2, `fuzzy_threshold: want a number, got the string "Infinity"`},
		{"threshold: .nan in a config", "", []string{"eval", "--config", config("metrics:\n  - threshold: .nan\n"), cases}, 2, ".nan has no JSON form"},
		{"threshold: NaN as a string", "", []string{"eval", "--config", config("metrics:\n  - threshold: \"NaN\"\n"), cases}, 2, `threshold: want a number, got the string "NaN"`},
		{"threshold NaN in a serve request", `{"op":"evaluate","config":{"threshold":"NaN"},"cases":[]}` + "\n", []string{"serve"}, 0, `threshold: want a number, got the string \"NaN\"`},
		{"threshold 1e999 in a serve request", `{"op":"evaluate","config":{"threshold":1e999},"cases":[]}` + "\n", []string{"serve"}, 0, `threshold: want a number, got 1e999, out of range`},
		{"run --temperature NaN", "", append(runFlags, "--temperature", "NaN", cases), 2, "run: --temperature: want a finite number, got NaN"},
		{"run --temperature -1", "", append(runFlags, "--temperature", "-1", cases), 2, "run: --temperature: want a number, 0 or more, got -1"},
		{"--workers -1", "", []string{"eval", "--workers", "-1", cases}, 2, "eval: --workers: want a whole number from 0 to 1024 (0: one per CPU), got -1"},
		{"--workers 100000000", "", []string{"eval", "--workers", "100000000", cases}, 2, "--workers: want a whole number from 0 to 1024"},
		{"--workers 0 is one per CPU", "", []string{"eval", "--workers", "0", cases}, 0, "1 case: 1 passed"},
		{"--workers 1.5", "", []string{"eval", "--workers", "1.5", cases}, 2, `eval: --workers: want a whole number, got "1.5"`},
		{"run --workers -4", "", append(runFlags, "--workers", "-4", cases), 2, "run: --workers: want a whole number from 0 to 1024"},
		{"serve --workers 100000000", "", []string{"serve", "--workers", "100000000"}, 2, "serve: --workers: want a whole number from 0 to 1024"},
		{"workers: 100000000 in a config", "", []string{"eval", "--config", config("workers: 100000000\n"), cases}, 2, "field workers: want a whole number from 1 to 1024 (0 or none: one per CPU), got 100000000"},
		{"workers: -2 in a config", "", []string{"eval", "--config", config("workers: -2\n"), cases}, 2, "field workers: want a whole number from 1 to 1024"},
		{"run --timeout -1s", "", append(runFlags, "--timeout", "-1s", cases), 2, "run: --timeout: want a duration above zero, such as 30s or 2m, got -1s"},
		{"run --timeout 0s", "", append(runFlags, "--timeout", "0s", cases), 2, "--timeout: want a duration above zero"},
		{"run --timeout 30", "", append(runFlags, "--timeout", "30", cases), 2, `run: --timeout: want a duration such as 30s, 2m or 1h30m (a number needs its unit), got "30"`},
		{"--mcp-timeout 0s", "", []string{"tools", "--mcp", "http://127.0.0.1:1/mcp", "--mcp-timeout", "0s"}, 2, "tools: --mcp-timeout: want a duration above zero"},
		{"eval --mcp-timeout 0s", "", []string{"eval", "--mcp-timeout", "0s", cases}, 2, "eval: --mcp-timeout: want a duration above zero"},
		{"--mcp-call-timeout -5m", "", append(runFlags, "--mcp-call-timeout", "-5m", cases), 2, "run: --mcp-call-timeout: want a duration above zero"},
		{"--batch-poll-interval 0s", "", []string{"eval", "--batch-poll-interval", "0s", cases}, 2, "eval: --batch-poll-interval: want a duration above zero"},
		{"--concurrency 0", "", append(runFlags, "--concurrency", "0", cases), 2, "run: --concurrency: want a whole number from 1 to 1024, got 0"},
		{"--concurrency 100000000", "", append(runFlags, "--concurrency", "100000000", cases), 2, "run: --concurrency: want a whole number from 1 to 1024"},
		{"--max-retries -2", "", append(runFlags, "--max-retries", "-2", cases), 2, "run: --max-retries: want a whole number, -1 or more (-1 or 0: none), got -2"},
		{"--trials 0", "", append(runFlags, "--trials", "0", cases), 2, "run: --trials: want a whole number, 1 or more, got 0"},
		{"--max-steps 0", "", append(runFlags, "--max-steps", "0", cases), 2, "run: --max-steps: want a whole number, 1 or more, got 0"},
		{"--requests-per-minute -1", "", append(runFlags, "--requests-per-minute", "-1", cases), 2, "run: --requests-per-minute: want a number, 0 or more (0: no limit), got -1"},
		{"--requests-per-minute NaN", "", append(runFlags, "--requests-per-minute", "NaN", cases), 2, "run: --requests-per-minute: want a finite number, got NaN"},
		{"--judge-input-price -1", "", []string{"eval", "--judge-input-price", "-1", cases}, 2, "eval: --judge-input-price: want a number, 0 or more, got -1"},
		{"compare --tolerance NaN", "", []string{"compare", "--tolerance", "NaN", results, results}, 2, "compare: --tolerance: want a finite number, got NaN"},
		{"compare --tolerance -0.1", "", []string{"compare", "--tolerance", "-0.1", results, results}, 2, "compare: --tolerance: want a number, 0 or more (how far a score may fall, such as 0.02), got -0.1"},
		{"compare --seed -1", "", []string{"compare", "--seed", "-1", results, results}, 2, `compare: --seed: want a whole number, 0 or more, got "-1"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if !strings.Contains(stdout+stderr, tt.want) {
				t.Errorf("output lacks %q\nstdout: %s\nstderr: %s", tt.want, stdout, stderr)
			}
			noInternals(t, stdout+stderr)
		})
	}
}

// TestFlagBounds: every whole-number flag of every command has a range
// (flagBounds), so that none takes a value that cannot be meant.
func TestFlagBounds(t *testing.T) {
	root := &cobra.Command{Use: "toolgrade"}
	m := NewMain()
	root.AddCommand(m.evalCommand(), m.extractCommand(), m.compareCommand(), m.initCommand(), m.bfclCommand(),
		m.runCommand(), m.promptsCommand(), m.toolsCommand(), m.serveCommand(), m.versionCommand())
	for _, cmd := range root.Commands() {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			switch f.Value.Type() {
			case "int", "int64", "uint64", "int32", "uint", "count":
				if _, ok := flagBounds[f.Name]; !ok {
					t.Errorf("%s --%s: a whole-number flag without a range in flagBounds", cmd.Name(), f.Name)
				}
			}
		})
	}
}
