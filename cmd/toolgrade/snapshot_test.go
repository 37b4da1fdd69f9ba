package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// copyDir copies the files of a folder into a new temporary one.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestSnapshotExample runs the commands of examples/snapshot/README.md,
// in a copy of the folder, through Main.Run: each must end with the exit
// status its comment gives, the first must write the committed cases
// file, and the last must print the diff the README quotes and leave the
// other cases as they were.
func TestSnapshotExample(t *testing.T) {
	readme, err := os.ReadFile("../../examples/snapshot/README.md")
	if err != nil {
		t.Fatal(err)
	}
	var commands, quoted []string
	block := ""
	sc := bufio.NewScanner(strings.NewReader(string(readme)))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```") && block == "":
			block = strings.TrimPrefix(line, "```") + "."
		case strings.HasPrefix(line, "```"):
			block = ""
		case block == "sh.":
			commands = append(commands, line)
		case block == ".":
			quoted = append(quoted, line)
		}
	}
	if len(commands) != 4 || len(quoted) == 0 {
		t.Fatalf("README: %d commands, %d quoted lines", len(commands), len(quoted))
	}
	accepted, err := os.ReadFile("../../examples/snapshot/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(copyDir(t, "../../examples/snapshot"))
	status := regexp.MustCompile(`#\s*exit (\d)`)
	var stderr string
	for i, c := range commands {
		cmd, comment, _ := strings.Cut(c, "#")
		args := strings.Fields(cmd)
		if args[0] != "toolgrade" {
			t.Fatalf("README command %q", c)
		}
		want, _ := strconv.Atoi(status.FindStringSubmatch("#" + comment)[1])
		var code int
		var stdout string
		code, stdout, stderr = run(t, "", args[1:]...)
		if code != want {
			t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", cmd, code, want, stdout, stderr)
		}
		switch i {
		case 0:
			got, _ := os.ReadFile("cases.jsonl")
			if string(got) != string(accepted) {
				t.Errorf("%s wrote another cases.jsonl than the committed one:\n%s", cmd, got)
			}
		case 2:
			if !strings.Contains(stdout, "order_id not the value of find_order.output.order.id") {
				t.Errorf("%s: the invented id is not what failed:\n%s", cmd, stdout)
			}
		}
	}
	for _, q := range quoted {
		if !strings.Contains(stderr, q) {
			t.Errorf("the last command did not print %q:\n%s", q, stderr)
		}
	}
	got, _ := os.ReadFile("cases.jsonl")
	oldLines, newLines := strings.Split(string(accepted), "\n"), strings.Split(string(got), "\n")
	if len(oldLines) != len(newLines) || oldLines[0] == newLines[0] || oldLines[1] != newLines[1] || oldLines[2] != newLines[2] {
		t.Errorf("--update changed other lines than cancel-order's:\n%s", got)
	}
}

// The cycle from a fresh clone: accept a folder of traces, check it,
// break one, update, and check again.
func TestSnapshotCheckUpdate(t *testing.T) {
	dir := copyDir(t, "../../examples/snapshot")
	t.Chdir(dir)
	if err := os.Remove("cases.jsonl"); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "", "snapshot", "--check", "cases.jsonl", "traces"); code != 2 || !strings.Contains(stderr, "cases.jsonl does not exist") {
		t.Fatalf("check without a cases file: exit %d: %s", code, stderr)
	}
	code, _, stderr := run(t, "", "snapshot", "--check", "cases.jsonl", "--update", "traces")
	if code != 0 || !strings.Contains(stderr, "updated cases.jsonl: 0 cases replaced, 3 added") || !strings.Contains(stderr, "new case, 2 expected calls: find_order, cancel_order") {
		t.Fatalf("first update: exit %d: %s", code, stderr)
	}
	if err := os.Chmod("cases.jsonl", 0o600); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile("cases.jsonl")
	before, _ := os.Stat("cases.jsonl")

	code, stdout, stderr := run(t, "", "snapshot", "--check", "cases.jsonl", "--update", "next")
	after, _ := os.Stat("cases.jsonl")
	if code != 0 || strings.Count(stdout, `{"id":`) != 3 || strings.Contains(stdout, `"success":false`) || !strings.Contains(stderr, "every case passed; nothing to update") {
		t.Errorf("update with nothing to update: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !os.SameFile(before, after) {
		t.Errorf("update with nothing to update rewrote the file: %v, %v", before, after)
	}

	if code, _, _ := run(t, "", "snapshot", "--check", "cases.jsonl", "invented"); code != 1 {
		t.Errorf("check of an invented id: exit %d, want 1", code)
	}
	code, _, stderr = run(t, "", "snapshot", "--check", "cases.jsonl", "--update", "--order", "in-order", "invented")
	if code != 0 || !strings.Contains(stderr, "1 case replaced, 0 added") || !strings.Contains(stderr, "2 cases of cases.jsonl had no trace, not checked: refund-duplicate, weather") {
		t.Errorf("update: exit %d: %s", code, stderr)
	}
	updated, _ := os.ReadFile("cases.jsonl")
	fi, _ := os.Stat("cases.jsonl")
	oldLines, newLines := strings.Split(string(first), "\n"), strings.Split(string(updated), "\n")
	if fi.Mode().Perm() != 0o600 || oldLines[0] == newLines[0] || oldLines[1] != newLines[1] || oldLines[2] != newLines[2] {
		t.Errorf("update (mode %v) rewrote:\n%s", fi.Mode(), updated)
	}
	if code, _, stderr := run(t, "", "snapshot", "--check", "cases.jsonl", "invented"); code != 0 {
		t.Errorf("check after the update: exit %d: %s", code, stderr)
	}
	if leftovers, _ := filepath.Glob(".cases.jsonl.*"); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// Every mistake ends in a message that says what to do, and exit 2, and
// writes nothing.
func TestSnapshotMistakes(t *testing.T) {
	dir := copyDir(t, "../../examples/snapshot")
	t.Chdir(dir)
	trace := filepath.Join("traces", "cancel-order.json")
	os.WriteFile("empty.json", nil, 0o644)
	os.WriteFile("picture.png", []byte("\x89PNG\r\n\x1a\n\x00\x00"), 0o644)
	os.WriteFile("results.jsonl", []byte(`{"id":"c","success":true,"metrics":[]}`+"\n"), 0o644)
	os.WriteFile("notcases.jsonl", []byte("{\n  \"id\": \"cancel-order\"\n}\n"), 0o644)
	os.WriteFile("short.json", []byte(`{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": [{"id": "c0", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}],`+
		` "debug": {"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}}]}}`), 0o644)
	os.MkdirAll("other", 0o755)
	os.Symlink(trace, "link.json")
	os.WriteFile("over.yaml", []byte("reports:\n  junit: cases.jsonl\n"), 0o644)
	os.WriteFile(filepath.Join("other", "cancel-order.json"), []byte(`[{"role":"user","content":"hi"}]`), 0o644)
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no traces", []string{"snapshot"}, "snapshot: give trace files or folders"},
		{"an empty trace", []string{"snapshot", "empty.json"}, "empty.json: an empty file: no trace to snapshot"},
		{"a file of the wrong kind", []string{"snapshot", "picture.png"}, "picture.png: unrecognized trace"},
		{"a results file", []string{"snapshot", "results.jsonl"}, `results.jsonl: unrecognized trace: a toolgrade results file (a result: id, success, metrics), which holds grades, not the calls of a run`},
		{"the cases file as a trace", []string{"snapshot", "cases.jsonl"}, "a case without recorded calls, not a run"},
		{"a trace read short", []string{"snapshot", "short.json"}, "short.json: openai_chat: 1 call-shaped object not read: debug.choices[0].message.tool_calls[0]"},
		{"a trace read short, checked", []string{"snapshot", "--check", "cases.jsonl", "short.json"}, "a trace that may be read short is neither snapshot nor checked"},
		{"two traces with one id", []string{"snapshot", "traces", "other"}, `two runs have the id "cancel-order", traces/cancel-order.json and other/cancel-order.json`},
		{"an unknown format", []string{"snapshot", "--format", "chatml", "traces"}, `unknown --format "chatml"`},
		{"a misspelled flag", []string{"snapshot", "--chek", "cases.jsonl", "traces"}, "unknown flag --chek; did you mean --check?"},
		{"--update without --check", []string{"snapshot", "--update", "traces"}, "--update rewrites an accepted cases file: give it with --check CASES"},
		{"grading flags without --check", []string{"snapshot", "--threshold", "0.5", "--config", "x.yaml", "traces"}, "--config, --threshold grade a check"},
		{"output over an input", []string{"snapshot", "--out", trace, "traces"}, "--out " + trace + " is inside the trace path traces, a folder whose files are all read"},
		{"output in a folder below an input", []string{"snapshot", "--out", filepath.Join("traces", "..", "traces", "new.jsonl"), "."}, "is inside the trace path ., a folder"},
		{"output over a trace", []string{"snapshot", "--out", trace, trace}, "--out " + trace + " is the trace path " + trace + ": writing it would destroy it"},
		{"output over a trace through a link", []string{"snapshot", "--out", "link.json", trace}, "--out link.json is the trace path " + trace},
		{"results over the cases", []string{"snapshot", "--check", "cases.jsonl", "--out", "cases.jsonl", "next"}, "--out cases.jsonl is --check cases.jsonl: writing it would destroy it"},
		{"results over the cases updated", []string{"snapshot", "--check", "cases.jsonl", "--update", "--html", "./cases.jsonl", "next"}, "--html ./cases.jsonl and --check cases.jsonl are the same file"},
		{"a report of the config over the cases", []string{"snapshot", "--check", "cases.jsonl", "--config", "over.yaml", "next"}, "the config's reports.junit cases.jsonl is --check cases.jsonl"},
		{"results over a trace", []string{"snapshot", "--check", "cases.jsonl", "--out", trace, "traces"}, "--out " + trace + " is inside the trace path traces"},
		{"the cases among the traces", []string{"snapshot", "--check", "cases.jsonl", "cases.jsonl"}, "cases.jsonl:1: a case without recorded calls, not a run"},
		{"the cases from standard input", []string{"snapshot", "--check", "-", "next"}, "--check takes the cases file by name"},
		{"a cases file that is not one", []string{"snapshot", "--check", "notcases.jsonl", "traces"}, "notcases.jsonl:1: not a cases file"},
		{"a trace for the cases file", []string{"snapshot", "--check", trace, "next"}, "traces/cancel-order.json:1: not a cases file"},
		{"a cases file that is not there", []string{"snapshot", "--check", "nope.jsonl", "next"}, "nope.jsonl does not exist: accept a first snapshot with toolgrade snapshot --out nope.jsonl"},
		{"a trace that is not there", []string{"snapshot", "nope.json"}, "nope.json: no such file"},
		{"output to a folder", []string{"snapshot", "--out", "next", "traces"}, "--out: open next: is a directory"},
		{"output to a folder that is not there", []string{"snapshot", "--out", filepath.Join("nope", "cases.jsonl"), "traces"}, "--out: open nope/cases.jsonl: no such file or directory"},
		{"the cases updated in a folder that is not there", []string{"snapshot", "--check", filepath.Join("nope", "cases.jsonl"), "--update", "traces"}, "--check: open nope/cases.jsonl: no such file or directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile("cases.jsonl")
			code, stdout, stderr := run(t, "", tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, tt.want)
			}
			if stdout != "" {
				t.Errorf("wrote %q", stdout)
			}
			if after, _ := os.ReadFile("cases.jsonl"); string(after) != string(before) {
				t.Error("cases.jsonl changed")
			}
		})
	}
	// The right answers: a trace with no calls, standard input.
	code, stdout, stderr := run(t, "", "snapshot", filepath.Join("other", "cancel-order.json"))
	if code != 0 || !strings.Contains(stdout, `"expected_tools":[]`) || !strings.Contains(stderr, "the run made no calls: the case expects none") {
		t.Errorf("a trace with no calls: exit %d\n%s\n%s", code, stdout, stderr)
	}
	data, _ := os.ReadFile(trace)
	code, stdout, _ = run(t, string(data), "snapshot", "-")
	if code != 0 || !strings.HasPrefix(stdout, `{"id":"stdin","input":"Please cancel`) {
		t.Errorf("standard input: exit %d\n%s", code, stdout)
	}
}

// TestSnapshotScrubsSecrets: the files snapshot writes go through the
// run's scrubber, as eval's do: a trace that quotes the judge's key adds
// a case to the updated cases file without it.
func TestSnapshotScrubsSecrets(t *testing.T) {
	dir := copyDir(t, "../../examples/snapshot")
	t.Chdir(dir)
	data, err := os.ReadFile(filepath.Join("traces", "cancel-order.json"))
	if err != nil {
		t.Fatal(err)
	}
	leaky := strings.Replace(string(data), "My email is ana@example.com.", "My key is "+judgeKey+".", 1)
	if leaky == string(data) {
		t.Fatal("the trace no longer has the user's message this test changes")
	}
	os.MkdirAll("leaky", 0o755)
	if err := os.WriteFile(filepath.Join("leaky", "leaky.json"), []byte(leaky), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := judgeServer(t)
	args := append(judgeArgs(srv, t.TempDir(), "--metric", "tool_selection", "--out", "results.jsonl", "--html", "report.html", "leaky"),
		"--check", "cases.jsonl", "--update")
	args[0] = "snapshot"
	code, stdout, stderr := runWithEnv(t, judgeEnv, "", args...)
	if code != 0 || !strings.Contains(stderr, "0 cases replaced, 1 added") {
		t.Fatalf("snapshot --check --update: exit %d\n%s\n%s", code, stdout, stderr)
	}
	cases := read(t, "cases.jsonl")
	if !strings.Contains(cases, `"input":"Please cancel my latest order. My key is [redacted]."`) {
		t.Errorf("the added case does not hold the redacted input:\n%s", cases)
	}
	noEcho(t, judgeKey, "output", stdout+stderr)
	for _, f := range []string{"cases.jsonl", "results.jsonl", "report.html"} {
		noEcho(t, judgeKey, f, read(t, f))
	}
}
