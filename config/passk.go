package config

import (
	"encoding/json"
	"fmt"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/reliability"
)

// PassKOf reads the entry's reliability gate, `pass_k: {k: 3, min: 0.8}`;
// nil when it has none.
func PassKOf(entry jsonvalue.Object) (*reliability.PassK, error) {
	v, ok := entry.Get("pass_k")
	if !ok || v == nil {
		return nil, nil
	}
	fail := func(path, format string, args ...any) error {
		return &toolgrade.FieldError{Path: path, Err: fmt.Errorf(format, args...)}
	}
	obj, ok := v.(jsonvalue.Object)
	if !ok {
		return nil, fail("pass_k", "want {k: N, min: RATE}, got %s", jsonvalue.Kind(v))
	}
	g := &reliability.PassK{}
	seen := map[string]bool{}
	for _, m := range obj {
		n, isNum := m.Value.(json.Number)
		f := jsonvalue.NumberFloat(n)
		switch m.Key {
		case "k":
			if !isNum || f < 1 || f != float64(int64(f)) || f > 1e6 {
				return nil, fail("pass_k.k", "want a whole number of trials from 1, got %s", jsonvalue.Append(nil, m.Value))
			}
			g.K = int(f)
		case "min":
			if !isNum || f < 0 || f > 1 {
				return nil, fail("pass_k.min", "want a rate from 0 to 1, got %s", jsonvalue.Append(nil, m.Value))
			}
			g.Min = f
		default:
			return nil, fail("pass_k."+m.Key, "unknown key (want k and min)")
		}
		seen[m.Key] = true
	}
	for _, k := range []string{"k", "min"} {
		if !seen[k] {
			return nil, fail("pass_k", "missing %s (want {k: N, min: RATE}, such as {k: 3, min: 0.8})", k)
		}
	}
	return g, nil
}
