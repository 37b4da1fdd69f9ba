package python

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Python's str methods, for peers that normalise text with them. They follow
// CPython's Unicode rules, which differ from Go's strings package in a few
// places that peers' numbers depend on.

// IsSpace is Python's str.isspace for one character: Unicode White_Space
// plus the information separators U+001C..U+001F, which Python counts as
// whitespace (bidirectional class B or S) and Go does not. U+200B (zero
// width space) is not whitespace in either.
func IsSpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}

// Strip is Python's s.strip() with no arguments.
func Strip(s string) string {
	return strings.TrimFunc(s, IsSpace)
}

// Lower is Python's s.lower(): full Unicode lowercase mapping, in which
// U+0130 (İ) becomes "i̇" (two code points) and Σ becomes final ς at the
// end of a word (Unicode's Final_Sigma condition), not σ as in
// strings.ToLower.
func Lower(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// Not a character: a lone surrogate kept as WTF-8, which
			// lower() keeps as it is. (U+FFFD would make surrogates equal.)
			b.WriteByte(s[i])
			i++
			continue
		}
		switch r {
		case 'İ':
			b.WriteString("i\u0307")
		case 'Σ':
			if finalSigma(s, i) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		i += size
	}
	return b.String()
}

// finalSigma reports whether the Σ at byte offset i of s is in Unicode's
// Final_Sigma context: a cased letter before it and none after it, skipping
// case-ignorable characters on both sides.
func finalSigma(s string, i int) bool {
	before := s[:i]
	for before != "" {
		r, size := utf8.DecodeLastRuneInString(before)
		before = before[:len(before)-size]
		if !caseIgnorable(r) {
			if !cased(r) {
				return false
			}
			for _, r := range s[i+len("Σ"):] {
				if !caseIgnorable(r) {
					return !cased(r)
				}
			}
			return true
		}
	}
	return false
}

// cased is Unicode's Cased property: Lowercase, Uppercase or titlecase.
func cased(r rune) bool {
	return unicode.IsLower(r) || unicode.IsUpper(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is Unicode's Case_Ignorable property: nonspacing and
// enclosing marks, format characters, modifier letters and symbols, and
// the characters whose Word_Break is MidLetter, MidNumLet or Single_Quote
// (listed here, as package unicode has no Word_Break tables).
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '\u00b7', '\u0387', '\u055f', '\u05f4', '\u2018', '\u2019', '\u2024',
		'\u2027', '\ufe13', '\ufe52', '\ufe55', '\uff07', '\uff0e', '\uff1a':
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
