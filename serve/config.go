package serve

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// readConfig answers a config request: the config file at path (YAML or
// JSON, as toolgrade eval --config reads it), as JSON a host can send back
// as an evaluate request's config. Paths in it are resolved as eval
// resolves them, from the file's directory: datasets become the files
// they name (globs expanded; one that names no file is an error), and the
// judge's cache_dir an absolute path. With "datasets": false the
// datasets are not read (a host that has cases of its own, as case files
// on eval's command line replace them). The sections evaluate does not take
// (workers, reports, tools) are passed on as written, so that the host
// decides, and says, what it leaves out.
func readConfig(req jsonvalue.Object) ([]byte, error) {
	pv, _ := req.Get("path")
	path, ok := pv.(string)
	if !ok || path == "" {
		return nil, badField("path", "want the path of a config file, got %s", jsonvalue.Kind(pv))
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, badField("path", "%v", err)
	}
	c, err := config.Load(path) // errors name the file as the host named it
	if err != nil {
		return nil, &requestError{Field: "path", Err: err}
	}
	c.Dir = filepath.Dir(abs) // the paths it gives are absolute
	readDatasets := true
	if dv, ok := req.Get("datasets"); ok {
		b, isBool := dv.(bool)
		if !isBool {
			return nil, badField("datasets", "want false (leave the config's datasets unread) or true, got %s", jsonvalue.Kind(dv))
		}
		readDatasets = b
	}
	out := jsonvalue.Object{}
	if len(c.Metrics) > 0 {
		entries := make([]any, len(c.Metrics))
		for i, e := range c.Metrics {
			entries[i] = e
		}
		out.Set("metrics", entries)
	}
	if len(c.Judge) > 0 {
		s, err := c.JudgeSettings()
		if err != nil {
			return nil, &requestError{Field: "path", Err: fmt.Errorf("%s: %w", path, err)}
		}
		judge := append(jsonvalue.Object(nil), c.Judge...)
		if s.CacheDir != "" {
			judge.Set("cache_dir", s.CacheDir)
		}
		out.Set("judge", judge)
	}
	if len(c.Datasets) > 0 && readDatasets {
		files, err := c.DatasetFiles()
		if err != nil {
			return nil, &requestError{Field: "path", Err: fmt.Errorf("%s: %w", path, err)}
		}
		list := make([]any, len(files))
		for i, f := range files {
			list[i] = f
		}
		out.Set("datasets", list)
	}
	if c.Workers != 0 {
		out.Set("workers", json.Number(strconv.Itoa(c.Workers)))
	}
	if c.Reports != nil {
		out.Set("reports", c.Reports)
	}
	if c.Tools != "" {
		out.Set("tools", c.Tools)
	}
	return jsonvalue.Append([]byte(`"result":`), out), nil
}
