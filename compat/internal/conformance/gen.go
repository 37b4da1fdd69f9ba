package conformance

import (
	"encoding/json"

	"pgregory.net/rapid"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// callGen makes small calls whose arguments collide often across Python's
// equal-but-different spellings (1, 1.0, true, "1").
var callGen = rapid.Custom(func(t *rapid.T) toolgrade.Call {
	values := []any{json.Number("1"), json.Number("1.0"), true, "1", nil, json.Number("0")}
	args := jsonvalue.Object{}
	for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"x", "y"}), 0, 2, func(s string) string { return s }).Draw(t, "keys") {
		args = append(args, jsonvalue.Member{Key: k, Value: rapid.SampledFrom(values).Draw(t, "value")})
	}
	return toolgrade.Call{Name: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "name"), Args: args}
})

// CallsGen makes lists of up to five such calls.
var CallsGen = rapid.SliceOfN(callGen, 0, 5)
