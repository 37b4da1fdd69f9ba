package promptfoo

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/toolgrade/toolgrade/compat/internal/js"
)

// The formats of ajv-formats 3.0.1's full mode. Its case-insensitive
// regular expressions (the i flag without u) match ASCII letters of either
// case and no other letter, so they are written here with both cases
// spelled out rather than with Go's (?i), which would also let ſ and K
// (Kelvin) match s and k.

// asciiFold spells out the upper case of a-z and a-f ranges.
func asciiFold(re string) string {
	re = strings.ReplaceAll(re, "a-z", "a-zA-Z")
	return strings.ReplaceAll(re, "0-9a-f", "0-9a-fA-F")
}

// lazyRegexp compiles expr when it is first used: compiling the format
// checks when the program started took 13.5M instructions, a third of
// what every toolgrade command spent before it began, and most runs check
// no format.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// lazyFoldedRegexp is lazyRegexp of asciiFold(expr), folded when first
// used too: folding the long ones when the program started was 64k
// instructions, some 40% of the package's start.
func lazyFoldedRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(asciiFold(expr)) })
}

// matches is the MatchString of a lazyRegexp.
func matches(re func() *regexp.Regexp) func(string) bool {
	return func(s string) bool { return re().MatchString(s) }
}

var (
	dateRe     = lazyRegexp(`^([0-9]{4})-([0-9]{2})-([0-9]{2})$`)
	timeRe     = lazyRegexp(`^([0-9]{2}):([0-9]{2}):([0-9]{2}(?:\.[0-9]+)?)([zZ]|([+-])([0-9]{2})(?::?([0-9]{2}))?)?$`)
	durationRe = lazyRegexp(`^P((?:[0-9]+Y)?(?:[0-9]+M)?(?:[0-9]+D)?(T(?:[0-9]+H)?(?:[0-9]+M)?(?:[0-9]+S)?)?|(?:[0-9]+W)?)$`)
	uriRe      = lazyFoldedRegexp(`^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$`)
	uriRefRe   = lazyFoldedRegexp(`^(?:[a-z][a-z0-9+\-.]*:)?(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'"()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\?(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?$`)
	uriTmplRe  = lazyFoldedRegexp("^(?:(?:[^\\x00-\\x20\"'<>%\\\\^`{|}]|%[0-9a-f]{2})|\\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\\*)?)*\\})*$")
	emailRe    = lazyFoldedRegexp("^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$")
	hostRe     = lazyFoldedRegexp(`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$`)
	ipv4Re     = lazyRegexp(`^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$`)
	ipv6Re     = lazyFoldedRegexp(`^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))$`)
	uuidRe     = lazyRegexp(`^(?:[uU][rR][nN]:[uU][uU][iI][dD]:)?[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$`)
	jptrRe     = lazyRegexp(`^(?:/(?:[^~/]|~0|~1)*)*$`)
	jptrURIRe  = lazyFoldedRegexp(`^#(?:/(?:[a-z0-9_\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*$`)
	relJptrRe  = lazyRegexp(`^(?:0|[1-9][0-9]*)(?:#|(?:/(?:[^~/]|~0|~1)*)*)$`)
	byteRe     = lazyRegexp(`(?m)^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`)
	notURIFrag = lazyRegexp(`/|:`)
)

// formats maps each format to its check of a string (number formats take
// the number's value).
var formats = map[string]func(v any) bool{
	"date":                      str(isDate),
	"time":                      str(func(s string) bool { return isTime(s, true) }),
	"date-time":                 str(func(s string) bool { return isDateTime(s, true) }),
	"iso-time":                  str(func(s string) bool { return isTime(s, false) }),
	"iso-date-time":             str(func(s string) bool { return isDateTime(s, false) }),
	"duration":                  str(isDuration),
	"uri":                       str(func(s string) bool { return notURIFrag().MatchString(s) && uriRe().MatchString(s) }),
	"uri-reference":             str(matches(uriRefRe)),
	"uri-template":              str(matches(uriTmplRe)),
	"url":                       nil, // a lookahead regex: reported as unsupported at compile
	"email":                     str(matches(emailRe)),
	"hostname":                  str(isHostname),
	"ipv4":                      str(matches(ipv4Re)),
	"ipv6":                      str(matches(ipv6Re)),
	"regex":                     str(isRegex),
	"uuid":                      str(matches(uuidRe)),
	"json-pointer":              str(matches(jptrRe)),
	"json-pointer-uri-fragment": str(matches(jptrURIRe)),
	"relative-json-pointer":     str(matches(relJptrRe)),
	"byte":                      str(matches(byteRe)),
	"int32": number(func(f float64) bool {
		return f == math.Trunc(f) && f <= math.MaxInt32 && f >= math.MinInt32
	}),
	"int64":    number(func(f float64) bool { return f == math.Trunc(f) }),
	"float":    number(func(float64) bool { return true }),
	"double":   number(func(float64) bool { return true }),
	"password": func(any) bool { return true },
	"binary":   func(any) bool { return true },
}

// str applies a string format to strings; other values pass.
func str(f func(string) bool) func(any) bool {
	return func(v any) bool {
		s, ok := v.(string)
		return !ok || f(s)
	}
}

// number applies a number format to finite numbers; other values pass.
func number(f func(float64) bool) func(any) bool {
	return func(v any) bool {
		n, ok := v.(json.Number)
		if !ok {
			return true
		}
		x := js.Number(n)
		return math.IsInf(x, 0) || f(x)
	}
}

func checkFormat(name string, v any) (bool, error) {
	f := formats[name]
	if f == nil {
		return false, &ajvUnsupported{"format " + name + " is not reproduced"}
	}
	return f(v), nil
}

var days = []int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

func isDate(s string) bool {
	m := dateRe().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	d, _ := strconv.Atoi(m[3])
	if mo < 1 || mo > 12 || d < 1 {
		return false
	}
	limit := days[mo]
	if mo == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		limit = 29
	}
	return d <= limit
}

func isTime(s string, strictZone bool) bool {
	m := timeRe().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	hr, _ := strconv.Atoi(m[1])
	mn, _ := strconv.Atoi(m[2])
	sec, _ := strconv.ParseFloat(m[3], 64)
	zone := m[4]
	sign := 1
	if m[5] == "-" {
		sign = -1
	}
	tzH, _ := strconv.Atoi(m[6])
	tzM, _ := strconv.Atoi(m[7])
	if tzH > 23 || tzM > 59 || strictZone && zone == "" {
		return false
	}
	if hr <= 23 && mn <= 59 && sec < 60 {
		return true
	}
	utcMin := mn - tzM*sign
	utcHr := hr - tzH*sign
	if utcMin < 0 {
		utcHr--
	}
	return (utcHr == 23 || utcHr == -1) && (utcMin == 59 || utcMin == -1) && sec < 61
}

func isDateTime(s string, strictZone bool) bool {
	// JavaScript's split at /t|\s/i must give exactly two parts.
	n := 0
	for _, r := range s {
		if r == 't' || r == 'T' || js.IsSpace(r) {
			n++
		}
	}
	return n == 1 && isDate(splitPart(s, 0)) && isTime(splitPart(s, 1), strictZone)
}

// splitPart is part i of s split at its one separator.
func splitPart(s string, i int) string {
	for j, r := range s {
		if r == 't' || r == 'T' || js.IsSpace(r) {
			if i == 0 {
				return s[:j]
			}
			return s[j+len(string(r)):]
		}
	}
	return s
}

func isDuration(s string) bool {
	m := durationRe().FindStringSubmatch(s)
	if m == nil || s == "P" {
		return false
	}
	// T must be followed by a digit.
	if t := m[2]; t != "" && (len(t) == 1 || t[1] < '0' || t[1] > '9') {
		return false
	}
	return true
}

func isHostname(s string) bool {
	n := len(utf16.Encode([]rune(s)))
	if strings.HasSuffix(s, ".") {
		n--
	}
	if n < 1 || n > 253 || strings.ContainsAny(s, "\n\r\u2028\u2029") {
		return false
	}
	return hostRe().MatchString(s)
}

// isRegex is ajv-formats' regex: no \Z anchor after another character,
// and a pattern new RegExp(s) accepts without flags, where JavaScript's
// legacy (Annex B) syntax lets lone braces and brackets and unknown
// escapes stand for themselves.
func isRegex(s string) bool {
	u := []rune(s)
	for i := 1; i+1 < len(u); i++ {
		if u[i] == '\\' && u[i+1] == 'Z' && u[i-1] != '\\' {
			return false
		}
	}
	return legacyRegexValid(u)
}

// legacyRegexValid reports whether a pattern compiles without the u flag:
// groups and classes closed, no quantifier without an atom, no class range
// out of order, no unknown group syntax.
func legacyRegexValid(u []rune) bool {
	depth := 0
	canRepeat := false
	for i := 0; i < len(u); i++ {
		switch c := u[i]; c {
		case '\\':
			if i+1 >= len(u) {
				return false
			}
			i++
			canRepeat = u[i] != 'b' && u[i] != 'B'
		case '(':
			rest := string(u[i+1:])
			switch {
			case strings.HasPrefix(rest, "?:"), strings.HasPrefix(rest, "?="), strings.HasPrefix(rest, "?!"):
				i += 2
			case strings.HasPrefix(rest, "?<="), strings.HasPrefix(rest, "?<!"):
				i += 3
			case strings.HasPrefix(rest, "?<"):
				end := strings.IndexRune(rest, '>')
				if end < 0 || !validGroupName(rest[2:end]) {
					return false
				}
				i += len([]rune(rest[:end+1]))
			case strings.HasPrefix(rest, "?"):
				return false
			}
			depth++
			canRepeat = false
		case ')':
			if depth == 0 {
				return false
			}
			depth--
			canRepeat = true
		case '|':
			canRepeat = false
		case '^', '$':
			canRepeat = false
		case '*', '+', '?':
			if !canRepeat {
				return false
			}
			if i+1 < len(u) && u[i+1] == '?' {
				i++
			}
			canRepeat = false
		case '{':
			m := regexp.MustCompile(`^\{([0-9]+)(,([0-9]*))?\}`).FindStringSubmatch(string(u[i:]))
			if m == nil {
				canRepeat = true // a literal brace
				continue
			}
			if !canRepeat {
				return false
			}
			if m[3] != "" {
				lo, _ := strconv.Atoi(m[1])
				hi, _ := strconv.Atoi(m[3])
				if hi < lo {
					return false
				}
			}
			i += len([]rune(m[0])) - 1
			if i+1 < len(u) && u[i+1] == '?' {
				i++
			}
			canRepeat = false
		case '[':
			j := i + 1
			if j < len(u) && u[j] == '^' {
				j++
			}
			prev, havePrev := rune(-1), false
			for ; j < len(u) && u[j] != ']'; j++ {
				r, single := u[j], true
				if r == '\\' {
					if j+1 >= len(u) {
						return false
					}
					j++
					r = u[j]
					single = !strings.ContainsRune("dDwWsS", r)
				}
				if havePrev && r == '-' && j+1 < len(u) && u[j+1] != ']' {
					j++
					hi := u[j]
					if hi == '\\' && j+1 < len(u) {
						j++
						hi = u[j]
						if strings.ContainsRune("dDwWsS", hi) {
							havePrev = false
							continue
						}
					}
					if prev > hi {
						return false
					}
					havePrev = false
					continue
				}
				prev, havePrev = r, single
			}
			if j >= len(u) {
				return false
			}
			i = j
			canRepeat = true
		default:
			canRepeat = true
		}
	}
	return depth == 0
}
