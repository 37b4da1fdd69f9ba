package snapshot

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade/grounding"
	"github.com/toolgrade/toolgrade/internal/lazyregexp"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A volatility says why a value changes from run to run; "" for a value
// that does not.
type volatility string

var (
	// ISO 8601 date-times in extended ("2025-03-06T14:30:00Z", a space for
	// the T as RFC 3339 allows) and basic form ("20250306T143000Z"), and
	// calendar dates ("2025-03-06").
	dateTimeRe = lazyregexp.New(`^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$` +
		`|^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?:\d{2})?)?$`)
	dateRe = lazyregexp.New(`^(\d{4})-(\d{2})-(\d{2})$`)
)

// volatile says whether v, the value of the argument named key, is one
// that changes from run to run: an ISO 8601 date-time or date, a UUID, the
// value of an argument named as an idempotency key or nonce, or a Unix
// time under an argument named as a time.
func volatile(key string, v any) volatility {
	switch v := v.(type) {
	case string:
		switch {
		case isDateTime(v):
			return "an ISO 8601 date-time"
		case isDate(v):
			return "an ISO 8601 date"
		case isUUID(v):
			return "a UUID"
		}
		if k := keyKind(key); k != "" && strings.TrimSpace(v) != "" {
			return volatility(k)
		}
		if isUnixTimeKey(key) && isUnixTime(v) {
			return "a Unix time"
		}
	case json.Number:
		if k := keyKind(key); k != "" {
			return volatility(k)
		}
		if isUnixTimeKey(key) && isUnixTime(string(v)) {
			return "a Unix time"
		}
	}
	return ""
}

func isDateTime(s string) bool {
	m := dateTimeRe.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	if m[1] == "" { // the basic form
		m = append(m[:1], m[6:]...)
	}
	return validDate(m[2], m[3]) && inRange(m[4], 0, 24) && inRange(m[5], 0, 59)
}

func isDate(s string) bool {
	m := dateRe.FindStringSubmatch(s)
	return m != nil && validDate(m[2], m[3])
}

func validDate(month, day string) bool { return inRange(month, 1, 12) && inRange(day, 1, 31) }

func inRange(s string, lo, hi int) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= lo && n <= hi
}

// isUUID reports a UUID in its canonical text, 8-4-4-4-12 hex digits.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// keyKind says what an argument named key is made fresh for every request
// ("an idempotency key"), or "". Names compare in lower case without "_",
// "-" and spaces, so idempotency_key, Idempotency-Key and idempotencyKey
// are one.
func keyKind(key string) string {
	k := normalKey(key)
	switch {
	case strings.Contains(k, "idempotency"):
		return "an idempotency key"
	case strings.Contains(k, "nonce"):
		return "a nonce"
	}
	switch k {
	case "requestid", "clientrequestid", "clienttoken", "dedupkey", "dedupekey", "deduplicationkey", "deduplicationid":
		return "a request id"
	}
	return ""
}

func normalKey(key string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', ' ':
			return -1
		}
		return r
	}, strings.ToLower(key))
}

// isUnixTimeKey reports an argument named as a moment: timestamp, ts,
// time, datetime, now, or a name ending in _at or At (created_at, sentAt).
func isUnixTimeKey(key string) bool {
	switch k := normalKey(key); {
	case strings.Contains(k, "timestamp"), k == "ts", k == "time", k == "datetime", k == "now":
		return true
	}
	return strings.HasSuffix(key, "_at") || strings.HasSuffix(key, "At")
}

// Unix times from 2001-09-09 to 2100: ten digits of seconds, or thirteen
// of milliseconds.
const (
	minUnix = 1_000_000_000
	maxUnix = 4_102_444_800
)

// isUnixTime reports whole seconds or milliseconds since 1970 that fall
// between 2001 and 2100.
func isUnixTime(s string) bool {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return false
	}
	return n >= minUnix && n <= maxUnix || n >= minUnix*1000 && n <= maxUnix*1000
}

// A place is where a value was found in a tool output: the path of keys
// and list indexes from the output's top.
type place []string

// String writes the path as a reference writes it: keys after dots,
// indexes in brackets ("orders[0].id"); "" for the whole output.
func (p place) String() string {
	var b strings.Builder
	for _, e := range p {
		if isIndex(e) {
			b.WriteString(e)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e)
	}
	return b.String()
}

// Path elements that are list indexes are written "[i]", which no key of
// a writable path is (see writable).
func isIndex(e string) bool { return strings.HasPrefix(e, "[") }

// writable reports whether a reference can name key: the reference syntax
// splits at dots and brackets, so a key holding either (or none at all)
// cannot be written.
func writable(key string) bool {
	return key != "" && !strings.ContainsAny(key, ".[]")
}

// maxNodes bounds the values of one output that are searched, so that a
// huge output cannot make a snapshot slow; the rest is not searched, and
// the snapshot says so.
const maxNodes = 200_000

// maxEmbedded bounds how deep JSON held in strings is read, as the from
// rule reads it (an output that is JSON text).
const maxEmbedded = 2

// A searched value is a user message or a tool output, read once for the
// many values looked up in it.
type searched struct {
	v   any
	src *grounding.Source
	// leaves holds its leaves by leafKey, in document order; objects and
	// lists are in composites.
	leaves     map[string][]node
	composites []node
	truncated  bool // more than maxNodes values: the rest is not indexed
}

// A node is one value of an output, with where it is.
type node struct {
	at place
	v  any
}

// search reads v for lookups: every value a from rule can reach, in
// document order — v itself, and the members and elements of objects and
// lists at any depth; a string that holds a JSON object or list is read
// as that value too, as the rule reads it. Keys a reference cannot write
// end the walk there.
func search(v any) *searched {
	s := &searched{v: v, src: ground().Source(v), leaves: map[string][]node{}}
	n := 0
	var walk func(at place, v any, embedded int)
	walk = func(at place, v any, embedded int) {
		if n >= maxNodes {
			s.truncated = true
			return
		}
		n++
		switch x := v.(type) {
		case jsonvalue.Object:
			s.composites = append(s.composites, node{at, v})
			for _, m := range x {
				if writable(m.Key) {
					walk(append(at[:len(at):len(at)], m.Key), m.Value, embedded)
				}
			}
		case []any:
			s.composites = append(s.composites, node{at, v})
			for i, e := range x {
				walk(append(at[:len(at):len(at)], "["+strconv.Itoa(i)+"]"), e, embedded)
			}
		default:
			k := leafKey(v)
			s.leaves[k] = append(s.leaves[k], node{at, v})
			if str, ok := v.(string); ok && embedded < maxEmbedded {
				if inner, ok := embeddedJSON(str); ok {
					walk(at, inner, embedded+1)
				}
			}
		}
	}
	walk(nil, v, 0)
	return s
}

// leafKey is the index key of a leaf: equal leaves (by the JSON value
// semantics) have one key; numbers by their float64 value, which equal
// numbers share (find checks each candidate with jsonvalue.Equal).
func leafKey(v any) string {
	switch x := v.(type) {
	case string:
		return "s" + x
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return "n" + string(x)
		}
		return "n" + strconv.FormatFloat(f, 'g', -1, 64)
	case bool:
		return "b" + strconv.FormatBool(x)
	case nil:
		return "z"
	}
	return "?"
}

// find returns the places that hold v whole, in document order.
func (s *searched) find(v any) []place {
	switch v.(type) {
	case jsonvalue.Object, []any:
		var out []place
		for _, n := range s.composites {
			if jsonvalue.Equal(n.v, v) {
				out = append(out, n.at)
			}
		}
		return out
	}
	var out []place
	for _, n := range s.leaves[leafKey(v)] {
		if jsonvalue.Equal(n.v, v) {
			out = append(out, n.at)
		}
	}
	return out
}

// holds reports whether the value holds v in any form: as the grounding
// metric finds a value it checks, or, for any other string, as part of
// one of its strings.
func (s *searched) holds(v any) bool {
	if s.src.Holds(v) {
		return true
	}
	str, ok := v.(string)
	return ok && str != "" && !ground().Checks(v) && containsText(s.v, str)
}

// embeddedJSON parses a string that holds a JSON object or list.
func embeddedJSON(s string) (any, bool) {
	t := strings.TrimSpace(s)
	if len(t) < 2 || !(t[0] == '{' && t[len(t)-1] == '}' || t[0] == '[' && t[len(t)-1] == ']') {
		return nil, false
	}
	v, err := jsonvalue.ParseString(t)
	return v, err == nil
}

// containsText reports whether s is part of a string anywhere in v.
func containsText(v any, s string) bool {
	found := false
	leaves(v, func(l any) {
		if t, ok := l.(string); ok && !found {
			found = strings.Contains(t, s)
		}
	})
	return found
}

// leaves calls f with every leaf of v: the values in it that are neither
// objects nor lists.
func leaves(v any, f func(any)) {
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > maxDepth {
			return
		}
		switch x := v.(type) {
		case jsonvalue.Object:
			for _, m := range x {
				walk(m.Value, depth+1)
			}
		case []any:
			for _, e := range x {
				walk(e, depth+1)
			}
		default:
			f(v)
		}
	}
	walk(v, 0)
}

// maxDepth bounds recursion over values built in code; parsed values are
// bounded by the parser.
const maxDepth = 10000
