// Package suggest finds the name a person most likely meant: the nearest
// of a set of valid names by edit distance, for "did you mean" messages.
//
// The rule is to suggest only what is likely meant (see [Nearest]):
// a far name is no suggestion, so a message without one lists the valid
// names instead. Non-goals: spelling by sound, and names in other
// alphabets, which are compared byte by byte.
package suggest

import "strings"

// Nearest returns the name in names closest to s, and whether it is close
// enough to be a likely misspelling: within one edit for names of up to
// six characters, two for longer ones, after ignoring case, "-" and "_"
// (so toolsCalled and tools-called find tools_called). Names shorter than
// four characters are only matched when they differ in case or separators
// alone. Ties go to the earlier name.
func Nearest(s string, names []string) (string, bool) {
	best, bestD := "", -1
	ns := fold(s)
	for _, n := range names {
		if n == s {
			continue
		}
		d := Distance(ns, fold(n))
		if bestD < 0 || d < bestD {
			best, bestD = n, d
		}
	}
	if bestD < 0 {
		return "", false
	}
	return best, bestD <= limit(ns)
}

// limit is the edit distance within which a folded name of that length
// is a likely misspelling.
func limit(folded string) int {
	switch l := len(folded); {
	case l < 4:
		return 0
	case l > 6:
		return 2
	}
	return 1
}

// Meant returns the names s likely meant, for a command or a format
// whose names are words joined by "_": the [Nearest] name when there is
// one, else every name whose first word s misspells or names alone
// ("antropic", "claude"), or that s abbreviates or lengthens ("ext",
// "evaluate"), in the order of names. Names of three characters or less
// are not matched so.
func Meant(s string, names []string) []string {
	if near, ok := Nearest(s, names); ok {
		return []string{near}
	}
	ns := fold(s)
	if len(ns) < 3 {
		return nil
	}
	var meant []string
	for _, n := range names {
		first, _, _ := strings.Cut(n, "_")
		fn, ff := fold(n), fold(first)
		if n != s && (Distance(ns, ff) <= limit(ns) || strings.HasPrefix(ns, fn) || strings.HasPrefix(fn, ns)) {
			meant = append(meant, n)
		}
	}
	return meant
}

// Or joins names as "a", "a or b", "a, b or c", for "did you mean ...?".
func Or(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// separators are what fold drops.
var separators = strings.NewReplacer("_", "", "-", "", " ", "")

// fold lowers case and drops separators.
func fold(s string) string { return separators.Replace(strings.ToLower(s)) }

// Distance is the Levenshtein distance between a and b, counting an
// adjacent transposition as one edit, over bytes.
func Distance(a, b string) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
