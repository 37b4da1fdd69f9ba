package grounding

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgrade/toolgrade/internal/lazyregexp"
)

// A kind says what an argument value looks like, and so whether and how it
// is checked.
type kind uint8

const (
	kindNone   kind = iota // not checked
	kindID                 // a string mixing letters and digits, or a UUID
	kindEmail              // an email address: compared ignoring case
	kindURL                // scheme://...
	kindNumber             // a JSON number with at least min_digits digits
	kindDigits             // a string of digits and separators, or a number with a unit
	kindText               // any other string of at least min_length characters
)

// A value is one argument value that is checked.
type value struct {
	path  string // the argument path, "items[0].sku"; "" for the arguments themselves
	got   any    // the value as given
	kind  kind
	text  string // what is searched for: the trimmed string, the number's literal
	canon string // the canonical number (see canonNumber); "" when not a plain number
	// digits is the value's sequence of digits, for whole numbers and
	// digit strings; "" for the others.
	digits string
}

var (
	emailRe = lazyregexp.New(`^[^\s@]+@[^\s@]+\.[^\s@.]+$`)
	urlRe   = lazyregexp.New(`^[A-Za-z][A-Za-z0-9+.\-]*://\S+$`)
	uuidRe  = lazyregexp.New(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	// Dates and times: agents compute them from words ("tomorrow at
	// three"), so they are not checked.
	dateRe = lazyregexp.New(`^(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?` +
		`|\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?` +
		`|\d{1,4}[/.]\d{1,2}[/.]\d{1,4})$`)
	// Ordinals and clock times written with letters ("2nd", "10am").
	wordNumberRe = lazyregexp.New(`^(?i:\d+(?:st|nd|rd|th)|\d{1,2}(?::\d{2})?\s?[ap]\.?m\.?)$`)
	// A number followed by a short unit ("16GB", "500 ml", "12.5%").
	unitRe = lazyregexp.New(`^[+\-]?(\d+(?:\.\d+)?)\s?[A-Za-z%°]{1,4}$`)
)

// classify says whether a string argument is checked, and how.
func classify(s string, minDigits, minLength int) (value, bool) {
	t := strings.TrimSpace(s)
	if t == "" {
		return value{}, false
	}
	v := value{got: s, text: t}
	nDigits := 0
	letters, digitOnly, space := false, true, false
	for _, r := range t {
		switch {
		case r >= '0' && r <= '9':
			nDigits++
		case unicode.IsLetter(r):
			letters, digitOnly = true, false
		case unicode.IsSpace(r):
			space = true
			digitOnly = digitOnly && r == ' '
		default:
			digitOnly = digitOnly && strings.ContainsRune("+-().,#/", r)
		}
	}
	switch {
	case emailRe.MatchString(t):
		v.kind = kindEmail
	case urlRe.MatchString(t):
		v.kind = kindURL
		v.text = strings.TrimRight(t, "/")
		if v.text == "" || !strings.Contains(v.text, "://") {
			v.text = t
		}
	case dateRe.MatchString(t):
		return value{}, false
	case digitOnly && nDigits > 0:
		if nDigits < minDigits {
			return text(v, minLength)
		}
		v.kind = kindDigits
		if !strings.Contains(t, ".") { // a decimal's digits are no whole number
			v.digits = onlyDigits(t)
		}
		if c, _, ok := canonNumber(t); ok {
			v.canon = c
		}
	case wordNumberRe.MatchString(t):
		return text(v, minLength)
	case unitRe.MatchString(t):
		num := unitRe.FindStringSubmatch(t)[1]
		c, n, _ := canonNumber(num)
		if n < minDigits {
			return text(v, minLength)
		}
		v.kind, v.canon = kindDigits, c
		if !strings.Contains(num, ".") {
			v.digits = num
		}
	case uuidRe.MatchString(t),
		!space && letters && nDigits > 0 && utf8.RuneCountInString(t) >= minIDLength:
		v.kind = kindID
	default:
		return text(v, minLength)
	}
	return v, true
}

// minIDLength is the length a string of letters and digits needs to count
// as an id: shorter ones ("mp3", "x86", "B12") are mostly names of things.
const minIDLength = 4

// text checks t as plain text when min_length is on and t is long enough.
func text(v value, minLength int) (value, bool) {
	if minLength <= 0 || utf8.RuneCountInString(v.text) < minLength {
		return value{}, false
	}
	v.kind = kindText
	return v, true
}

// number says whether a number argument is checked.
func number(n json.Number, minDigits int) (value, bool) {
	c, digits, ok := canonNumber(string(n))
	if !ok || digits < minDigits {
		return value{}, false
	}
	v := value{got: n, kind: kindNumber, text: string(n), canon: c}
	if !strings.Contains(c, ".") && !strings.Contains(c, "e") {
		v.digits = c
	}
	return v, true
}

// maxExponent bounds the exponents canonNumber writes out in full.
const maxExponent = 400

// canonNumber writes a decimal number in one canonical form, so that
// numbers compare by their digits: no sign, no exponent, no leading zeros
// before the point (but "0" for none), no trailing zeros after it, no
// point when there is no fraction. 1234, 1234.0, 1.234e3 and "01234" all
// give "1234"; -98765.50 gives "98765.5". It also counts the digits: those
// of the integer part and the fraction written so, without the zeros that
// lead a number below 1 (0.0012 has 2). ok is false when s is not a
// number. Exponents beyond ±400 keep the literal's mantissa and exponent.
func canonNumber(s string) (canon string, digits int, ok bool) {
	s = strings.TrimLeft(s, "+-")
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil && !isRangeError(err) {
			return "", 0, false
		}
		mant, exp = s[:i], e
		if err != nil {
			exp = maxExponent + 1 // out of range: kept as written
			if strings.HasPrefix(s[i+1:], "-") {
				exp = -exp
			}
		}
	}
	ip, fp, _ := strings.Cut(mant, ".")
	if ip == "" && fp == "" || !allDigits(ip) || !allDigits(fp) {
		return "", 0, false
	}
	if exp > maxExponent || exp < -maxExponent {
		all := strings.TrimLeft(ip+fp, "0")
		return strings.ToLower(s), len(all), true
	}
	all := ip + fp
	pos := len(ip) + exp
	if pos < 0 {
		all = strings.Repeat("0", -pos) + all
		pos = 0
	}
	if pos > len(all) {
		all += strings.Repeat("0", pos-len(all))
	}
	intPart := strings.TrimLeft(all[:pos], "0")
	frac := strings.TrimRight(all[pos:], "0")
	if intPart == "" {
		digits = len(strings.TrimLeft(frac, "0"))
		intPart = "0"
	} else {
		digits = len(intPart) + len(frac)
	}
	if frac == "" {
		return intPart, digits, true
	}
	return intPart + "." + frac, digits, true
}

func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func onlyDigits(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			b = append(b, s[i])
		}
	}
	return string(b)
}
