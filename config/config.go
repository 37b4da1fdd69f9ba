// Package config reads toolgrade's configuration files (YAML or JSON) and
// builds the metrics they name.
//
// A metric entry names a metric (default tool_correctness) and, for tool
// correctness, a profile: "default" for toolgrade's own semantics, or a
// peer whose numbers it reproduces. The other keys are the profile's
// options, spelled as the profile spells them, so that a peer's option
// names work unchanged:
//
//	metrics:
//	  - profile: default
//	    order: any
//	    args: exact
//	  - profile: deepeval
//	    should_consider_ordering: true
//
// The rules: nothing in a config is read as nothing. A key that no part
// takes is an error naming it, with the nearest valid key or the profile
// that spells it so (an option is decoded by [toolgrade.DecodeOptions]);
// a value of the wrong kind is an error naming its field. Relative paths
// (datasets, reports, the judge's cache) are taken from the config file's
// directory. The judge and reports sections are kept as written and read
// by the parts that own them.
//
// Non-goals: grading (config only builds metrics) and reading cases
// (package dataset); environment variables are expanded in report paths
// only, never in options.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/adk"
	"github.com/toolgrade/toolgrade/compat/agentevals"
	"github.com/toolgrade/toolgrade/compat/axion"
	"github.com/toolgrade/toolgrade/compat/bfcl"
	"github.com/toolgrade/toolgrade/compat/deepeval"
	"github.com/toolgrade/toolgrade/compat/deepfabric"
	"github.com/toolgrade/toolgrade/compat/evalite"
	"github.com/toolgrade/toolgrade/compat/mastra"
	"github.com/toolgrade/toolgrade/compat/openevals"
	"github.com/toolgrade/toolgrade/compat/promptfoo"
	"github.com/toolgrade/toolgrade/compat/ragas"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/execution"
	"github.com/toolgrade/toolgrade/grounding"
	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/process"
	"github.com/toolgrade/toolgrade/schema"
	"github.com/toolgrade/toolgrade/state"
)

// A Config is a parsed configuration file. Sections other than metrics
// and workers are kept as written and read by the parts that own them.
type Config struct {
	// Metrics holds each metric entry as written.
	Metrics []jsonvalue.Object
	// Workers is how many cases are graded at once (0: one per CPU).
	Workers int
	// Judge configures the LLM judge (see judge.go).
	Judge jsonvalue.Object
	// Datasets lists case files or globs for a suite run.
	Datasets []string
	// Reports names report outputs (see reports.go).
	Reports jsonvalue.Object
	// Tools is a file of tool definitions used for every case that gives
	// none of its own, or "mcp:" and an MCP server (a command line or a
	// URL) whose tools/list gives them.
	Tools string
	// Dir is the directory of the file, for resolving relative paths;
	// File is its path, for messages.
	Dir, File string
}

// Load reads a configuration file, within the budget of a file read
// whole (see [Read]).
func Load(path string) (*Config, error) {
	data, err := sniff.ReadFile(path, 0, "")
	if err != nil {
		return nil, err
	}
	return Read(path, data)
}

// Read parses data, the text of the configuration file at path: errors
// name the file, and relative paths are taken from its directory.
func Read(path string, data []byte) (*Config, error) {
	c, err := Parse(data)
	if err != nil {
		if line, msg, ok := errorLine(err); ok {
			return nil, fmt.Errorf("%s:%d: %s", path, line, msg)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.Dir, c.File = filepath.Dir(path), path
	return c, nil
}

// errorLine takes the line out of a message that names it first ("line 7:
// ..."), for the message to be put as FILE:LINE: MESSAGE.
func errorLine(err error) (int, string, bool) {
	msg := err.Error()
	rest, ok := strings.CutPrefix(msg, "line ")
	if !ok {
		return 0, msg, false
	}
	digits, rest, ok := strings.Cut(rest, ": ")
	line, aerr := strconv.Atoi(digits)
	if !ok || aerr != nil {
		return 0, msg, false
	}
	return line, rest, true
}

// Parse reads a configuration from YAML or JSON text.
func Parse(data []byte) (*Config, error) {
	data, err := sniff.Bytes(data)
	if err != nil {
		return nil, err
	}
	v, err := dataset.YAMLValue(data) // YAML is a superset of JSON
	if err != nil {
		if first, next, ok := firstJSONLine(data); ok {
			// JSON Lines, which YAML does not read: say what it holds.
			if err := notConfig(first, 1); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("line %d: a second JSON value: a config is one JSON object or one YAML document", next)
		}
		msg, ok := strings.CutPrefix(err.Error(), "yaml: ")
		if !ok {
			return nil, err // the value model's, naming its line
		}
		if rest, ok := strings.CutPrefix(msg, "line "); ok {
			if digits, rest, ok := strings.Cut(rest, ": "); ok {
				return nil, fmt.Errorf("line %s: invalid YAML: %s", digits, rest)
			}
		}
		return nil, errors.New("invalid YAML: " + msg)
	}
	obj, ok := v.(jsonvalue.Object)
	if !ok {
		if v == nil {
			// An empty file (or only comments) is a mistake, not a
			// suite: it would grade with every default.
			return nil, errors.New("the config is empty: give metric entries (see docs/config.md), or leave out --config for the defaults")
		}
		if err := notConfig(v, 0); err != nil {
			return nil, err
		}
		if first, _, _ := bytes.Cut(data, []byte("\n")); sniff.CSV(string(first)) != "" {
			return nil, errors.New("a CSV file, not a config: a config is YAML or JSON (see docs/config.md)")
		}
		return nil, fmt.Errorf("want a mapping at the top, got %s", sniff.Describe(v))
	}
	if len(obj) == 0 {
		return nil, errors.New("the config is empty ({}): give metric entries (see docs/config.md), or leave out --config for the defaults")
	}
	if err := notConfig(obj, 0); err != nil {
		return nil, err
	}
	c := &Config{}
	for _, m := range obj {
		switch m.Key {
		case "metrics":
			list, ok := m.Value.([]any)
			if !ok {
				return nil, &toolgrade.FieldError{Path: "metrics", Err: fmt.Errorf("want a list, got %s", jsonvalue.Kind(m.Value))}
			}
			if len(list) == 0 {
				// Not the default metric: a list emptied by mistake would
				// grade with it silently.
				return nil, &toolgrade.FieldError{Path: "metrics", Err: errors.New("an empty list grades nothing: give metric entries (see docs/config.md), or leave out metrics for the default metric")}
			}
			for i, e := range list {
				eo, ok := e.(jsonvalue.Object)
				if !ok {
					return nil, &toolgrade.FieldError{Path: fmt.Sprintf("metrics[%d]", i), Err: fmt.Errorf("want a mapping, got %s", jsonvalue.Kind(e))}
				}
				c.Metrics = append(c.Metrics, eo)
			}
		case "workers":
			n, ok := m.Value.(json.Number)
			w, err := strconv.Atoi(string(n))
			if !ok || err != nil || w < 0 || w > toolgrade.MaxWorkers {
				return nil, &toolgrade.FieldError{Path: "workers", Err: fmt.Errorf("want a whole number from 1 to %d (0 or none: one per CPU), got %s", toolgrade.MaxWorkers, jsonvalue.Format(m.Value))}
			}
			c.Workers = w
		case "judge", "reports":
			o, ok := m.Value.(jsonvalue.Object)
			if !ok && m.Value != nil {
				return nil, &toolgrade.FieldError{Path: m.Key, Err: fmt.Errorf("want a mapping, got %s", jsonvalue.Kind(m.Value))}
			}
			if m.Key == "judge" {
				c.Judge = o
			} else {
				c.Reports = o
			}
		case "datasets":
			list, ok := m.Value.([]any)
			if !ok {
				list = []any{m.Value}
			}
			for i, e := range list {
				s, ok := e.(string)
				if !ok {
					return nil, &toolgrade.FieldError{Path: fmt.Sprintf("datasets[%d]", i), Err: fmt.Errorf("want a path, got %s", jsonvalue.Kind(e))}
				}
				c.Datasets = append(c.Datasets, s)
			}
		case "tools":
			s, ok := m.Value.(string)
			if !ok {
				return nil, &toolgrade.FieldError{Path: "tools", Err: fmt.Errorf("want a path, got %s", jsonvalue.Kind(m.Value))}
			}
			c.Tools = s
		default:
			return nil, &toolgrade.FieldError{Path: m.Key, Err: fmt.Errorf("unknown key (want %s)", strings.Join(sniff.ConfigKeys, ", "))}
		}
	}
	return c, nil
}

// notConfig returns an error when v, read from a config file (or, at line,
// its first line), is one of toolgrade's other files: cases or results.
func notConfig(v any, line int) error {
	at := ""
	if line > 0 {
		at = "line " + strconv.Itoa(line) + ": "
	}
	switch v := v.(type) {
	case jsonvalue.Object:
		switch {
		case sniff.Document(v) == sniff.Result:
			return fmt.Errorf("%sa toolgrade results file, not a config (a result: %s); compare two runs' results with toolgrade compare BASE NEW", at, sniff.Keys(v, 6))
		case sniff.Document(v) == sniff.Config:
			return nil
		case dataset.Gradeable(v):
			return fmt.Errorf("%sa case file, not a config (a case: %s); give case files as arguments (toolgrade eval FILE), and a config of metric entries with --config (see docs/config.md)", at, sniff.Keys(v, 6))
		}
	case []any:
		if len(v) > 0 {
			if o, ok := v[0].(jsonvalue.Object); ok && dataset.Gradeable(o) {
				return fmt.Errorf("%sa case file, not a config (a list of cases); give case files as arguments (toolgrade eval FILE), and a config of metric entries with --config (see docs/config.md)", at)
			}
		}
	}
	return nil
}

// firstJSONLine returns the value of data's first line when it is a JSON
// object followed by more text: the start of a JSON Lines file. next is
// the line the text after it starts on.
func firstJSONLine(data []byte) (v any, next int, ok bool) {
	line, rest, _ := bytes.Cut(data, []byte("\n"))
	v, err := jsonvalue.Parse(line)
	_, isObject := v.(jsonvalue.Object)
	trimmed := bytes.TrimLeft(rest, " \t\r\n")
	next = 2 + bytes.Count(rest[:len(rest)-len(trimmed)], []byte("\n"))
	return v, next, err == nil && isObject && len(trimmed) > 0
}

// Env holds what metrics share across a run.
type Env struct {
	// Judge is the LLM judge, if one is configured.
	Judge judge.Judge
	// Tools are the run's tool definitions (--tools), for cases that give
	// none of their own.
	Tools []toolgrade.Tool
	// Server is the live tool server (an MCP server: --mcp, or tools:
	// mcp:...) that metrics executing calls run them on.
	Server toolgrade.ToolServer
	// AllowExecute says calls may run for real (--allow-execute): metrics
	// that execute calls refuse to be built without it.
	AllowExecute bool
	// AllowTools, when set, is the allow-list of tools calls may run on
	// (--allow-tools), for metric entries that give none of their own.
	AllowTools []string
}

// executor returns the server calls may run on and the tools they may run
// (allow, else the run's AllowTools), or why they may not run.
func (env *Env) executor(what string, allow []string) (toolgrade.ToolServer, []string, error) {
	if env.Server == nil {
		return nil, nil, fmt.Errorf("%s runs calls on an MCP server: name one with --mcp (or tools: mcp:... in the config)", what)
	}
	if !env.AllowExecute {
		return nil, nil, fmt.Errorf("%s runs the calls for real on %v: pass --allow-execute to allow it", what, env.Server)
	}
	if allow == nil {
		allow = env.AllowTools
	}
	return env.Server, allow, nil
}

// Build creates the metrics of the config.
func (c *Config) Build(env *Env) ([]toolgrade.Metric, error) {
	var out []toolgrade.Metric
	for i, e := range c.Metrics {
		m, err := Metric(e, env)
		if err != nil {
			return nil, toolgrade.InField(fmt.Sprintf("metrics[%d]", i), err)
		}
		out = append(out, m)
	}
	return out, nil
}

// A builder makes a metric from its options, as JSON.
type builder struct {
	options reflect.Type // the options struct, whose JSON tags are the entry's keys
	make    func(opts []byte, env *Env) (toolgrade.Metric, error)
}

// profiles maps each tool-correctness profile to its builder.
var profiles = map[string]builder{
	"default": toolCorrectness, // with a judge: min with tool selection (judge.go)
	"axion":   build(axion.New),
	"adk":     build(adk.New),
	"deepfabric": withEnv(func(o deepfabric.Options, env *Env) (*deepfabric.Metric, error) {
		if o.Execution == deepfabric.ExecutionMCP {
			var err error
			if o.Server, o.AllowTools, err = env.executor("execution: mcp", o.AllowTools); err != nil {
				return nil, err
			}
		}
		return deepfabric.New(o)
	}),
	"deepeval": withEnv(func(o deepeval.Options, env *Env) (*deepeval.Metric, error) {
		o.Judge = env.Judge
		return deepeval.New(o)
	}),
	"agentevals": build(agentevals.New),
	"openevals":  build(openevals.New),
	"evalite":    build(evalite.New),
	"bfcl":       build(bfcl.New),
	"ragas":      build(ragas.New),
	"mastra":     build(mastra.New),
	"promptfoo":  build(promptfoo.New),
}

// build adapts a constructor taking an options struct, decoded strictly
// from the entry's keys.
func build[O any, M toolgrade.Metric](newMetric func(O) (M, error)) builder {
	return withEnv(func(o O, _ *Env) (M, error) { return newMetric(o) })
}

// withEnv is build for a constructor that takes the run's environment too.
func withEnv[O any, M toolgrade.Metric](newMetric func(O, *Env) (M, error)) builder {
	return builder{options: reflect.TypeFor[O](), make: func(opts []byte, env *Env) (toolgrade.Metric, error) {
		var o O
		if err := toolgrade.DecodeOptions(opts, &o); err != nil {
			return nil, err
		}
		m, err := newMetric(o, env)
		if err != nil {
			return nil, err // not m: a nil *T in an interface is not nil
		}
		return m, nil
	}}
}

// otherMetrics maps metric names other than tool_correctness to their
// builders; they have no profiles.
var otherMetrics = map[string]builder{
	"tool_selection":       judged(judge.NewToolSelection),
	"argument_correctness": judged(judge.NewArgumentCorrectness),
	"execution_success": withEnv(func(o execution.Options, env *Env) (*execution.Metric, error) {
		var err error
		if o.Server, o.AllowTools, err = env.executor("execution_success", o.AllowTools); err != nil {
			return nil, err
		}
		return execution.New(o)
	}),
	"grounding": withEnv(func(o grounding.Options, env *Env) (*grounding.Metric, error) {
		o.Tools = env.Tools
		return grounding.New(o)
	}),
	"tool_process": withEnv(func(o process.Options, env *Env) (*process.Metric, error) {
		o.Tools = env.Tools
		return process.New(o)
	}),
	"state_match": build(state.New),
	"schema": withEnv(func(o schema.Options, env *Env) (*schema.Metric, error) {
		o.Tools = env.Tools
		return schema.New(o)
	}),
}

// Metrics lists the metric names: tool_correctness, the default, then
// the others in order.
func Metrics() []string {
	names := []string{"tool_correctness"}
	for n := range otherMetrics {
		names = append(names, n)
	}
	slices.Sort(names[1:])
	return names
}

// Profiles lists the profile names.
func Profiles() []string {
	names := make([]string, 0, len(profiles))
	for n := range profiles {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Metric builds one metric from its entry: "metric" (default
// tool_correctness), "profile" (for tool_correctness; default "default"),
// "name" (a name for the results), and the options of the profile or
// metric.
func Metric(entry jsonvalue.Object, env *Env) (toolgrade.Metric, error) {
	if env == nil {
		env = &Env{}
	}
	profile, name, metric := "", "", "tool_correctness"
	opts := jsonvalue.Object{}
	for _, m := range entry {
		switch m.Key {
		case "profile", "name", "metric":
			s, ok := m.Value.(string)
			if !ok {
				return nil, &toolgrade.FieldError{Path: m.Key, Err: fmt.Errorf("want a string, got %s", jsonvalue.Kind(m.Value))}
			}
			switch m.Key {
			case "profile":
				profile = s
			case "name":
				name = s
			case "metric":
				metric = s
			}
		case "pass_k": // a gate over trials, applied by the reports (passk.go)
			if _, err := PassKOf(entry); err != nil {
				return nil, err
			}
		default:
			opts = append(opts, m)
		}
	}
	var b builder
	if metric == "tool_correctness" {
		if profile == "" {
			profile = "default"
		}
		var ok bool
		if b, ok = profiles[profile]; !ok {
			if near, ok := suggest.Nearest(profile, Profiles()); ok {
				return nil, &toolgrade.FieldError{Path: "profile", Err: fmt.Errorf("unknown profile %q; did you mean %q?", profile, near)}
			}
			return nil, &toolgrade.FieldError{Path: "profile", Err: fmt.Errorf("unknown profile %q (want %s)", profile, strings.Join(Profiles(), ", "))}
		}
	} else {
		var ok bool
		if b, ok = otherMetrics[metric]; !ok {
			names := Metrics()
			if near, ok := suggest.Nearest(metric, names); ok {
				return nil, &toolgrade.FieldError{Path: "metric", Err: fmt.Errorf("unknown metric %q; did you mean %q?", metric, near)}
			}
			return nil, &toolgrade.FieldError{Path: "metric", Err: fmt.Errorf("unknown metric %q (want %s)", metric, strings.Join(names, ", "))}
		}
		if profile != "" && profile != "default" {
			return nil, &toolgrade.FieldError{Path: "profile", Err: fmt.Errorf("metric %s has no profiles", metric)}
		}
	}
	if metric == "tool_correctness" {
		coerceLists(profile, opts)
	}
	m, err := b.make(jsonvalue.Append(nil, opts), env)
	if err != nil {
		if metric != "tool_correctness" {
			return nil, fmt.Errorf("metric %s: %w%s", metric, err, unknownOptionHint(err, "", fieldNames(b.options)))
		}
		return nil, fmt.Errorf("profile %s: %w%s", profile, err, unknownOptionHint(err, profile, optionNames(profile)))
	}
	if name != "" {
		m = toolgrade.Named(m, name)
	}
	return m, nil
}
