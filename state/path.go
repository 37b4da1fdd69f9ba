package state

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A Path is a JSONPath expression that selects values of a state, as
// [ParsePath] reads it. The zero Path is "$", the whole state.
type Path struct {
	segs []segment
	deep bool // some segment is a descendant one
}

// A segment is one step of a Path: a member name, a list index or a
// wildcard, after "." or "[...]" (descendant false) or after ".."
// (descendant true: at any depth below).
type segment struct {
	kind       segKind
	name       string
	index      int
	descendant bool
}

type segKind uint8

const (
	segName segKind = iota
	segIndex
	segWildcard
)

// ParsePath reads a JSONPath expression of this subset of RFC 9535:
//
//	$               the whole state (every path starts with it)
//	.name           the member "name" of an object: a name of letters,
//	                digits and "_" (and any non-ASCII letter), not
//	                starting with a digit
//	["name"]        the member "name", any key: JSON string escapes; in
//	                single quotes ['name'] \' escapes a quote
//	[n]             the element n of a list, from 0
//	[*] or .*       every member of an object and every element of a list
//	..name, ..*,    the same selectors at any depth below: $..ts is every
//	..[n], ..["k"]  member "ts" of every object in the state
//
// Blank space is allowed inside brackets. Negative indexes, slices
// ([0:2]), unions ([0,1]) and filters ([?...]) are not supported, and are
// errors. A name never selects a list element, nor an index an object
// member: $.rows[0] and $.rows["0"] differ.
func ParsePath(s string) (Path, error) {
	fail := func(i int, format string, args ...any) (Path, error) {
		return Path{}, fmt.Errorf("JSONPath %q: %s at offset %d", s, fmt.Sprintf(format, args...), i)
	}
	if !utf8.ValidString(s) {
		return Path{}, fmt.Errorf("JSONPath %q: not valid UTF-8", s)
	}
	if !strings.HasPrefix(s, "$") {
		return Path{}, fmt.Errorf(`JSONPath %q: want "$" at the start, as in "$.orders[*].status"`, s)
	}
	var p Path
	for i := 1; i < len(s); {
		seg := segment{}
		switch s[i] {
		case '.':
			i++
			if i < len(s) && s[i] == '.' {
				seg.descendant = true
				i++
			}
			switch {
			case i >= len(s):
				return fail(i, `want a name or "*" after "."`)
			case s[i] == '*':
				seg.kind = segWildcard
				i++
			case s[i] == '[' && seg.descendant:
				var err error
				if seg, i, err = bracket(s, i, true); err != nil {
					return fail(i, "%v", err)
				}
			default:
				n := shorthandLen(s[i:])
				if n == 0 {
					if s[i] == '[' {
						return fail(i, `"[" right after "." (write $.a["b"] or $.a.b, not $.a.["b"])`)
					}
					return fail(i, `want a name of letters, digits and "_" or "*" after "." (quote other keys: ["order-id"])`)
				}
				seg.name = s[i : i+n]
				i += n
			}
		case '[':
			var err error
			if seg, i, err = bracket(s, i, false); err != nil {
				return fail(i, "%v", err)
			}
		default:
			return fail(i, `unexpected %q (want ".name", "[...]" or "..")`, s[i:i+1])
		}
		p.segs = append(p.segs, seg)
		p.deep = p.deep || seg.descendant
	}
	return p, nil
}

// bracket reads a bracketed selector starting at s[i] == '['. It returns
// the segment and the offset after "]", or the offset of the error.
func bracket(s string, i int, descendant bool) (segment, int, error) {
	seg := segment{descendant: descendant}
	i = skipBlank(s, i+1)
	if i >= len(s) {
		return seg, i, errors.New(`unterminated "["`)
	}
	switch c := s[i]; {
	case c == '*':
		seg.kind = segWildcard
		i++
	case c == '"' || c == '\'':
		name, n, err := quoted(s[i:])
		if err != nil {
			return seg, i, err
		}
		seg.name = name
		i += n
	case c >= '0' && c <= '9':
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(s[i:j])
		if err != nil {
			return seg, i, fmt.Errorf("index %s out of range", s[i:j])
		}
		seg.kind, seg.index = segIndex, n
		i = j
	case c == '-':
		return seg, i, errors.New("negative indexes are not supported")
	case c == '?':
		return seg, i, errors.New("filters are not supported")
	case c == ':':
		return seg, i, errors.New("slices are not supported")
	default:
		return seg, i, fmt.Errorf(`want "*", an index or a quoted name in "[...]", got %q`, s[i:i+1])
	}
	i = skipBlank(s, i)
	switch {
	case i >= len(s):
		return seg, i, errors.New(`unterminated "["`)
	case s[i] == ',':
		return seg, i, errors.New("unions are not supported")
	case s[i] == ':':
		return seg, i, errors.New("slices are not supported")
	case s[i] != ']':
		return seg, i, fmt.Errorf(`want "]", got %q`, s[i:i+1])
	}
	return seg, i + 1, nil
}

// quoted reads the quoted name at the start of s and returns it with the
// length of its quoted form.
func quoted(s string) (string, int, error) {
	q := s[0]
	end := 1
	for end < len(s) && s[end] != q {
		if s[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(s) {
		return "", 0, errors.New("unterminated string")
	}
	lit := s[1:end]
	if q == '\'' {
		// As a JSON string: \' is a quote, and " needs escaping.
		var b strings.Builder
		for i := 0; i < len(lit); i++ {
			switch {
			case lit[i] == '\\' && i+1 < len(lit) && lit[i+1] == '\'':
				b.WriteByte('\'')
				i++
			case lit[i] == '\\' && i+1 < len(lit):
				b.WriteString(lit[i : i+2])
				i++
			case lit[i] == '"':
				b.WriteString(`\"`)
			default:
				b.WriteByte(lit[i])
			}
		}
		lit = b.String()
	}
	v, err := jsonvalue.ParseString(`"` + lit + `"`)
	name, ok := v.(string)
	if err != nil || !ok {
		return "", 0, errors.New("bad string (JSON escapes only)")
	}
	return name, end + 1, nil
}

func skipBlank(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// shorthandLen is the length of the member name at the start of s that
// may follow "." unquoted: RFC 9535's member-name-shorthand.
func shorthandLen(s string) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && n > 0:
		case r >= utf8.RuneSelf && r != utf8.RuneError:
		default:
			return n
		}
		n += size
	}
	return n
}

// String writes the path in a canonical form that ParsePath reads back:
// names as .name when they can be, else as ["key"]; wildcards as [*]
// (..* after "..").
func (p Path) String() string {
	b := []byte{'$'}
	for _, seg := range p.segs {
		if seg.descendant {
			b = append(b, ".."...)
		}
		switch seg.kind {
		case segWildcard:
			if seg.descendant {
				b = append(b, '*')
			} else {
				b = append(b, "[*]"...)
			}
		case segIndex:
			b = appendIndex(b, seg.index)
		default:
			b = appendName(b, seg.name, !seg.descendant)
		}
	}
	return string(b)
}

func appendIndex(b []byte, i int) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(i), 10)
	return append(b, ']')
}

// appendName appends a member name as .name (or bare name, without dot)
// when it is a shorthand, else as ["name"].
func appendName(b []byte, name string, dot bool) []byte {
	if name != "" && shorthandLen(name) == len(name) {
		if dot {
			b = append(b, '.')
		}
		return append(b, name...)
	}
	b = append(b, '[')
	b = jsonvalue.AppendString(b, name)
	return append(b, ']')
}

// A step is one step of a concrete location in a state: the member key of
// an object (index < 0) or the index of a list element.
type step struct {
	key   string
	index int
}

// formatSteps writes a concrete location as a JSONPath: $.orders[0].status,
// $["key with space"].
func formatSteps(steps []step) string {
	b := []byte{'$'}
	for _, st := range steps {
		if st.index >= 0 {
			b = appendIndex(b, st.index)
		} else {
			b = appendName(b, st.key, true)
		}
	}
	return string(b)
}

func (seg *segment) selects(st step) bool {
	switch seg.kind {
	case segWildcard:
		return true
	case segIndex:
		return st.index == seg.index
	}
	return st.index < 0 && st.key == seg.name
}

// matches reports whether p selects the value at the location steps.
// scratch is reused between calls; it returns the grown buffer.
func (p Path) matches(steps []step, scratch []bool) (bool, []bool) {
	n := len(steps)
	if len(p.segs) > n || (!p.deep && len(p.segs) != n) {
		return false, scratch // each segment selects one step
	}
	if len(p.segs) == 0 {
		return true, scratch
	}
	// cur[j]: the segments so far select the location's first j steps.
	if cap(scratch) < 2*(n+1) {
		scratch = make([]bool, 2*(n+1))
	}
	cur, next := scratch[:n+1], scratch[n+1:2*(n+1)]
	clear(cur)
	cur[0] = true
	for k := range p.segs {
		seg := &p.segs[k]
		clear(next)
		found, reach := false, false
		for j := 0; j < n; j++ {
			reach = cur[j] || (seg.descendant && reach)
			if reach && seg.selects(steps[j]) {
				next[j+1], found = true, true
			}
		}
		if !found {
			return false, scratch
		}
		cur, next = next, cur
	}
	return cur[n], scratch
}
