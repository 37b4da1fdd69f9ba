package sniff

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A DocKind is what a decoded document is, among toolgrade's own files
// that other readers are given by mistake.
type DocKind int

const (
	// Other is anything else: a case, a trace, tool definitions, ...
	Other DocKind = iota
	// Result is a result line, as toolgrade eval writes them: an object
	// with "id", "success" and a "metrics" list.
	Result
	// Config is a config file: a mapping whose keys are all config keys.
	Config
)

// ConfigKeys are the keys at the top of a config file.
var ConfigKeys = []string{"metrics", "workers", "judge", "datasets", "reports", "tools"}

// Document tells a result line and a config from other documents by their
// shape.
func Document(v any) DocKind {
	obj, ok := v.(jsonvalue.Object)
	if !ok || len(obj) == 0 {
		return Other
	}
	if metrics, ok := obj.Get("metrics"); ok && obj.Has("id") && obj.Has("success") {
		if _, isList := metrics.([]any); isList {
			return Result
		}
	}
	// "tools" alone is a case's or a tool file's key as much as a
	// config's.
	some := false
	for _, m := range obj {
		if !slices.Contains(ConfigKeys, m.Key) {
			return Other
		}
		some = some || m.Key != "tools"
	}
	if some {
		return Config
	}
	return Other
}

// Keys lists an object's keys for a message: at most max, then "…".
func Keys(obj jsonvalue.Object, max int) string {
	keys := make([]string, 0, min(len(obj), max+1))
	for i, m := range obj {
		if i == max {
			keys = append(keys, "…")
			break
		}
		keys = append(keys, m.Key)
	}
	return strings.Join(keys, ", ")
}

// CSV says whether line, a file's first line, is the header or a row of
// comma- or tab-separated values rather than JSON or YAML: two fields or
// more, and nothing YAML would read as a mapping, a list or a document
// marker. It returns "comma", "tab" or "semicolon", or "".
func CSV(line string) string {
	line = strings.TrimSpace(line)
	if line == "" || strings.ContainsAny(line[:1], "{[-#%") {
		return ""
	}
	if strings.Contains(line, ": ") || strings.HasSuffix(line, ":") {
		return ""
	}
	switch {
	case strings.Contains(line, "\t"):
		return "tab"
	case strings.Contains(line, ","):
		return "comma"
	case strings.Contains(line, ";"): // as spreadsheets write it where "," is the decimal point
		return "semicolon"
	}
	return ""
}

// Describe names a JSON value for a message: its kind, and, for a short
// scalar, the value ("the number 42", "the string \"id,input\"").
func Describe(v any) string {
	switch v := v.(type) {
	case json.Number:
		return "the number " + string(v)
	case string:
		if r := []rune(v); len(r) > 40 {
			v = string(r[:40]) + "…"
		}
		return "the string " + string(jsonvalue.AppendString(nil, v))
	case bool:
		if v {
			return "true"
		}
		return "false"
	case nil:
		return "null"
	case []any:
		return "an array"
	}
	return "an object"
}
