package main

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/internal/budget"
	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/openai"
	"github.com/toolgrade/toolgrade/runner"
)

// judgeFlags configure the LLM judge; each overrides its key in the
// config's judge section. After runEnv they also hold the run's judge.
type judgeFlags struct {
	baseURL, model, keyEnv, cacheDir string
	noCache, batch                   bool
	pollInterval                     time.Duration
	maxPolls                         int
	inputPrice, outputPrice          float64

	settings   judge.Settings  // config and flags together
	judge      *openai.Judge   // nil without a judge
	batchUsage toolgrade.Usage // what the batch spent
}

func (f *judgeFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.baseURL, "judge-base-url", "", "LLM judge: API root of any OpenAI-compatible server (default https://api.openai.com/v1)")
	fs.StringVar(&f.model, "judge-model", "", "LLM judge: model; setting it turns the judge on")
	fs.StringVar(&f.keyEnv, "judge-key-env", "", "LLM judge: environment variable holding the API key (default "+judge.DefaultKeyEnv+")")
	fs.StringVar(&f.cacheDir, "cache-dir", "", "LLM judge: reply cache directory (default: toolgrade in the user cache directory)")
	fs.BoolVar(&f.noCache, "no-cache", false, "LLM judge: neither read nor write the reply cache")
	fs.BoolVar(&f.batch, "judge-batch", false, "LLM judge: send the judge's requests through the Batch API first")
	fs.DurationVar(&f.pollInterval, "batch-poll-interval", openai.DefaultPollInterval, "LLM judge: wait between batch status checks")
	fs.IntVar(&f.maxPolls, "batch-max-polls", openai.DefaultMaxPolls, "LLM judge: status checks before a batch is cancelled")
	fs.Float64Var(&f.inputPrice, "judge-input-price", 0, "LLM judge: price per million prompt tokens, for the cost estimate")
	fs.Float64Var(&f.outputPrice, "judge-output-price", 0, "LLM judge: price per million completion tokens, for the cost estimate")
}

// openJudge builds the run's judge from config and flags; nil when none
// is configured.
func (m *Main) openJudge(cmd *cobra.Command, f *judgeFlags, cfg *config.Config) (judge.Judge, error) {
	s, err := cfg.JudgeSettings()
	if err != nil {
		return nil, usageError("config: %v", err)
	}
	fs := cmd.Flags()
	set := func(name string, apply func()) {
		if fs.Changed(name) {
			apply()
		}
	}
	set("judge-base-url", func() { s.BaseURL = f.baseURL })
	set("judge-model", func() { s.Model = f.model })
	set("judge-key-env", func() { s.KeyEnv = f.keyEnv })
	set("cache-dir", func() { s.CacheDir = f.cacheDir })
	set("no-cache", func() { s.NoCache = f.noCache })
	set("judge-batch", func() { s.Batch = f.batch })
	set("batch-poll-interval", func() { s.BatchPollInterval = judge.Duration(f.pollInterval) })
	set("batch-max-polls", func() { s.BatchMaxPolls = f.maxPolls })
	set("judge-input-price", func() { s.InputPrice = f.inputPrice })
	set("judge-output-price", func() { s.OutputPrice = f.outputPrice })
	f.settings = s
	if !s.Configured() {
		if s.Batch {
			return nil, usageError("--judge-batch: no judge configured (give --judge-model)")
		}
		return nil, nil
	}
	if f.judge, err = openai.OpenJudge(s, openai.Host{Getenv: m.credential, Secrets: m.secrets, Warn: m.warn}); err != nil {
		return nil, usageError("%v", err)
	}
	return f.judge, nil
}

// judgeWorkers is the number of cases graded at once when none is set:
// with a judge, enough to keep its concurrency busy, since workers wait on
// the network.
func (f *judgeFlags) judgeWorkers(workers int) int {
	if workers != 0 || f.judge == nil {
		return workers
	}
	c := f.settings.Concurrency
	if c <= 0 {
		c = openai.DefaultConcurrency
	}
	return max(runtime.GOMAXPROCS(0), 2*c)
}

// judgeBatch runs batch mode's first pass: it grades every case with a
// judge that only collects the requests the cache cannot answer, sends
// them as one batch, and waits for the batch to fill the cache. The
// normal pass that follows then finds every answer cached (requests the
// batch left unanswered are sent one by one). Standard input, which
// cannot be read twice, is kept in a temporary file meanwhile when paths
// name it; call the returned function when the run is over. read gives
// the records, as the normal pass reads them.
func (m *Main) judgeBatch(cmd *cobra.Command, f *evalFlags, cfg *config.Config, env *config.Env, paths []string, read func() iter.Seq2[toolgrade.Record, error]) (func(), error) {
	jf := &f.env.judge
	if jf.judge == nil || !jf.settings.Batch {
		return func() {}, nil
	}
	stdin, done, err := m.bufferStdin(paths)
	if err != nil {
		return nil, err
	}
	planner := jf.judge.Planner()
	planEnv := *env
	planEnv.Judge = planner
	var metrics []toolgrade.Metric
	for _, e := range metricEntries(cmd.Flags(), cfg) {
		mt, err := config.Metric(e, &planEnv)
		if err != nil {
			done()
			return nil, usageError("%v", err)
		}
		metrics = append(metrics, mt)
	}
	ctx := cmd.Context()
	// The same records as eval's grading pass, so that the same prompts
	// are asked.
	err = toolgrade.Evaluate(ctx, dataset.RecordsFor(metrics, read()), metrics, func(*toolgrade.Result) error { return nil },
		toolgrade.Workers(runtime.GOMAXPROCS(0)), toolgrade.CheckCases(runner.CheckRun))
	if err == nil && stdin != nil {
		_, err = stdin.Seek(0, io.SeekStart)
	}
	if err != nil {
		done()
		return nil, &ExitError{Code: 2, Err: err}
	}
	rep, err := jf.judge.Client().Batch(ctx, planner.Requests(), openai.BatchOptions{
		PollInterval: time.Duration(jf.settings.BatchPollInterval),
		MaxPolls:     jf.settings.BatchMaxPolls,
		Log: func(msg string) {
			if !f.quiet {
				fmt.Fprintln(m.Stderr, "toolgrade: judge "+msg)
			}
		},
	})
	if err != nil {
		done()
		if rep.ID != "" && ctx.Err() != nil {
			err = fmt.Errorf("%w (batch %s goes on: run again with the same cases to resume it)", err, rep.ID)
		}
		return nil, &ExitError{Code: 2, Err: fmt.Errorf("judge batch: %w", err)}
	}
	jf.batchUsage = rep.Usage
	return done, nil
}

// bufferStdin copies standard input, if paths read it, to a temporary
// file that stands in for it until the returned function is called.
func (m *Main) bufferStdin(paths []string) (*os.File, func(), error) {
	if !slices.Contains(paths, "-") {
		return nil, func() {}, nil
	}
	tmp, err := os.CreateTemp("", "toolgrade-stdin-*")
	if err != nil {
		return nil, nil, &ExitError{Code: 2, Err: err}
	}
	os.Remove(tmp.Name()) // nameless where it can be (Unix), so a kill leaves nothing; else done removes it
	stdin := m.Stdin
	done := func() {
		m.Stdin = stdin
		tmp.Close()
		os.Remove(tmp.Name())
	}
	// The copy stops at a line reading would refuse (an endless one).
	if _, err = io.Copy(tmp, budget.Lines("-", stdin, m.sizes.Line, budget.LineFlag)); err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	var tooLarge *budget.Error
	if err != nil && !errors.As(err, &tooLarge) {
		err = fmt.Errorf("standard input: %w", err)
	}
	if err != nil {
		done()
		return nil, nil, &ExitError{Code: 2, Err: err}
	}
	m.Stdin = tmp
	return tmp, done, nil
}

// printJudgeCost adds to the summary what a batch spent and the estimated
// cost of the judge's tokens (with prices set). usage is what the
// results report: the requests sent one by one.
func (f *judgeFlags) printJudgeCost(w io.Writer, usage toolgrade.Usage) {
	if f.judge == nil {
		return
	}
	b := f.batchUsage
	if b.Requests > 0 {
		fmt.Fprintf(w, "judge batch: %d requests, %d prompt + %d completion tokens\n", b.Requests, b.PromptTokens, b.CompletionTokens)
	}
	usage.Add(b)
	if cost, ok := f.settings.Cost(usage); ok && usage.Requests > 0 {
		fmt.Fprintf(w, "judge cost: about $%.4f for %d prompt + %d completion tokens (at %g and %g per million)\n",
			cost, usage.PromptTokens, usage.CompletionTokens, f.settings.InputPrice, f.settings.OutputPrice)
	}
}
