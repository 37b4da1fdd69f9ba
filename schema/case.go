package schema

import (
	"slices"

	"github.com/toolgrade/toolgrade"
)

// caseKeys are the fields under which a case gives the tools its agent
// had, toolgrade's own first, then as peers' datasets name them; a case
// that has several is read from the first of them it has.
var caseKeys = []string{"available_tools", "availableTools", "tools"}

// CaseKeys returns the fields under which a case gives its tool
// definitions, in the order they are looked for: available_tools, then
// availableTools and tools as peers' datasets name it.
func CaseKeys() []string { return slices.Clone(caseKeys) }

// Definitions returns the tool definitions a case gives, as its record
// ([toolgrade.Case.Raw]) holds them: the value of the first of
// [CaseKeys] present, in any shape [Parse] reads or none; nil when the
// case gives none. Each reader parses them as it needs: [Parse] for
// tools, a judge prompt for their text, a peer by its own rules.
func Definitions(c *toolgrade.Case) any {
	for _, k := range caseKeys {
		if v, ok := c.Raw.Get(k); ok {
			return v
		}
	}
	return nil
}
