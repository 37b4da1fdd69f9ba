package trace

import (
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

func init() {
	register(format{
		name:  "seal_tools",
		keys:  []string{"calling"},
		read:  readSealTools,
		trace: func(o jsonvalue.Object) level { return when(o.Has("calling") && o.Has("query"), decisive) },
	})
}

// readSealTools reads Seal-Tools records {"id", "query", "calling": [{"api",
// "parameters", "responses"}]}: each calling entry is a call of api with
// parameters as its arguments. responses name the outputs ("API_call_0")
// for later calls to refer to; they are not results, so calls have none.
func readSealTools(b *builder, v any) error {
	calling, ok := get(v, "calling").([]any)
	if !ok {
		return wantError(`a Seal-Tools record {"query", "calling": [{"api", "parameters"}]}`, v)
	}
	b.saw()
	for i, c := range calling {
		p := index("calling", i)
		if _, isObj := c.(jsonvalue.Object); !isObj {
			return fieldError(p, "want a call object, got %s", jsonvalue.Kind(c))
		}
		n, err := name(c, "api", p)
		if err != nil {
			return err
		}
		call := toolgrade.Call{Name: n}
		nullableArgs(&call, c, "parameters")
		b.add(c, call)
	}
	return nil
}
