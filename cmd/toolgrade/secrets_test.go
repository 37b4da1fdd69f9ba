package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/mcp/mcptest"
	"github.com/toolgrade/toolgrade/openai/openaitest"
	"github.com/toolgrade/toolgrade/secret"
)

// TestConfigCommandNeedsAllowExecute: a command a config file names is
// not run without --allow-execute, whatever the metrics, the command and
// the spelling; one the user gives on the command line is.
func TestConfigCommandNeedsAllowExecute(t *testing.T) {
	t.Parallel()
	cases := writeFile(t, "cases.jsonl", passing)
	model := openaitest.NewServer(t)
	for _, tc := range []struct {
		name, config string // %s: the command line
		args         []string
	}{
		{"yaml, default metric", "tools: \"mcp:%s\"\n", []string{"eval"}},
		{"yaml, schema metric", "tools: \"mcp:%s\"\nmetrics:\n  - metric: schema\n", []string{"eval"}},
		{"json", `{"tools": "mcp:%s"}`, []string{"eval"}},
		{"blank after the prefix", "tools: \"mcp:   %s\"\n", []string{"eval"}},
		{"with datasets", "tools: \"mcp:%s\"\ndatasets: [" + cases + "]\n", []string{"eval"}},
		{"run", "tools: \"mcp:%s\"\n", []string{"run", "--model", "m", "--base-url", model.BaseURL(), "--no-cache"}},
	} {
		for _, command := range []string{"sh -c 'touch %s'", "touch %s", `/usr/bin/env "touch" %s`} {
			t.Run(tc.name+"/"+strings.Fields(command)[0], func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				marker := filepath.Join(dir, "ran")
				line := fmt.Sprintf(command, marker)
				config := filepath.Join(dir, "toolgrade.yaml")
				if err := os.WriteFile(config, []byte(fmt.Sprintf(tc.config, strings.ReplaceAll(line, `"`, `\"`))), 0o644); err != nil {
					t.Fatal(err)
				}
				args := append(append([]string(nil), tc.args...), "--config", config, "--record", filepath.Join(dir, "r.run.jsonl"))
				if tc.args[0] == "eval" {
					args = args[:len(args)-2]
				}
				if !strings.Contains(tc.config, "datasets") {
					args = append(args, cases)
				}
				code, _, stderr := run(t, "", args...)
				if code != 2 || !strings.Contains(stderr, config+": tools: ") || !strings.Contains(stderr, "--allow-execute") {
					t.Errorf("exit %d, want 2 and a message naming the file, the field and the flag:\n%s", code, stderr)
				}
				if _, err := os.Stat(marker); err == nil {
					t.Fatal("the command ran")
				}
				// Allowed, it runs (and, being no MCP server, fails to start).
				code, _, stderr = run(t, "", append(args[:len(args):len(args)], "--allow-execute", "--mcp-timeout", "10s")...)
				if _, err := os.Stat(marker); err != nil {
					t.Errorf("with --allow-execute the command did not run: exit %d\n%s", code, stderr)
				}
			})
		}
	}
	// The user's own command lines run without the flag.
	for _, args := range [][]string{
		{"eval", "--tools", "mcp:touch %s", cases},
		{"eval", "--mcp", "touch %s", cases},
		{"tools", "--mcp", "touch %s"},
		{"tools", "mcp:touch %s"},
	} {
		t.Run("user "+strings.Join(args[:2], " "), func(t *testing.T) {
			t.Parallel()
			marker := filepath.Join(t.TempDir(), "ran")
			args = append([]string(nil), args...)
			for i := range args {
				if strings.Contains(args[i], "%s") {
					args[i] = fmt.Sprintf(args[i], marker)
				}
			}
			code, _, stderr := run(t, "", append(args, "--mcp-timeout", "10s")...)
			if _, err := os.Stat(marker); err != nil || strings.Contains(stderr, "--allow-execute") {
				t.Errorf("exit %d, ran: %v\n%s", code, err == nil, stderr)
			}
		})
	}
}

// A config may name an MCP server by URL without --allow-execute: nothing
// is executed, and the URL's token is a secret.
func TestConfigURLNeedsNoFlag(t *testing.T) {
	t.Parallel()
	const token = "tok-CONFIG-0a1b2c3d4e"
	config := writeFile(t, "toolgrade.yaml", "tools: \"mcp:"+mcptest.Echo(t)+"?token="+token+"\"\nmetrics:\n  - metric: schema\n")
	cases := writeFile(t, "cases.jsonl", `{"id":"c","tools_called":[{"name":"whoami","args":{}}]}`+"\n")
	code, stdout, stderr := run(t, "", "eval", "--config", config, cases)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	noEcho(t, token, "output", stdout+stderr)
}

// noEcho fails when text holds a run of MinEcho bytes of the secret.
func noEcho(t *testing.T, secretText, where, text string) {
	t.Helper()
	for i := 0; i+secret.MinEcho <= len(secretText); i++ {
		if piece := secretText[i : i+secret.MinEcho]; strings.Contains(text, piece) {
			at := strings.Index(text, piece)
			t.Errorf("%s holds %q of a secret: ...%s...", where, piece, text[max(0, at-80):min(len(text), at+80)])
			return
		}
	}
}

// noEchoInFiles checks every file under dirs.
func noEchoInFiles(t *testing.T, secretText string, dirs ...string) {
	t.Helper()
	n := 0
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
				noEcho(t, secretText, p, read(t, p))
			}
			return err
		})
	}
	if n == 0 {
		t.Error("no files to check")
	}
}

// TestMCPEchoes: an MCP server that hands its token back everywhere it
// can (tool descriptions, outputs, JSON-RPC and tool errors, JSON-escaped
// and URL-encoded) gets no part of it into anything toolgrade prints or
// writes, nor into what it sends the model; however the token was given.
func TestMCPEchoes(t *testing.T) {
	t.Parallel()
	const token = `tok-MCP_"echo"+/&<9f8e7d6c5b>`
	echo := mcptest.Echo(t)
	env := map[string]string{"MCP_TOKEN": token}
	cases := writeFile(t, "cases.jsonl", `{"id":"c","input":"who am I?","tools_called":[{"name":"whoami","args":{}},{"name":"deny","args":{}},{"name":"fail","args":{}}],"expected_tools":[{"name":"whoami"}]}`+"\n")
	for _, tc := range []struct {
		name string
		mcp  []string
	}{
		{"header variable", []string{"--mcp", echo, "--mcp-header", "Authorization: Bearer ${MCP_TOKEN}"}},
		{"literal header", []string{"--mcp", echo, "--mcp-header", "Authorization: Bearer " + token}},
		{"url token", []string{"--mcp", echo + "?token=" + url.QueryEscape(token)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var all strings.Builder
			for _, format := range []string{"list", "openai", "mcp", "gemini"} {
				code, stdout, stderr := runWithEnv(t, env, "", append([]string{"tools", "--format", format}, tc.mcp...)...)
				if code != 0 || !strings.Contains(stdout, "whoami") {
					t.Fatalf("tools: exit %d\n%s\n%s", code, stdout, stderr)
				}
				all.WriteString(stdout + stderr)
			}
			reports := []string{"--out", filepath.Join(dir, "r.jsonl"), "--html", filepath.Join(dir, "r.html"),
				"--junit", filepath.Join(dir, "r.xml"), "--markdown", filepath.Join(dir, "r.md")}
			code, stdout, stderr := runWithEnv(t, env, "", append(append([]string{"eval", "--metric", "execution_success", "--allow-execute", "--exit-zero", cases}, tc.mcp...), reports...)...)
			if code != 0 || !strings.Contains(read(t, filepath.Join(dir, "r.jsonl")), "[redacted]") {
				t.Fatalf("eval: exit %d\n%s\n%s\n%s", code, stdout, stderr, read(t, filepath.Join(dir, "r.jsonl")))
			}
			all.WriteString(stdout + stderr)

			// run --mcp: the model gets the tools' descriptions and
			// outputs, and sends none of the token back.
			model := openaitest.NewServer(t)
			model.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
				if msgs, _ := r.Body["messages"].([]any); len(msgs) > 1 {
					return chatBody(`{"role":"assistant","content":"done"}`)
				}
				return chatBody(callsMessage("whoami", `{}`, "deny", `{}`, "fail", `{}`))
			}
			record := filepath.Join(dir, "run.jsonl")
			code, stdout, stderr = runWithEnv(t, env, "", append([]string{"run", "--model", "m", "--base-url", model.BaseURL(), "--no-cache", "--allow-execute",
				"--exit-zero", "--record", record, "--out", filepath.Join(dir, "graded.jsonl"), cases}, tc.mcp...)...)
			if code != 0 || !strings.Contains(read(t, record), "[redacted]") {
				t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
			}
			all.WriteString(stdout + stderr)
			for _, c := range model.Chats() {
				noEcho(t, token, "a request to the model", string(c.Raw))
				noEcho(t, url.QueryEscape(token), "a request to the model", string(c.Raw))
			}
			for _, form := range []string{token, mustJSON(token), url.QueryEscape(token)} {
				noEcho(t, form, "output", all.String())
				noEchoInFiles(t, form, dir)
			}
		})
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// The judge's and the model's keys, echoed back by the servers in every
// form: no part of them in results, reports, the cache, the run file, the
// summary or errors.
func TestKeyEchoes(t *testing.T) {
	t.Parallel()
	const key = `sk-"odd"_key&<x>+/=9d8c7b6a`
	echoes := []string{key, `"` + key[:8] + `"`, key[:9] + "****" + key[len(key)-9:], mustJSON(mustJSON(key)), url.QueryEscape(key), url.PathEscape(key)}
	env := map[string]string{"TG_JUDGE_KEY": key, "TG_MODEL_KEY": key}
	reply := func(extra string) openaitest.Reply {
		reason, _ := json.Marshal("you sent " + strings.Join(echoes, " and ") + extra)
		return openaitest.Reply{Content: `{"score": 0.5, "reason": ` + string(reason) + `}`}
	}
	srv := openaitest.NewServer(t)
	srv.Key = key
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		if strings.Contains(r.User, "Email Bob") {
			msg, _ := json.Marshal("Incorrect API key provided: " + strings.Join(echoes, ", "))
			return openaitest.Reply{Status: 401, Body: `{"error":{"message":` + string(msg) + `,"code":"invalid_api_key"}}`}
		}
		return reply("")
	}
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	cases := writeFile(t, "cases.jsonl", judgedCases)
	args := judgeArgs(srv, cache, "--metric", "tool_selection", "--exit-zero",
		"--out", filepath.Join(dir, "r.jsonl"), "--html", filepath.Join(dir, "r.html"), "--junit", filepath.Join(dir, "r.xml"), "--markdown", filepath.Join(dir, "r.md"), cases)
	var all strings.Builder
	for range 2 { // asked, then from the cache
		code, stdout, stderr := runWithEnv(t, env, "", args...)
		if code != 0 || !strings.Contains(read(t, filepath.Join(dir, "r.jsonl")), "you sent [redacted]") {
			t.Fatalf("eval: exit %d\n%s\n%s", code, stdout, stderr)
		}
		all.WriteString(stdout + stderr)
	}
	// run: the model echoes the key in its answer and in a call's
	// arguments.
	model := openaitest.NewServer(t)
	model.Key = key
	model.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
		args, _ := json.Marshal(map[string]string{"key": key, "q": url.QueryEscape(key)})
		return chatBody(`{"role":"assistant","content":` + mustQuote("my key: "+key) + `,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":` + mustQuote(string(args)) + `}}]}`)
	}
	record := filepath.Join(dir, "run.jsonl")
	code, stdout, stderr := runWithEnv(t, env, "", "run", "--model", "m", "--base-url", model.BaseURL(), "--key-env", "TG_MODEL_KEY", "--cache-dir", cache,
		"--record", record, "--exit-zero", "--out", filepath.Join(dir, "graded.jsonl"), cases)
	if code != 0 || !strings.Contains(read(t, record), "my key: [redacted]") {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	all.WriteString(stdout + stderr)
	for _, form := range []string{key, mustJSON(key), mustJSON(mustJSON(key)), url.QueryEscape(key)} {
		noEcho(t, form, "output", all.String())
		noEchoInFiles(t, form, dir)
	}
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// An error that quotes a key is printed without it: here, what a server
// command wrote to stderr before it died.
func TestErrorScrubbed(t *testing.T) {
	t.Parallel()
	srv := judgeServer(t)
	code, _, stderr := runWithEnv(t, judgeEnv, "", judgeArgs(srv, t.TempDir(), "--mcp", "sh -c 'echo the key is "+judgeKey+" >&2; exit 3'", "--mcp-timeout", "10s", writeFile(t, "c.jsonl", passing))...)
	if code != 2 || !strings.Contains(stderr, "the key is [redacted]") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	noEcho(t, judgeKey, "stderr", stderr)
}

// A cache that cannot be written does not turn paid replies into errors,
// the judge's or run's model's: the results stand, and one warning says
// so, also under --quiet.
func TestReplyCacheUnwritable(t *testing.T) {
	t.Parallel()
	srv := judgeServer(t)
	cache := unwritableCache(t)
	code, stdout, stderr := runWithEnv(t, judgeEnv, "", judgeArgs(srv, cache, "--metric", "tool_selection", "-q", writeFile(t, "cases.jsonl", judgedCases))...)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (one case fails, one has no tools)\n%s", code, stderr)
	}
	got := parseResults(t, stdout)
	if got["right"].Score != 1 || got["right"].Error != "" || got["wrong"].Score != 0.25 {
		t.Errorf("results %+v", got)
	}
	if n := strings.Count(stderr, "warning: cannot write the reply cache in "+cache); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, stderr)
	}

	model := openaitest.NewServer(t)
	model.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
		return chatBody(callsMessage("get_weather", `{"city":"Paris"}`))
	}
	runCases := writeFile(t, "run.jsonl", `{"id":"a","input":"Weather in Paris?","expected_tools":[{"name":"get_weather","args":{"city":"Paris"}}]}`+"\n")
	record := filepath.Join(t.TempDir(), "s.jsonl")
	cache = unwritableCache(t)
	code, stderr = runWith(t, nil, "run", "--model", "m", "--key-env=", "--base-url", model.BaseURL(), "--cache-dir", cache, "--record", record, "-q", runCases)
	if code != 0 || strings.Count(stderr, "warning: cannot write the reply cache in "+cache) != 1 {
		t.Errorf("run: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestServeJudgeAccess: serve's flags say what a request's judge may use;
// without them, only OPENAI_API_KEY, to OpenAI's API.
func TestServeJudgeAccess(t *testing.T) {
	t.Parallel()
	srv := judgeServer(t)
	srv.Reply = func(*openaitest.ChatRequest) openaitest.Reply {
		return openaitest.Reply{Content: `{"score": 1, "reason": "key ` + judgeKey + ` seen"}`}
	}
	env := map[string]string{"TG_JUDGE_KEY": judgeKey, "AWS_SECRET_ACCESS_KEY": "aws-SECRET-0123456789"}
	request := func(judge string) string {
		return `{"op":"evaluate","config":{"profile":"deepeval","judge":{"model":"m","no_cache":true,` + judge + `}},"cases":[{"input":"hi","tools_called":[],"expected_tools":[],"available_tools":[{"name":"a"}]}]}` + "\n"
	}
	for _, tc := range []struct {
		name, judge string
		flags       []string
		want        string
	}{
		{"any variable", `"key_env":"AWS_SECRET_ACCESS_KEY"`, nil, `"field":"config.judge.key_env"`},
		{"any endpoint", `"base_url":"` + srv.BaseURL() + `"`, nil, `"field":"config.judge.base_url"`},
		{"allowed", `"key_env":"TG_JUDGE_KEY","base_url":"` + srv.BaseURL() + `"`, []string{"--judge-key-env", "TG_JUDGE_KEY", "--judge-base-url", srv.BaseURL()}, `key [redacted] seen`},
		{"allowed variable, other endpoint", `"key_env":"TG_JUDGE_KEY","base_url":"https://evil.example/v1"`, []string{"--judge-key-env", "TG_JUDGE_KEY", "--judge-base-url", srv.BaseURL()}, `"field":"config.judge.base_url"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runWithEnv(t, env, request(tc.judge), append([]string{"serve"}, tc.flags...)...)
			if code != 0 || !strings.Contains(stdout, tc.want) {
				t.Errorf("exit %d, want a response with %s:\n%s\n%s", code, tc.want, stdout, stderr)
			}
			noEcho(t, judgeKey, "response", stdout)
		})
	}
}

// TestSecretInReportPutInPlace: a report is scrubbed on its way to the
// temporary file that replaces the earlier one whole: a key a case file
// quotes is redacted in the HTML report put in place, which is complete,
// while the earlier report, still reachable through a hard link, is not
// written to, and no temporary file is left.
func TestSecretInReportPutInPlace(t *testing.T) {
	t.Parallel()
	srv := judgeServer(t)
	dir := t.TempDir()
	html, kept := filepath.Join(dir, "r.html"), filepath.Join(dir, "earlier.html")
	const earlier = "<html>the earlier report</html>\n"
	if err := os.WriteFile(html, []byte(earlier), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(html, kept); err != nil {
		t.Skip("no hard links here:", err)
	}
	cases := writeFile(t, "cases.jsonl", strings.Replace(judgedCases, `"id":"right"`, `"id":"leak-`+judgeKey+`"`, 1))
	code, stdout, stderr := runWithEnv(t, judgeEnv, "", judgeArgs(srv, filepath.Join(dir, "cache"), "--metric", "tool_selection", "--exit-zero", "-q", "--html", html, cases)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	got := read(t, html)
	if !strings.Contains(got, "leak-[redacted]") || !strings.HasSuffix(strings.TrimSpace(got), "</html>") {
		t.Errorf("the report put in place:\n%s", got)
	}
	if read(t, kept) != earlier {
		t.Errorf("the earlier report was written to, not replaced: %q", read(t, kept))
	}
	noEcho(t, judgeKey, "output", stdout+stderr)
	noEchoInFiles(t, judgeKey, dir)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if name := e.Name(); name != "r.html" && name != "earlier.html" && name != "cache" {
			t.Errorf("left in the directory: %s", name)
		}
	}
}

// TestOutputCommitFlushes: what the scrubber holds back (an end that may
// begin a secret) is in the file Commit puts in place.
func TestOutputCommitFlushes(t *testing.T) {
	t.Parallel()
	m := &Main{secrets: &secret.Set{}}
	m.secrets.Add(judgeKey)
	path := filepath.Join(t.TempDir(), "out.txt")
	o, err := m.output(path, false)
	if err != nil {
		t.Fatal(err)
	}
	text := "a key: " + judgeKey + ", and the start of one: " + judgeKey[:10]
	if _, err := o.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, path), "a key: [redacted], and the start of one: [redacted]"; got != want {
		t.Errorf("file %q, want %q", got, want)
	}
}
