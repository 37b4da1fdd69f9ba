package main

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/internal/shared"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// endless is an endless input: its head, then fill without end, as
// /dev/zero is (fill 0) or a line that never ends.
type endless struct {
	head string
	fill byte
}

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.head)
	e.head = e.head[n:]
	for i := n; i < len(p); i++ {
		p[i] = e.fill
	}
	return len(p), nil
}

// devZero is a file without end, for the inputs commands open by name.
func devZero(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero:", err)
	}
	return "/dev/zero"
}

// Every command's input that has no end (an endless line, /dev/zero) ends
// in the budget's message, naming the input, the line and the flag that
// raises the budget, or, read as text, in the message that it is not
// text, with exit status 2: it is not read into memory without bound. The tests return because the budget holds; each takes
// the budget's size of memory at most.
func TestEndlessInputs(t *testing.T) {
	zero := devZero(t)
	cases := writeFile(t, "cases.jsonl", passing)
	results := writeFile(t, "results.jsonl", `{"id":"p","success":true,"metrics":[]}`+"\n")
	for _, tt := range []struct {
		name  string
		stdin io.Reader
		args  []string
		want  string
	}{
		{"cases from stdin, the default budget", &endless{fill: 'x'}, []string{"eval", "-"},
			"-:1: the line is larger than 64 MiB, the most toolgrade reads at once (--max-line-size raises it)"},
		{"an endless JSON line", &endless{head: `{"id":"a","input":"`, fill: 'x'}, []string{"eval", "--max-line-size", "1MiB", "-"},
			"-:1: the line is larger than 1 MiB"},
		{"an endless JSON array", &endless{head: `[{"input":[`, fill: ' '}, []string{"eval", "--max-line-size", "1MiB", "-"},
			"-:1: the record starting here is larger than 1 MiB"},
		{"an endless YAML document", &endless{head: "input: |\n", fill: '\n'}, []string{"eval", "--max-line-size", "1MiB", "-"},
			"-:1: the record starting here is larger than 1 MiB"},
		{"cases file", nil, []string{"eval", "--max-line-size", "1MiB", zero},
			zero + ": binary data (it starts with a NUL byte), not UTF-8 text"},
		{"cases from stdin copied for a judge batch", &endless{fill: 'x'}, []string{"eval", "--judge-model", "m", "--judge-base-url", "http://127.0.0.1:9/v1", "--judge-batch", "--max-line-size", "1MiB", "-"},
			"-:1: the line is larger than 1 MiB"},
		{"--config", nil, []string{"eval", "--max-file-size", "1MiB", "--config", zero, cases},
			"config: " + zero + ": the file is larger than 1 MiB, the most toolgrade reads at once (--max-file-size raises it)"},
		{"--tools", nil, []string{"eval", "--max-file-size", "1MiB", "--tools", zero, cases},
			"tools: " + zero + ": the file is larger than 1 MiB"},
		{"tools FILE", nil, []string{"tools", "--max-file-size", "1MiB", zero},
			zero + ": the file is larger than 1 MiB"},
		{"extract FILE", nil, []string{"extract", zero},
			zero + ": the file is larger than 256 MiB, the most toolgrade reads at once (--max-file-size raises it)"},
		{"extract -", &endless{head: `{"messages":[`, fill: ' '}, []string{"extract", "--max-file-size", "1MiB", "-"},
			"-: the file is larger than 1 MiB"},
		{"compare BASE", nil, []string{"compare", "--max-line-size", "1MiB", zero, results},
			zero + ": binary data (it starts with a NUL byte), not UTF-8 text"},
		{"compare -", &endless{head: `{"id":"`, fill: 'x'}, []string{"compare", "--max-line-size", "1MiB", "-", results},
			"standard input:1: the line is larger than 1 MiB"},
		{"compare NEW -", &endless{fill: 'x'}, []string{"compare", "--max-line-size", "1MiB", results, "-"},
			"standard input:1: the line is larger than 1 MiB"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdin := tt.stdin
			if stdin == nil {
				stdin = strings.NewReader("")
			}
			code, _, stderr := runReading(t, stdin, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, tt.want)
			}
		})
	}
}

// A BFCL result file is read whole, within the budget of a file; /dev/zero
// is refused by its first bytes.
func TestEndlessBFCLResults(t *testing.T) {
	zero := devZero(t)
	data := shared.Path(t, "conformance", "bfcl")
	code, _, stderr := run(t, "", "bfcl", "--data", data, "--results", zero)
	if want := zero + ": binary data (it starts with a NUL byte), not UTF-8 text"; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
}

// serve answers a request line past the budget with an error, and serves
// the next.
func TestServeLineBudget(t *testing.T) {
	stdin := io.MultiReader(io.LimitReader(&endless{fill: 'x'}, 1<<20), strings.NewReader("\n"+`{"id":2,"op":"version"}`+"\n"))
	code, out, stderr := runReading(t, stdin, "serve", "--max-line-size", "1KiB")
	want := `{"error":"standard input:1: the line is larger than 1 KiB, the most toolgrade reads at once (--max-line-size raises it)"}` + "\n" +
		`{"id":2,"result":{"version":"` + versionString() + `"}}` + "\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, stdout %q (stderr %q); want\n%s", code, out, stderr, want)
	}
}

// Inputs past a budget in other ways: many small lines, a long string,
// an element of a JSON array, a YAML document; and sizes given wrong.
func TestBudgetsOtherInputs(t *testing.T) {
	manyLines := writeFile(t, "many.yaml", "metrics:\n"+strings.Repeat("  # a comment\n", 1000))
	longString := writeFile(t, "long.jsonl", passing+`{"id":"x","input":"`+strings.Repeat("x", 2000)+`"}`+"\n")
	arrayElement := writeFile(t, "cases.json", "[\n"+strings.TrimSpace(passing)+",\n"+`{"id":"x","input":[`+strings.Repeat("1,\n", 1000)+"1]}]")
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"a config of many short lines", []string{"eval", "--max-file-size", "1KiB", "--config", manyLines, longString}, 2,
			manyLines + ": the file is larger than 1 KiB"},
		{"a long string", []string{"eval", "--max-line-size", "1KiB", longString}, 2,
			longString + ":2: the line is larger than 1 KiB"},
		{"within a larger budget", []string{"eval", "--max-line-size", "1MB", longString}, 1, ""},
		{"an array element of many lines", []string{"eval", "--max-line-size", "1KiB", arrayElement}, 2,
			arrayElement + ":3: the record starting here is larger than 1 KiB"},
		{"a size without a unit it knows", []string{"eval", "--max-line-size", "64 lines", longString}, 2,
			`want a size such as 64MiB or 2GiB`},
		{"a size of zero", []string{"eval", "--max-file-size", "0", longString}, 2,
			`want a size such as 64MiB or 2GiB`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, "", tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tt.code, tt.want)
			}
		})
	}
}

// yamlBomb is a YAML alias bomb of nine levels, 10⁹ values from a few
// hundred bytes, under key (indented by indent).
func yamlBomb(indent string) string {
	var b strings.Builder
	b.WriteString(indent + "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		prev := "*l" + strconv.Itoa(i-1)
		b.WriteString(indent + "l" + strconv.Itoa(i) + ": &l" + strconv.Itoa(i) + " [" + strings.Repeat(prev+", ", 9) + prev + "]\n")
	}
	return b.String()
}

// A YAML alias bomb, as a config or as a case, is refused before it is
// expanded: the config with exit 2, the case as an error result, the
// cases after it graded.
func TestYAMLAliasBombs(t *testing.T) {
	config := writeFile(t, "bomb.yaml", "metrics:\n  - profile: default\n"+yamlBomb("    "))
	nested := writeFile(t, "nested.yaml", "judge: &j {model: m}\nmetrics:\n  - &a {profile: default}\n"+
		"x: &x ["+strings.Repeat("*a, ", 999)+"*a]\ny: &y ["+strings.Repeat("*x, ", 999)+"*x]\n")
	cases := writeFile(t, "cases.yaml", "- id: bomb\n  tools_called: []\n  expected_tools: []\n"+yamlBomb("  ")+
		"- id: next\n  tools_called: [{name: f}]\n  expected_tools: [{name: f}]\n")
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"a config", []string{"eval", "--config", config, cases}, 2, "config: " + config + ":7: the aliases of this YAML bring in more than 100000 values"},
		{"a config with nested anchors", []string{"eval", "--config", nested, cases}, 2, "config: " + nested + ":5: the aliases"},
		{"a case", []string{"eval", cases}, 1, `"id":"next","success":true`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := run(t, "", tt.args...)
			if code != tt.code || !strings.Contains(stderr+out, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, stderr, tt.code, tt.want)
			}
			if tt.code == 1 && !strings.Contains(out, "the aliases of this YAML bring in more than 100000 values") {
				t.Errorf("the bomb's result does not say why: %s", out)
			}
		})
	}
}

// An Inspect .eval log that is a zip bomb (members of megabytes of
// spaces, a thousand times smaller compressed) is refused as its first
// member passes the ratio budget.
func TestExtractZipBomb(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	members := []string{"header.json", "samples/1_epoch_1.json", "samples/2_epoch_1.json"}
	for _, name := range members {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(`{"eval": {}, "messages": [`))
		w.Write(bytes.Repeat([]byte(" "), 16<<20))
		w.Write([]byte(`]}`))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := writeFile(t, "bomb.eval", buf.String())
	code, _, stderr := run(t, "", "extract", path)
	if want := "header.json: decompresses to more than 100 times its"; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
}

// bigCase is a case line of n expected and k called calls of one tool,
// called call j matching expected call j.
func bigCase(id string, n, k int) string {
	var b strings.Builder
	b.WriteString(`{"id":"` + id + `","expected_tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"f","args":{"x":` + strconv.Itoa(i) + `}}`)
	}
	b.WriteString(`],"tools_called":[`)
	for j := range k {
		if j > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"f","args":{"x":` + strconv.Itoa(j) + `}}`)
	}
	b.WriteString("]}\n")
	return b.String()
}

// A case with more pairs of calls than a case may have is an error
// result, and the cases after it are graded; a case whose matrix would
// be too large for the best pairing is paired greedily, and its reason
// says so.
func TestCallBudgets(t *testing.T) {
	path := writeFile(t, "big.jsonl", bigCase("huge", 3500, 3500)+bigCase("large", 1100, 1000)+passing)
	for _, profile := range []string{"default", "axion", "deepeval", "agentevals", "adk", "deepfabric", "bfcl", "ragas"} {
		t.Run(profile, func(t *testing.T) {
			code, out, stderr := run(t, "", "eval", "--profile", profile, path)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if code != 1 || len(lines) != 3 {
				t.Fatalf("exit %d, %d result lines (stderr %q); want exit 1 and 3 lines", code, len(lines), stderr)
			}
			if want := `"error":"3500 expected calls against 3500 calls made are 12250000 pairs to compare, more than the 10000000 a case may have`; !strings.Contains(lines[0], want) {
				t.Errorf("first result %.300s, want %q", lines[0], want)
			}
			if profile == "default" && !strings.Contains(lines[1], `"reason":"paired greedily: 1100 expected × 1000 called calls are more than the 1048576 pairs scored at once for the best pairing; `) {
				t.Errorf("second result %.300s, want the greedy note", lines[1])
			}
			if !strings.HasPrefix(lines[2], `{"id":"p",`) {
				t.Errorf("last result %.200s, want the last case's", lines[2])
			}
		})
	}
}

// A tool schema nested 3,000 deep, or of 100,000 properties, is refused
// before it is compiled (it took over a minute a case), as an error
// result of its case.
func TestSchemaBudgetsThroughEval(t *testing.T) {
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 3000) + `{"type":"string"}` + strings.Repeat(`}}`, 3000)
	var wide strings.Builder
	wide.WriteString(`{"type":"object","properties":{`)
	for i := range 100000 {
		if i > 0 {
			wide.WriteByte(',')
		}
		wide.WriteString(`"p` + strconv.Itoa(i) + `":{"type":"string"}`)
	}
	wide.WriteString(`}}`)
	tool := func(params string) string {
		return `{"id":"c","available_tools":[{"type":"function","function":{"name":"f","parameters":` + params + `}}],"tools_called":[{"name":"f","args":{}}]}` + "\n"
	}
	for _, tt := range []struct{ name, params, want string }{
		{"deep", deep, `tool \"f\": parameters: the schema nests deeper than 128 levels, the most toolgrade compiles`},
		{"wide", wide.String(), `tool \"f\": parameters: the schema holds more than 50000 values, the most toolgrade compiles`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "cases.jsonl", tool(tt.params)+tool(tt.params))
			code, out, stderr := run(t, "", "eval", "--metric", "schema", path)
			if code != 1 || strings.Count(out, tt.want) != 2 {
				t.Errorf("exit %d, stdout %.400q (stderr %.200q); want exit 1 and two results with %q", code, out, stderr, tt.want)
			}
		})
	}
}

// A judge's reply past its budget (1 MiB) is a failed judgment, asked
// once; the judge section's max_reply_bytes raises the budget; a reason
// that fits the budget is cut to MaxTextBytes in the results.
func TestJudgeReplyBudget(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Key = judgeKey
	reason := strings.Repeat("x", 900<<10)
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		if strings.Contains(r.User, "Email Bob") {
			return openaitest.Reply{Content: `{"score": 1, "reason": "` + strings.Repeat("y", 2<<20) + `"}`}
		}
		return openaitest.Reply{Content: `{"score": 1, "reason": "` + reason + `"}`}
	}
	cases := writeFile(t, "cases.jsonl", judgedCases)
	raised := writeFile(t, "judge.yaml", "judge:\n  max_reply_bytes: 8388608\n")
	for _, tt := range []struct {
		name     string
		more     []string
		requests int    // to the judge, none from the cache
		wrong    string // the wrong case's error
	}{
		{"the default budget", nil, 2, "the reply is larger than 1 MiB, the most toolgrade reads at once (max_reply_bytes in the judge section raises it)"},
		{"a raised budget", []string{"--config", raised}, 2, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := srv.Hits("POST /v1/chat/completions")
			args := judgeArgs(srv, filepath.Join(t.TempDir(), "cache"), append(tt.more, "--metric", "tool_selection", "--quiet", cases)...)
			_, out, stderr := runWithEnv(t, judgeEnv, "", args...)
			got := parseResults(t, out)
			if r := got["wrong"]; !strings.Contains(r.Error, tt.wrong) || (tt.wrong == "") != (r.Error == "") {
				t.Errorf("wrong: error %.200q, want %q (stderr %.300s)", r.Error, tt.wrong, stderr)
			}
			if r := got["right"]; len(r.Reason) > toolgrade.MaxTextBytes+100 || !strings.HasSuffix(r.Reason, "… (856064 more bytes not shown)") {
				t.Errorf("right: a reason of %d bytes ending %q, want it cut", len(r.Reason), r.Reason[max(0, len(r.Reason)-40):])
			}
			if n := srv.Hits("POST /v1/chat/completions") - before; n != tt.requests {
				t.Errorf("%d requests, want %d: a reply past the budget is not asked again", n, tt.requests)
			}
		})
	}
}

// The most workers a flag or a config may ask (toolgrade.MaxWorkers;
// more is refused at start, see TestFlagMistakes), and a judge's concurrency
// of a hundred million, which eval takes as its workers and Evaluate
// counts as MaxWorkers, grade: the run answers.
func TestHugeWorkerCounts(t *testing.T) {
	most := strconv.Itoa(toolgrade.MaxWorkers)
	cases := writeFile(t, "cases.jsonl", passing+passing)
	config := writeFile(t, "toolgrade.yaml", "workers: "+most+"\nmetrics:\n  - profile: default\n")
	judged := writeFile(t, "judged.yaml", "judge:\n  concurrency: 100000000\nmetrics:\n  - metric: tool_selection\n")
	srv := judgeServer(t)
	model := openaitest.NewServer(t)
	model.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		return chatBody(callsMessage("f", `{"a":1}`))
	}
	for _, tt := range []struct {
		name string
		env  map[string]string
		args []string
		want string // in stdout
	}{
		{"--workers", nil, []string{"eval", "--workers", most, cases}, `"success":true`},
		{"workers in a config", nil, []string{"eval", "--config", config, cases}, `"success":true`},
		{"a judge's concurrency", judgeEnv, append(judgeArgs(srv, t.TempDir(), "--config", judged), writeFile(t, "j.jsonl", judgedCases)), `"id":"right","success":true`},
		{"run --concurrency", nil, []string{"run", "--model", "m", "--base-url", model.BaseURL(), "--no-cache", "--concurrency", most, "--record", filepath.Join(t.TempDir(), "r.run.jsonl"),
			writeFile(t, "r.jsonl", `{"id":"p","input":"x","expected_tools":[{"name":"f","args":{"a":1}}]}`+"\n")}, `"success":true`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, out, stderr := runWithEnv(t, tt.env, "", tt.args...)
			if !strings.Contains(out, tt.want) {
				t.Errorf("stdout %.300q (stderr %.300q), want %q", out, stderr, tt.want)
			}
		})
	}
	code, out, _ := run(t, `{"id":1,"op":"evaluate","cases":[`+strings.TrimSpace(passing)+`]}`+"\n", "serve", "--workers", most)
	if code != 0 || !strings.HasPrefix(out, `{"id":1,"results":[{"id":"p","success":true`) {
		t.Errorf("serve --workers %s: exit %d, %q", most, code, out)
	}
}

// Values nested past jsonvalue.MaxDepth, in JSON or in YAML, are an
// error result of their case, naming the budget; the cases after them
// are graded.
func TestNestingBudget(t *testing.T) {
	deepJSON := `{"id":"deep","tools_called":[{"name":"f","args":{"a":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}}],"expected_tools":[{"name":"f"}]}` + "\n"
	deepYAML := "- id: deep\n  tools_called: [{name: f, args: {a: " + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + "}}]\n  expected_tools: [{name: f}]\n"
	for _, tt := range []struct{ name, file, want string }{
		{"JSON", writeFile(t, "deep.jsonl", deepJSON+passing), "nesting deeper than 10000"},
		{"YAML", writeFile(t, "deep.yaml", deepYAML+"- id: p\n  tools_called: [{name: f}]\n  expected_tools: [{name: f}]\n"), "exceeded max depth of 10000"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := run(t, "", "eval", tt.file)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if code != 1 || len(lines) != 2 || !strings.Contains(lines[0], tt.want) || !strings.Contains(lines[1], `"success":true`) {
				t.Errorf("exit %d, results %.600s (stderr %.200s); want the deep case's error naming %q, then the next case graded", code, out, stderr, tt.want)
			}
		})
	}
}
