package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/openai"
	"github.com/toolgrade/toolgrade/trace"
)

func (m *Main) serveCommand() *cobra.Command {
	var workers int
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Answer JSON Lines requests on stdin (for the Python package and other hosts)",
		Long: `Run as a long-lived process: read one JSON request per line on stdin and
write one JSON response per line on stdout, in order, until stdin ends.

Requests (an optional "id" of any JSON type is echoed in the response):

  {"op": "evaluate", "config": CONFIG, "cases": [CASE, ...], "offset": N}
      CONFIG is {"metrics": [ENTRY, ...], "judge": SETTINGS}, a list of
      metric entries, or one entry (absent: the default metric). SETTINGS
      are a config file's judge section (model, base_url, key_env, ...;
      the key is read from the environment): with them, the metrics that
      take an LLM judge (the deepeval profile's tool selection,
      tool_selection, argument_correctness) use it. A case gets the id "case-<offset+i>"
      when it has none. Response: {"results": [RESULT, ...]}, one result line
      (see docs/results.md) per case, in order. A case that cannot be read
      gives a result with "error" naming it and its field
      ("cases[2]: field expected_tools[0].name: want a string, got integer").
  {"op": "extract", "trace": TRACE, "format": "F"}
      TRACE is a decoded trace, or a string (JSON text, JSON Lines, an SSE
      body or a transcript). Response: {"result": {"format", "calls"},
      "skipped": [...]}.
  {"op": "version"}
      Response: {"result": {"version": "..."}}.

A request that cannot be served (an unknown op, a key its op does not
take, a bad value) gets {"error": "...", "field": "..."} ("field" when the
error names one); the process goes on with the next line.
Metrics built from a config are reused across requests with the same config.

Exit status: 0 when stdin ends.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return m.runServe(cmd.Context(), workers)
		},
	}
	cmd.Flags().IntVar(&workers, "workers", 0, "cases graded at once within a request (default: one per CPU)")
	return cmd
}

// server answers serve requests; it keeps the metrics of recent configs.
type server struct {
	workers int
	metrics map[string]servedConfig
	getenv  func(string) string
}

// servedConfig is a request config's metrics, and the case fields none of
// them reads (see notGraded).
type servedConfig struct {
	metrics   []toolgrade.Metric
	notGraded map[string]string
}

// maxCachedConfigs bounds the metric cache; it is emptied when full.
const maxCachedConfigs = 64

func (m *Main) runServe(ctx context.Context, workers int) error {
	s := &server{workers: workers, metrics: map[string]servedConfig{}, getenv: m.Getenv}
	in := bufio.NewReaderSize(m.Stdin, 1<<16)
	out := bufio.NewWriterSize(m.Stdout, 1<<16)
	for {
		line, readErr := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			resp := s.handle(ctx, bytes.TrimSpace(line))
			resp = append(resp, '\n')
			if _, err := out.Write(resp); err != nil {
				return err
			}
			if err := out.Flush(); err != nil {
				return err
			}
		}
		if readErr == io.EOF {
			return nil
		}
		if readErr != nil {
			return &ExitError{Code: 2, Err: readErr}
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// requestError is a request that could not be served; Field names the
// part of the request at fault.
type requestError struct {
	Field string
	Err   error
}

func (e *requestError) Error() string {
	if e.Field == "" {
		return e.Err.Error()
	}
	return e.Field + ": " + e.Err.Error()
}

func badField(field string, format string, args ...any) error {
	return &requestError{Field: field, Err: fmt.Errorf(format, args...)}
}

// handle answers one request line; it never panics.
func (s *server) handle(ctx context.Context, line []byte) (resp []byte) {
	var id any
	defer func() {
		if p := recover(); p != nil {
			resp = errorResponse(id, fmt.Errorf("internal error: %v\n%s", p, debug.Stack()))
		}
	}()
	v, err := jsonvalue.Parse(line)
	if err != nil {
		return errorResponse(nil, fmt.Errorf("request is not valid JSON: %w", err))
	}
	req, ok := v.(jsonvalue.Object)
	if !ok {
		return errorResponse(nil, fmt.Errorf("want a request object, got %s", jsonvalue.Kind(v)))
	}
	id, _ = req.Get("id")
	op, _ := req.Get("op")
	if err := checkRequestKeys(req, op); err != nil {
		return errorResponse(id, err)
	}
	var body []byte
	switch op {
	case "evaluate":
		body, err = s.evaluate(ctx, req)
	case "extract":
		body, err = extractRequest(req)
	case "version":
		body = append([]byte(`"result":{"version":`), jsonvalue.AppendString(nil, versionString())...)
		body = append(body, '}')
	default:
		err = badField("op", "want one of evaluate, extract, version, got %s", jsonvalue.Format(op))
	}
	if err != nil {
		return errorResponse(id, err)
	}
	b := []byte{'{'}
	if id != nil {
		b = append(b, `"id":`...)
		b = jsonvalue.Append(b, id)
		b = append(b, ',')
	}
	b = append(b, body...)
	return append(b, '}')
}

// requestKeys are the keys each op takes besides "op" and "id".
var requestKeys = map[string][]string{
	"evaluate": {"config", "cases", "offset"},
	"extract":  {"trace", "format"},
	"version":  nil,
}

// checkRequestKeys rejects a key the request's op does not take, so that
// a misspelled one is not ignored. An unknown op is left to handle.
func checkRequestKeys(req jsonvalue.Object, op any) error {
	name, _ := op.(string)
	keys, known := requestKeys[name]
	if !known {
		return nil
	}
	for _, m := range req {
		if m.Key == "op" || m.Key == "id" || slices.Contains(keys, m.Key) {
			continue
		}
		if near, ok := suggest.Nearest(m.Key, keys); ok {
			return badField(m.Key, "unknown key for op %s; did you mean %q?", name, near)
		}
		if len(keys) == 0 {
			return badField(m.Key, "unknown key: op %s takes only op and id", name)
		}
		return badField(m.Key, "unknown key for op %s (want %s, op, id)", name, strings.Join(keys, ", "))
	}
	return nil
}

func errorResponse(id any, err error) []byte {
	b := []byte{'{'}
	if id != nil {
		b = append(b, `"id":`...)
		b = jsonvalue.Append(b, id)
		b = append(b, ',')
	}
	b = append(b, `"error":`...)
	b = jsonvalue.AppendString(b, err.Error())
	field := ""
	var re *requestError
	var fe *toolgrade.FieldError
	switch {
	case errors.As(err, &re) && re.Field != "":
		field = re.Field
		if errors.As(re.Err, &fe) {
			field += "." + fe.Path
		}
	case errors.As(err, &fe):
		field = fe.Path
	}
	if field != "" {
		b = append(b, `,"field":`...)
		b = jsonvalue.AppendString(b, field)
	}
	return append(b, '}')
}

// configEntries reads a request's config: {"metrics": [...]}, a list of
// entries, or one entry.
// The field is "" for one entry (or none), else the list's path.
func configEntries(v any, present bool) ([]jsonvalue.Object, string, error) {
	if !present || v == nil {
		return []jsonvalue.Object{{}}, "", nil
	}
	field := "config"
	if obj, ok := v.(jsonvalue.Object); ok {
		ms, has := obj.Get("metrics")
		if !has {
			// One entry, less the judge's settings (see judgeEnv).
			entry := make(jsonvalue.Object, 0, len(obj))
			for _, m := range obj {
				if m.Key != "judge" {
					entry = append(entry, m)
				}
			}
			return []jsonvalue.Object{entry}, "", nil
		}
		for _, m := range obj {
			if m.Key != "metrics" && m.Key != "judge" {
				return nil, "", badField("config."+m.Key, "unknown key beside metrics (want metrics, judge)")
			}
		}
		v, field = ms, "config.metrics"
	}
	list, ok := v.([]any)
	if !ok {
		return nil, "", badField(field, "want a list of metric entries, got %s", jsonvalue.Kind(v))
	}
	if len(list) == 0 {
		return nil, "", badField(field, "want at least one metric entry")
	}
	entries := make([]jsonvalue.Object, len(list))
	for i, e := range list {
		o, ok := e.(jsonvalue.Object)
		if !ok {
			return nil, "", badField(field+"["+strconv.Itoa(i)+"]", "want a metric entry object, got %s", jsonvalue.Kind(e))
		}
		entries[i] = o
	}
	return entries, field, nil
}

// judgeEnv opens the judge a request's config names under "judge", as a
// config file's judge section does; nil when it names none.
func (s *server) judgeEnv(v any) (*config.Env, error) {
	obj, ok := v.(jsonvalue.Object)
	if !ok {
		return nil, nil
	}
	j, ok := obj.Get("judge")
	if !ok || j == nil {
		return nil, nil
	}
	section, ok := j.(jsonvalue.Object)
	if !ok {
		return nil, badField("config.judge", "want the judge's settings (model, base_url, key_env, ...), got %s", jsonvalue.Kind(j))
	}
	settings, err := (&config.Config{Judge: section}).JudgeSettings()
	if err != nil {
		return nil, &requestError{Field: "config", Err: err}
	}
	getenv := s.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	jd, err := openai.OpenJudge(settings, getenv)
	if err != nil {
		return nil, &requestError{Field: "config.judge", Err: err}
	}
	return &config.Env{Judge: jd}, nil
}

// metricsFor builds (or reuses) the metrics of a request's config.
func (s *server) metricsFor(v any, present bool) (servedConfig, error) {
	key := string(jsonvalue.Append(nil, v))
	if sc, ok := s.metrics[key]; ok {
		return sc, nil
	}
	env, err := s.judgeEnv(v)
	if err != nil {
		return servedConfig{}, err
	}
	entries, field, err := configEntries(v, present)
	if err != nil {
		return servedConfig{}, err
	}
	ms := make([]toolgrade.Metric, len(entries))
	for i, e := range entries {
		f := "config"
		if field != "" {
			f = field + "[" + strconv.Itoa(i) + "]"
		}
		if ms[i], err = config.Metric(e, env); err != nil {
			return servedConfig{}, &requestError{Field: f, Err: err}
		}
	}
	if len(s.metrics) >= maxCachedConfigs {
		clear(s.metrics)
	}
	sc := servedConfig{metrics: ms, notGraded: notGraded(entries)}
	s.metrics[key] = sc
	return sc, nil
}

// caseRecord is one case of a request, decoded and checked (as toolgrade
// eval checks a case file's) on Evaluate's workers.
type caseRecord struct {
	index int // in the request
	id    string
	v     any
	ch    *dataset.Checker
}

func (r *caseRecord) Decode() (*toolgrade.Case, error) {
	where := "cases[" + strconv.Itoa(r.index) + "]"
	c, err := dataset.DecodeCase(r.v)
	if err == nil {
		err = r.ch.Check(c)
	}
	if err != nil {
		stub := &toolgrade.Case{ID: r.id}
		if obj, ok := r.v.(jsonvalue.Object); ok {
			if id, ok := obj.Get("id"); ok {
				if s, ok := id.(string); ok && s != "" {
					stub.ID = s
				}
			}
		}
		return stub, fmt.Errorf("%s (id %s): %w", where, stub.ID, err)
	}
	if c.ID == "" {
		c.ID = r.id
	}
	return c, nil
}

func (s *server) evaluate(ctx context.Context, req jsonvalue.Object) ([]byte, error) {
	cfg, present := req.Get("config")
	sc, err := s.metricsFor(cfg, present)
	if err != nil {
		return nil, err
	}
	offset := 0
	if o, ok := req.Get("offset"); ok && o != nil {
		n, isNum := o.(interface{ Int64() (int64, error) })
		if !isNum {
			return nil, badField("offset", "want an integer, got %s", jsonvalue.Kind(o))
		}
		i, err := n.Int64()
		if err != nil || i < 0 {
			return nil, badField("offset", "want a non-negative integer, got %s", jsonvalue.Format(o))
		}
		offset = int(i)
	}
	cv, ok := req.Get("cases")
	cases, isList := cv.([]any)
	if !ok || !isList {
		return nil, badField("cases", "want a list of cases, got %s", jsonvalue.Kind(cv))
	}
	ch := &dataset.Checker{NotGraded: sc.notGraded}
	records := make([]toolgrade.Record, len(cases))
	for i, c := range cases {
		records[i] = &caseRecord{index: i, id: "case-" + strconv.Itoa(offset+i), v: c, ch: ch}
	}
	seq := func(yield func(toolgrade.Record, error) bool) {
		for _, r := range records {
			if !yield(r, nil) {
				return
			}
		}
	}
	b := []byte(`"results":[`)
	first := true
	emit := func(r *toolgrade.Result) error {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = r.AppendJSON(b)
		return nil
	}
	if err := toolgrade.Evaluate(ctx, seq, sc.metrics, emit, toolgrade.Workers(s.workers)); err != nil {
		return nil, err
	}
	return append(b, ']'), nil
}

func extractRequest(req jsonvalue.Object) ([]byte, error) {
	format := ""
	if f, ok := req.Get("format"); ok && f != nil {
		s, isStr := f.(string)
		if !isStr {
			return nil, badField("format", "want a string, got %s", jsonvalue.Kind(f))
		}
		if s != "" && !slices.Contains(trace.Formats(), s) {
			return nil, badField("format", "unknown format %q (want one of %s)", s, strings.Join(trace.Formats(), ", "))
		}
		format = s
	}
	tv, ok := req.Get("trace")
	if !ok {
		return nil, badField("trace", "missing")
	}
	tr, err := trace.Extract(tv, format) // a string is read as trace.Read reads bytes
	if err != nil {
		return nil, &requestError{Field: "trace", Err: err}
	}
	b := append([]byte(`"result":`), tr.AppendJSON(nil)...)
	b = append(b, `,"skipped":[`...)
	for i, sk := range tr.Skipped {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonvalue.AppendString(b, sk.String())
	}
	return append(b, ']'), nil
}
