package python

import (
	"encoding/json"
	"testing"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

func TestPyEqual(t *testing.T) {
	v := func(s string) any {
		x, err := jsonvalue.ParseString(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	tests := []struct {
		a, b any
		want bool
	}{
		{v(`1`), v(`1.0`), true},
		{v(`true`), v(`1`), true},
		{v(`false`), v(`-0.0`), true},
		{v(`true`), v(`2`), false},
		{v(`"1"`), v(`1`), false},
		{v(`null`), v(`null`), true},
		{v(`null`), v(`{}`), false},
		{v(`{"a":[1,{"b":true}]}`), v(`{"a":[1.0,{"b":1}]}`), true},
		{v(`[1,2]`), v(`[2,1]`), false},
		{v(`[]`), v(`{}`), false},
		{v(`9007199254740993`), v(`9007199254740992.0`), false},
		{json.Number("NaN"), json.Number("NaN"), false},
		{[]any{json.Number("NaN")}, []any{json.Number("NaN")}, false},
		{json.Number("NaN"), v(`0`), false},
	}
	for _, tt := range tests {
		if got := Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", jsonvalue.Append(nil, tt.a), jsonvalue.Append(nil, tt.b), got, tt.want)
		}
	}
}
