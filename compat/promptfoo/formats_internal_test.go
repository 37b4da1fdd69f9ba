package promptfoo

import "testing"

// The format checks compile their regular expressions on first use: every
// one must compile (MustCompile panics otherwise).
func TestFormatsCompile(t *testing.T) {
	for _, check := range formats {
		if check == nil {
			continue // not supported (see formats)
		}
		for _, s := range []string{"a:b/c", "2024-01-01", "12:00:00Z", "P1D"} {
			check(s) // panics if a regular expression does not compile
		}
	}
}
