package serve

import (
	"slices"
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// extract answers an extract request: the calls of its trace.
func extract(req jsonvalue.Object) ([]byte, error) {
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
	b = append(b, ']')
	if len(tr.Notes) > 0 {
		b = jsonvalue.AppendStrings(append(b, `,"notes":`...), tr.Notes)
	}
	return b, nil
}
