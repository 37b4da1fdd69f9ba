package trace

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// geminiStream follows a Gemini call whose arguments are streamed as
// partialArgs.
type geminiStream struct {
	open int // the call being streamed, or -1
	args any // its arguments so far
	// cont is the path of a string value the last piece said would continue.
	cont string
	bad  string // why the arguments could not be built, if they could not
}

// part reads a functionCall part that belongs to a streamed call. It
// reports whether it did; other parts are read as whole calls.
func (gs *geminiStream) part(b *builder, fc any, path string) (bool, error) {
	o, ok := fc.(jsonvalue.Object)
	if !ok {
		return false, nil
	}
	more, _ := get(o, "willContinue").(bool)
	_, hasPartial := o.Get("partialArgs")
	n, named := get(o, "name").(string)
	switch {
	case named && more && !o.Has("args"):
		gs.close(b)
		gs.open = b.add(o, toolgrade.Call{Name: n, ID: id(get(o, "id"))})
		gs.args = nil
	case named:
		gs.close(b)
		return false, nil // a whole call
	case gs.open < 0 && (hasPartial || len(o) == 0):
		if len(o) == 0 {
			return true, nil // an empty closing part with nothing open
		}
		return true, fieldError(path, "partialArgs without a functionCall that opened the call")
	case gs.open < 0:
		return false, nil
	}
	b.read(o) // a piece of the open call
	for i, pa := range list(o, "partialArgs") {
		if err := gs.apply(pa, index(join(path, "partialArgs"), i)); err != nil {
			return true, err
		}
	}
	if !more {
		gs.close(b)
	}
	return true, nil
}

// apply adds one partial argument.
func (gs *geminiStream) apply(pa any, path string) error {
	p, ok := get(pa, "jsonPath").(string)
	if !ok {
		return fieldError(join(path, "jsonPath"), "missing")
	}
	segs, err := parseJSONPath(p)
	if err != nil {
		gs.bad = fmt.Sprintf("%s: %v", p, err)
		return nil
	}
	var val any
	appendText := false
	switch {
	case has(pa, "stringValue"):
		s, _ := get(pa, "stringValue").(string)
		val, appendText = s, gs.cont == p
	case has(pa, "numberValue"):
		val = get(pa, "numberValue")
		if f, ok := val.(float64); ok {
			val = json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
	case has(pa, "boolValue"):
		val = get(pa, "boolValue")
	case has(pa, "nullValue"):
		val = nil
	default:
		gs.bad = fmt.Sprintf("%s: no value", p)
		return nil
	}
	gs.cont = ""
	if more, _ := get(pa, "willContinue").(bool); more {
		gs.cont = p
	}
	gs.args, err = setPath(gs.args, segs, val, appendText)
	if err != nil {
		gs.bad = fmt.Sprintf("%s: %v", p, err)
	}
	return nil
}

// close finishes the streamed call, if one is open.
func (gs *geminiStream) close(b *builder) {
	if gs.open < 0 {
		return
	}
	c := &b.calls[gs.open]
	switch {
	case gs.bad != "":
		c.Args, c.Invalid = nil, true
		c.ArgsRaw = "partialArgs: " + gs.bad
	case gs.args != nil:
		c.Args = gs.args
	default:
		c.Args = jsonvalue.Object{}
	}
	gs.open, gs.args, gs.cont, gs.bad = -1, nil, "", ""
}

// A pathSeg is one step of a JSON path: a key, or an index when key is
// empty and isIndex is set.
type pathSeg struct {
	key     string
	index   int
	isIndex bool
}

// parseJSONPath reads the paths Gemini gives: $.a.b, $.a[0], $['a b'].
func parseJSONPath(p string) ([]pathSeg, error) {
	rest, ok := strings.CutPrefix(p, "$")
	if !ok {
		return nil, fmt.Errorf("want a path starting with $")
	}
	var segs []pathSeg
	for rest != "" {
		switch rest[0] {
		case '.':
			rest = rest[1:]
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			if end == 0 {
				return nil, fmt.Errorf("empty key")
			}
			segs = append(segs, pathSeg{key: rest[:end]})
			rest = rest[end:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed [")
			}
			inner := rest[1:end]
			if len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0] {
				segs = append(segs, pathSeg{key: inner[1 : len(inner)-1]})
			} else if n, err := strconv.Atoi(inner); err == nil && n >= 0 {
				segs = append(segs, pathSeg{index: n, isIndex: true})
			} else {
				return nil, fmt.Errorf("bad index %q", inner)
			}
			rest = rest[end+1:]
		default:
			return nil, fmt.Errorf("unexpected %q", rest[:1])
		}
	}
	return segs, nil
}

// maxPartialIndex bounds array indexes, so a hostile path cannot make a
// huge array.
const maxPartialIndex = 1 << 16

// setPath sets the value at segs in v (building objects and arrays as
// needed) and returns the new v; with appendText, a string already there
// is extended.
func setPath(v any, segs []pathSeg, val any, appendText bool) (any, error) {
	if len(segs) == 0 {
		if appendText {
			if s, ok := v.(string); ok {
				return s + val.(string), nil
			}
		}
		return val, nil
	}
	sg := segs[0]
	if sg.isIndex {
		if sg.index > maxPartialIndex {
			return nil, fmt.Errorf("index %d too large", sg.index)
		}
		l, ok := v.([]any)
		if v != nil && !ok {
			return nil, fmt.Errorf("index into a %s", jsonvalue.Kind(v))
		}
		for len(l) <= sg.index {
			l = append(l, nil)
		}
		x, err := setPath(l[sg.index], segs[1:], val, appendText)
		if err != nil {
			return nil, err
		}
		l[sg.index] = x
		return l, nil
	}
	o, ok := v.(jsonvalue.Object)
	if v != nil && !ok {
		return nil, fmt.Errorf("key %q in a %s", sg.key, jsonvalue.Kind(v))
	}
	cur, _ := o.Get(sg.key)
	x, err := setPath(cur, segs[1:], val, appendText)
	if err != nil {
		return nil, err
	}
	o.Set(sg.key, x)
	return o, nil
}
