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
	limit := 1
	switch l := len(ns); {
	case l < 4:
		limit = 0
	case l > 6:
		limit = 2
	}
	return best, bestD <= limit
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
