package leaderboard

import (
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/compat/bfcl"
)

// TestTableCategories checks that the score table's AST categories are
// the ones the checker's category option takes, and no others, so that
// the two lists cannot drift apart.
func TestTableCategories(t *testing.T) {
	for _, names := range categoryOrder {
		for name := range strings.SplitSeq(names, "|") {
			_, err := bfcl.New(bfcl.Options{Category: name})
			if ast := gradedAs(name) == "ast"; ast != (err == nil) {
				t.Errorf("%s: graded as %q here, but the checker's category option gives %v", name, gradedAs(name), err)
			}
		}
	}
}
