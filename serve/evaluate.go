package serve

import (
	"context"
	"fmt"
	"strconv"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/openai"
)

// servedConfig is a request config's metrics, and the case fields none of
// them reads (see config.NotGraded).
type servedConfig struct {
	metrics   []toolgrade.Metric
	notGraded map[string]string
}

// maxCachedConfigs bounds the metric cache; it is emptied when full.
const maxCachedConfigs = 64

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
func (s *Server) judgeEnv(v any) (*config.Env, error) {
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
	if err := s.allowJudge(&settings); err != nil {
		return nil, err
	}
	jd, err := openai.OpenJudge(settings, openai.Host{Getenv: s.secrets.Getenv(s.Getenv), Secrets: s.secrets, Warn: s.Warn})
	if err != nil {
		return nil, &requestError{Field: "config.judge", Err: err}
	}
	return &config.Env{Judge: jd}, nil
}

// metricsFor builds (or reuses) the metrics of a request's config.
func (s *Server) metricsFor(v any, present bool) (servedConfig, error) {
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
	if s.metrics == nil || len(s.metrics) >= maxCachedConfigs {
		s.metrics = make(map[string]servedConfig)
	}
	sc := servedConfig{metrics: ms, notGraded: config.NotGraded(ms)}
	s.metrics[key] = sc
	return sc, nil
}

// caseRecord is one case of a request, decoded and checked (as toolgrade
// eval checks a case file's) on Evaluate's workers.
type caseRecord struct {
	index   int // in the request
	id      string
	v       any
	ch      *dataset.Checker
	metrics []toolgrade.Metric
}

func (r *caseRecord) Decode() (*toolgrade.Case, error) {
	where := "cases[" + strconv.Itoa(r.index) + "]"
	c, err := dataset.DecodeCaseFor(r.v, r.metrics)
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

func (s *Server) evaluate(ctx context.Context, req jsonvalue.Object) ([]byte, error) {
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
		records[i] = &caseRecord{index: i, id: "case-" + strconv.Itoa(offset+i), v: c, ch: ch, metrics: sc.metrics}
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
	if err := toolgrade.Evaluate(ctx, seq, sc.metrics, emit, toolgrade.Workers(s.Workers)); err != nil {
		return nil, err
	}
	return append(b, ']'), nil
}
