package config

import (
	"errors"
	"path/filepath"
	"reflect"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/match"
)

// JudgeSettings reads the judge section. A relative cache_dir is taken
// from the config file's directory.
func (c *Config) JudgeSettings() (judge.Settings, error) {
	var s judge.Settings
	if c == nil || len(c.Judge) == 0 {
		return s, nil
	}
	if err := toolgrade.DecodeOptions(jsonvalue.Append(nil, c.Judge), &s); err != nil {
		return s, toolgrade.InField("judge", err)
	}
	if s.CacheDir != "" && !filepath.IsAbs(s.CacheDir) && c.Dir != "" {
		s.CacheDir = filepath.Join(c.Dir, s.CacheDir)
	}
	return s, nil
}

// toolCorrectness builds the native tool_correctness metric; with a judge
// it also judges tool selection and scores the lower of the two (see
// judge.MinToolSelection).
var toolCorrectness = withEnv(func(o match.Options, env *Env) (toolgrade.Metric, error) {
	m, err := match.New(o)
	if err != nil || env.Judge == nil {
		return m, err
	}
	return &judge.MinToolSelection{Metric: m, Judge: env.Judge, Tools: env.Tools, Strict: m.Options().Strict}, nil
})

// judged adapts the constructor of a metric that needs the run's judge
// (and takes the run's tools for cases that list none).
func judged[M toolgrade.Metric](newMetric func(judge.Judge, []toolgrade.Tool, judge.Options) (M, error)) builder {
	return builder{options: reflect.TypeFor[judge.Options](), make: func(opts []byte, env *Env) (toolgrade.Metric, error) {
		if env.Judge == nil {
			return nil, errors.New("needs a judge: give --judge-model (and --judge-base-url for a server other than OpenAI), or a judge section in the config")
		}
		var o judge.Options
		if err := toolgrade.DecodeOptions(opts, &o); err != nil {
			return nil, err
		}
		m, err := newMetric(env.Judge, env.Tools, o)
		if err != nil {
			return nil, err // not m: a nil *T in an interface is not nil
		}
		return m, nil
	}}
}
