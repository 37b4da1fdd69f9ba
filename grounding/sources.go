package grounding

import (
	"encoding/json"
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A source is one place values may come from (the case's input, a turn's
// input, a call's output, a tool's schema), read into what values are
// looked up in.
type source struct {
	texts []string        // every string, object key and number literal in it
	lower []string        // texts in lower case, made when an email is first looked up
	nums  map[string]bool // canonical numbers: JSON numbers and numbers written in texts
	// runs are the digits of digit runs written with separators ("555
	// 123-4567" gives "5551234567"), for phone and card numbers.
	runs []string
}

// maxEmbedded bounds how deep JSON held in strings is read.
const maxEmbedded = 2

// maxWalkDepth bounds recursion over values built in code: parsed values
// are bounded by the parser.
const maxWalkDepth = 10000

// newSource reads every string and number in v: strings are also parsed
// as JSON when they hold an object or a list, so that an output serialized
// as text is read both as written and as its values.
func newSource(v any) *source {
	s := &source{nums: map[string]bool{}}
	s.add(model(v), 0, 0)
	return s
}

func (s *source) add(v any, depth, embedded int) {
	if depth > maxWalkDepth {
		return
	}
	switch v := v.(type) {
	case string:
		s.addText(v, embedded)
	case json.Number:
		s.texts = append(s.texts, string(v))
		if c, _, ok := canonNumber(string(v)); ok {
			s.nums[c] = true
		}
	case []any:
		for _, e := range v {
			s.add(e, depth+1, embedded)
		}
	case jsonvalue.Object:
		for i := range v {
			s.addText(v[i].Key, embedded)
			s.add(v[i].Value, depth+1, embedded)
		}
	}
}

func (s *source) addText(t string, embedded int) {
	if t == "" {
		return
	}
	s.texts = append(s.texts, t)
	s.scanNumbers(t)
	if embedded < maxEmbedded {
		if v, ok := embeddedJSON(t); ok {
			s.add(v, 0, embedded+1)
		}
	}
}

// embeddedJSON parses a string that holds a JSON object or list.
func embeddedJSON(t string) (any, bool) {
	t = strings.TrimSpace(t)
	if len(t) < 2 || !(t[0] == '{' && t[len(t)-1] == '}' || t[0] == '[' && t[len(t)-1] == ']') {
		return nil, false
	}
	v, err := jsonvalue.ParseString(t)
	if err != nil {
		return nil, false
	}
	return v, true
}

// scanNumbers records the numbers written in t: runs of digits with an
// optional fraction ("12.50"), also read with thousands separators
// ("1,234.50" gives 1234.5 as well as 1 and 234.5); and the digits of runs
// that separators split (spaces, hyphens, slashes, parentheses).
func (s *source) scanNumbers(t string) {
	frac := func(at int) (string, int) {
		if at+1 < len(t) && t[at] == '.' && isDigit(t[at+1]) {
			e := digitsEnd(t, at+1)
			return t[at:e], e
		}
		return "", at
	}
	var grouped []byte
	groupedUntil := 0 // the groups before this were read with the number they end
	for i := 0; i < len(t); {
		if !isDigit(t[i]) {
			i++
			continue
		}
		j := digitsEnd(t, i)
		f, end := frac(j)
		s.addNumber(t[i:j] + f)
		if i >= groupedUntil {
			// Thousands groups: ",ddd" not followed by another digit.
			grouped = append(grouped[:0], t[i:j]...)
			k := j
			for k+4 <= len(t) && t[k] == ',' && allDigits(t[k+1:k+4]) && (k+4 == len(t) || !isDigit(t[k+4])) {
				grouped = append(grouped, t[k+1:k+4]...)
				k += 4
			}
			if k > j {
				gf, _ := frac(k)
				s.addNumber(string(grouped) + gf)
				groupedUntil = k
			}
		}
		s.scanRun(t, i)
		i = end
	}
}

func (s *source) addNumber(lit string) {
	if c, _, ok := canonNumber(lit); ok {
		s.nums[c] = true
	}
}

// scanRun records the digits of the run starting at i when separators
// split it: "555 123-4567", "(555) 123 4567", "4111-1111-1111-1111". A
// separator is up to two of " -/()" between digits.
func (s *source) scanRun(t string, i int) {
	if i > 0 && isRunDigitBefore(t, i) {
		return // inside a run already recorded
	}
	var digits []byte
	split := false
	for i < len(t) {
		j := digitsEnd(t, i)
		digits = append(digits, t[i:j]...)
		k := j
		for k < len(t) && k-j < 2 && strings.IndexByte(" -/()", t[k]) >= 0 {
			k++
		}
		if k == j || k == len(t) || !isDigit(t[k]) {
			break
		}
		split = true
		i = k
	}
	if split {
		s.runs = append(s.runs, string(digits))
	}
}

// isRunDigitBefore reports whether a digit precedes position i across at
// most two separators, so that i continues a run.
func isRunDigitBefore(t string, i int) bool {
	for k := i - 1; k >= 0 && i-k <= 3; k-- {
		if isDigit(t[k]) {
			return true
		}
		if strings.IndexByte(" -/()", t[k]) < 0 {
			return false
		}
	}
	return false
}

func digitsEnd(t string, i int) int {
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	return i
}

// has reports whether the source grounds v.
func (s *source) has(v *value) bool {
	switch v.kind {
	case kindEmail:
		if s.lower == nil {
			s.lower = make([]string, len(s.texts))
			for i, t := range s.texts {
				s.lower[i] = strings.ToLower(t)
			}
		}
		want := strings.ToLower(v.text)
		for _, t := range s.lower {
			if strings.Contains(t, want) {
				return true
			}
		}
		return false
	case kindNumber:
		// Numbers compare by value, not by their text.
	default:
		for _, t := range s.texts {
			if strings.Contains(t, v.text) {
				return true
			}
		}
	}
	if v.canon != "" && s.nums[v.canon] {
		return true
	}
	if v.digits != "" {
		if s.nums[canonDigits(v.digits)] {
			return true
		}
		for _, r := range s.runs {
			if strings.Contains(r, v.digits) {
				return true
			}
		}
	}
	return false
}

// canonDigits is a digit sequence as canonNumber writes it.
func canonDigits(d string) string {
	if d = strings.TrimLeft(d, "0"); d == "" {
		return "0"
	}
	return d
}

// model converts a value built in code (maps, ints) into the value model;
// a value that cannot be converted gives nil.
func model(v any) any {
	if jsonvalue.InModel(v) {
		return v
	}
	m, err := jsonvalue.From(v)
	if err != nil {
		return nil
	}
	return m
}
