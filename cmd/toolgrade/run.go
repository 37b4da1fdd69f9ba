package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/toolgrade/toolgrade/compat/bfcl/leaderboard"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/internal/lazyregexp"
	"github.com/toolgrade/toolgrade/openai"
	"github.com/toolgrade/toolgrade/runner"
	"github.com/toolgrade/toolgrade/secret"
	"github.com/toolgrade/toolgrade/trace"
)

type runFlags struct {
	eval evalFlags // grading: config, out, reports, workers, quiet, exit-zero, tools, judge

	model, baseURL, keyEnv string
	azure                  bool
	apiVersion             string
	temperature            float64
	maxTokens              int
	seed                   int64
	toolChoice             string
	parallel               bool
	multiTurn              bool
	maxSteps               int
	parser                 string
	record                 string
	bfcl                   bool
	bfclOut                string
	trials                 int

	timeout     time.Duration
	concurrency int
	rpm         float64
	tpm         int
	maxRetries  int
}

func (m *Main) runCommand() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run --model NAME [--base-url URL] [flags] [DATASET...]",
		Short: "Put a model through a tool-calling dataset, record its calls and grade them",
		Long: `Send each case's input (text, content parts or chat messages) and available
tools to a model over the Chat Completions API (OpenAI, Azure OpenAI, vLLM,
Ollama, LM Studio, OpenRouter, ...), capture its tool calls, and record
everything, one line per case, to a run file (--record): the case as read,
the model's calls as tools_called, its final answer, the conversation, and a
"run" object with every request, raw response, latency, token usage and
processing error. Then grade the run file as toolgrade eval does (same
--config, metric, report and judge flags) and print the summary, with the
model's usage and its processing-error rate.

A run file is a dataset: "toolgrade eval RUNFILE" grades it again offline,
with the same results. A case whose model call failed (an HTTP error after
the retries, a timeout, a reply that is not a chat completion) is an error
result there as here.

--multi-turn feeds the case's recorded tool outputs (those of its
expected_tools, then of its own tools_called: the same tool with equal
arguments first, else the same tool, each used once) back to the model, as
role "tool" messages, until a reply makes no call or --max-steps requests
were sent.

--mcp SERVER --allow-execute offers the MCP server's tools to the model
and runs each call it makes on the server (a fresh session per case),
feeding the real result back, turn after turn, until the model answers or
--max-steps requests were sent; the run file holds the real outputs and the
server's tools as available_tools.

--tool-call-parser hermes|json|pythonic is for models without native tool
calling: the tools are described in a system prompt asking for that format,
and calls are parsed out of the reply's text.

BFCL: over BFCL's question files (BFCL_v4_<category>.json, or --bfcl), each
entry's question and function docs are sent (function names OpenAI rejects,
such as "math.factorial", are sent as "math_factorial" and mapped back), a
BFCL result file per question file is written to --bfcl-out, and they are
graded as toolgrade bfcl does, against possible_answer/ beside the question
files.

Exit status: 0 when every case passed; 1 when a case failed or erred; 2 for
bad usage or unreadable input.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return m.runRun(cmd, &f, args)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.model, "model", "", "model name (required): gpt-4.1-mini, an Azure deployment, llama3.1:8b, ...")
	fs.StringVar(&f.baseURL, "base-url", openai.DefaultBaseURL, "API root of the model's endpoint, ending before /chat/completions")
	fs.StringVar(&f.keyEnv, "key-env", "OPENAI_API_KEY", `environment variable holding the model's API key ("" for a server that needs none)`)
	fs.BoolVar(&f.azure, "azure", false, "Azure OpenAI: send the key as api-key (with --base-url .../openai/deployments/NAME)")
	fs.StringVar(&f.apiVersion, "api-version", "", "api-version query parameter (Azure OpenAI)")
	fs.Float64Var(&f.temperature, "temperature", 0, "sampling temperature (default: the endpoint's)")
	fs.IntVar(&f.maxTokens, "max-tokens", 0, "bound on each reply's tokens, sent as max_tokens (default: none)")
	fs.Int64Var(&f.seed, "seed", 0, "sampling seed (default: none sent)")
	fs.StringVar(&f.toolChoice, "tool-choice", "", "tool_choice: auto, none, required, or a tool name to force (default: none sent)")
	fs.BoolVar(&f.parallel, "parallel-tool-calls", false, "send parallel_tool_calls: true, or =false (not sent unless given; OpenAI's default allows parallel calls)")
	fs.BoolVar(&f.multiTurn, "multi-turn", false, "feed recorded tool outputs back until the model stops calling tools")
	fs.IntVar(&f.maxSteps, "max-steps", runner.DefaultMaxSteps, "with --multi-turn, the most requests per case")
	fs.StringVar(&f.parser, "tool-call-parser", "", "for models without native tool calling: read calls from the reply's text as "+names(trace.TextProtocols()))
	fs.StringVar(&f.record, "record", "", "the run file to write (default: next to --out, else DATASET.MODEL.run.jsonl in the current directory)")
	fs.BoolVar(&f.bfcl, "bfcl", false, "the datasets are BFCL question files (detected from their names and shape otherwise)")
	fs.StringVar(&f.bfclOut, "bfcl-out", "", "directory for the BFCL result files (default: the run file's name with .bfcl)")
	fs.DurationVar(&f.timeout, "timeout", openai.DefaultTimeout, "bound on each model request attempt")
	fs.IntVar(&f.concurrency, "concurrency", openai.DefaultConcurrency, "model requests in flight at once")
	fs.Float64Var(&f.rpm, "requests-per-minute", 0, "rate limit on model requests (0: none)")
	fs.IntVar(&f.tpm, "tokens-per-minute", 0, "rate limit on model tokens, estimated before sending (0: none)")
	fs.IntVar(&f.trials, "trials", 1, "run every case this many times (trials, recorded with their index as \"trial\"), concurrently within --concurrency and the rate limits; eval then reports pass@k, pass^k and the flaky cases")
	fs.IntVar(&f.maxRetries, "max-retries", openai.DefaultMaxRetries, "retries of a failed model request (429, 5xx, timeouts; -1: none)")

	f.eval.register(fs) // grading, as in eval
	cmd.MarkFlagRequired("model")
	return cmd
}

func (m *Main) runRun(cmd *cobra.Command, f *runFlags, args []string) error {
	ctx := cmd.Context()
	fs := cmd.Flags()
	opts := runner.Options{
		Model:      f.model,
		MaxTokens:  f.maxTokens,
		ToolChoice: f.toolChoice,
		MultiTurn:  f.multiTurn,
		MaxSteps:   f.maxSteps,
		Workers:    f.concurrency,
	}
	// A benchmark's own entries are sent its way wherever they are read;
	// when the datasets are all its own, it records and grades them.
	benchmark := f.harness()
	opts.Prompt = benchmark.Prompt
	if fs.Changed("temperature") {
		opts.Temperature = &f.temperature
	}
	if fs.Changed("seed") {
		opts.Seed = &f.seed
	}
	if fs.Changed("parallel-tool-calls") {
		opts.ParallelToolCalls = &f.parallel
	}
	if f.parser != "" {
		var err error
		if opts.Protocol, err = trace.ParseProtocol(f.parser); err != nil {
			return usageError("--tool-call-parser: %v", err)
		}
	}

	// Everything that can be checked is, before the first request. The
	// model's key is read first, so that nothing can echo it unscrubbed.
	if f.keyEnv != "" {
		m.credential(f.keyEnv)
	}
	var here bool
	f.eval.config, here = findSuite(f.eval.config, args)
	var cfg *config.Config
	if f.eval.config != "" {
		var err error
		if cfg, err = m.loadConfig(f.eval.config); err != nil {
			return usageError("config: %v", err)
		}
	}
	env, err := m.runEnv(cmd, &f.eval.env, cfg)
	if err != nil {
		return err
	}
	for i, e := range metricEntries(fs, cfg) {
		if _, err := config.Metric(e, env); err != nil {
			if cfg != nil && len(cfg.Metrics) > 0 {
				return usageError("%s: metrics[%d]: %v", f.eval.config, i, err)
			}
			return usageError("%v", err)
		}
	}
	opts.Tools = env.Tools
	if mf := &f.eval.env.mcp; mf.target != "" { // tools.go
		// --mcp: the model's calls run on the server, turn after turn.
		if !mf.allowExecute {
			return usageError("run --mcp runs the model's calls for real on %s: pass --allow-execute to allow it", env.Server)
		}
		opts.Server, opts.AllowTools, opts.CallTimeout = env.Server, mf.allowTools, mf.callTimeout
	}
	paths, err := m.inputPaths(cfg, f.eval.config, args)
	if err != nil {
		return err
	}
	if here && !f.eval.quiet {
		m.saySuite(paths)
	}
	var harness runner.Harness // the benchmark's, when the datasets are its own
	switch own, err := benchmark.Own(paths); {
	case err != nil:
		return usageError("%v", err)
	case own:
		if err := benchmark.Trials(f.trials); err != nil {
			return usageError("--trials: %v", err)
		}
		harness = benchmark
	}
	record := namedPath{"--record", f.record}
	if record.path == "" {
		record = namedPath{"the run file", defaultRecord(paths, f.model, f.eval.out)}
	}
	// The grading's outputs too: a clash found after the model's replies
	// were paid for is found too late.
	graded, err := m.reportPaths(&f.eval, cfg)
	if err != nil {
		return err
	}
	if err := m.checkPaths(f.eval.inputs(cfg, "", paths), append([]namedPath{record}, graded.list()...)); err != nil {
		return err
	}
	if err := graded.mayReplace(m.sizes.LineOr()); err != nil {
		return err
	}
	client, err := m.modelClient(f)
	if err != nil {
		return err
	}
	model := runner.ModelFunc(func(ctx context.Context, body []byte) (*runner.Reply, error) {
		// Each trial has its own cache entry, so that trials are samples
		// of their own and a run of trials resumes where it stopped.
		tag := "run"
		if n := runner.TrialOf(ctx); n > 1 {
			tag += "#trial-" + strconv.Itoa(n)
		}
		rep, err := client.CompleteJSON(ctx, tag, body)
		if err != nil {
			return nil, err
		}
		return &runner.Reply{Body: rep.Body, Cached: rep.Cached}, nil
	})
	r, err := runner.New(model, opts)
	if err != nil {
		return usageError("%v", err)
	}

	// Run, recording each case as it ends.
	out, err := openRunFile(record.path, m.secrets)
	if err != nil {
		return usageError("%s: %v", record.role, err)
	}
	defer out.close(false)
	if harness != nil {
		if err := harness.Start(record.path); err != nil {
			return usageError("%v", err)
		}
		defer harness.Close()
	}
	if !f.eval.quiet {
		fmt.Fprintf(m.Stderr, "toolgrade: running %s through %s; recording to %s\n", strings.Join(paths, ", "), f.model, record.path)
	}
	var tally runner.Tally
	var line []byte
	runErr := r.Run(ctx, runner.Trials(m.records(paths), f.trials), func(run *runner.Run) error {
		tally.Add(run)
		if harness != nil {
			if err := harness.Record(run); err != nil {
				return err
			}
		}
		line = append(run.AppendJSON(line[:0]), '\n')
		return out.write(line)
	})
	closeErr := out.close(runErr == nil)
	if harness != nil {
		closeErr = errors.Join(closeErr, harness.Close())
	}
	if stopped := interrupted(ctx); stopped != nil {
		again := "run again to go on (replies in the cache are not asked for again)"
		if f.eval.env.judge.settings.NoCache {
			again = "running again asks the model everything again (--no-cache) and replaces it"
		}
		msg := fmt.Sprintf("%v after %d %s were recorded in %s (the cases in flight were left out): grade them with toolgrade eval %[4]s; %s",
			stopped, tally.Cases, plural(tally.Cases, "case", "cases"), record.path, again)
		if tally.Cases == 0 {
			msg = fmt.Sprintf("%v before a case was recorded: %s was not touched", stopped, record.path)
		}
		if closeErr != nil {
			msg += fmt.Sprintf("; %v", closeErr)
		}
		return &ExitError{Code: stopped.code(), Err: errors.New(msg)}
	}
	if runErr == nil {
		runErr = closeErr
	}
	if runErr != nil {
		return &ExitError{Code: 2, Err: runErr}
	}

	// Grade the run file as toolgrade eval would, or the benchmark's files
	// as the benchmark would.
	var gradeErr error
	if harness != nil {
		passed, err := harness.Grade(ctx, m.grading(f.eval.out))
		gradeErr = gradeExit(passed, err, f.eval.exitZero)
	} else {
		gradeErr = m.runEval(cmd, f.eval, []string{record.path})
	}
	if !f.eval.quiet {
		tally.WriteText(m.Stderr)
		fmt.Fprintf(m.Stderr, "run file: %s\n", record.path)
		if harness != nil {
			fmt.Fprintln(m.Stderr, harness.Summary())
		}
	}
	return gradeErr
}

// harness is the harness of the benchmark whose datasets toolgrade run
// runs its way: BFCL's question files (--bfcl, --bfcl-out).
func (f *runFlags) harness() runner.Harness {
	return &leaderboard.Harness{Questions: f.bfcl, Dir: f.bfclOut}
}

// grading sends a harness's grading to the standard streams: result
// lines to out, the benchmark's report to stdout, notes to stderr.
func (m *Main) grading(out string) runner.Grading {
	return runner.Grading{Out: out, Report: m.Stdout, Note: func(s string) { fmt.Fprintf(m.Stderr, "toolgrade: %s\n", s) }}
}

// gradeExit is the exit status of a harness's grading: 2 for input that
// could not be read or output that could not be written, 1 when an answer
// failed (unless --exit-zero).
func gradeExit(passed bool, err error, exitZero bool) error {
	if err != nil {
		return &ExitError{Code: 2, Err: err}
	}
	if !passed && !exitZero {
		return &ExitError{Code: 1}
	}
	return nil
}

// modelClient builds the model's client: the judge's transport (limits,
// retries, timeout) with the model's own endpoint and key, and the reply
// cache the judge uses (--cache-dir, --no-cache and the config's judge
// section; read by runEnv).
func (m *Main) modelClient(f *runFlags) (*openai.Client, error) {
	u, err := url.Parse(f.baseURL)
	if err != nil {
		return nil, usageError("--base-url %q: %v", f.baseURL, err)
	}
	key := ""
	if f.keyEnv != "" {
		key = m.credential(f.keyEnv)
	}
	if key == "" && f.keyEnv != "" && !openai.IsLocal(f.baseURL) {
		return nil, usageError("no API key for %s: $%s is empty (set it, name another variable with --key-env, or pass --key-env= for a server that needs no key)", u.Host, f.keyEnv)
	}
	o := openai.Options{
		BaseURL:           f.baseURL,
		APIKey:            key,
		Azure:             f.azure,
		APIVersion:        f.apiVersion,
		Timeout:           f.timeout,
		Concurrency:       f.concurrency,
		RequestsPerMinute: f.rpm,
		TokensPerMinute:   f.tpm,
		MaxRetries:        new(max(f.maxRetries, 0)), // -1: none
		Secrets:           m.secrets,
		Warn:              m.warn,
	}
	if o.Cache, err = openai.SettingsCache(f.eval.env.judge.settings); err != nil {
		return nil, usageError("%v", err)
	}
	c, err := openai.NewClient(o)
	if err != nil {
		return nil, usageError("model: %v", err)
	}
	return c, nil
}

// defaultRecord names the run file: beside --out, else after the first
// dataset and the model, in the current directory.
func defaultRecord(paths []string, model, out string) string {
	if out != "" && out != "-" {
		return strings.TrimSuffix(out, filepath.Ext(out)) + ".run.jsonl"
	}
	base := "stdin"
	if len(paths) > 0 && paths[0] != "-" {
		base = strings.TrimSuffix(filepath.Base(paths[0]), filepath.Ext(paths[0]))
	}
	return base + "." + strings.Trim(unsafeInName.ReplaceAllString(model, "-"), "-") + ".run.jsonl"
}

var unsafeInName = lazyregexp.New(`[^A-Za-z0-9._-]+`)

// A runFile is the run file as it grows: the one output written in place,
// so that what a run recorded survives a kill, and the run resumes from
// the reply cache. It is not emptied before the run has its first case
// to put in it (an interrupted or failed start leaves the earlier file as
// it was, and a file it created is removed), and each case's line is
// added in one write, so a kill leaves whole lines.
type runFile struct {
	f       *os.File
	secrets *secret.Set // scrubbed from each line
	created bool        // no file was there before
	started bool        // emptied, and written to
}

func openRunFile(path string, secrets *secret.Set) (*runFile, error) {
	_, err := os.Lstat(path)
	created := err != nil
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	return &runFile{f: f, secrets: secrets, created: created}, nil
}

func (r *runFile) write(line []byte) error {
	if !r.started {
		if err := r.f.Truncate(0); err != nil {
			return err
		}
		r.started = true
	}
	_, err := r.f.Write(r.secrets.Bytes(line))
	return err
}

// close closes the file. A run that is complete empties a file it wrote
// nothing to (it had no case); one that is not removes such a file if it
// created it. It may be called more than once.
func (r *runFile) close(complete bool) error {
	if r.f == nil {
		return nil
	}
	var err error
	if complete && !r.started {
		err = r.f.Truncate(0)
	}
	err = errors.Join(err, r.f.Close())
	if !complete && r.created && !r.started {
		os.Remove(r.f.Name())
	}
	r.f = nil
	return err
}
