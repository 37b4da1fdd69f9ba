package toolgradetest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/match"
	"github.com/toolgrade/toolgrade/toolgradetest"
)

// printer stands in for the *testing.T of a real test, to show what a
// failing check reports.
type printer struct{ testing.TB }

func (printer) Helper()                           {}
func (printer) Context() context.Context          { return context.Background() }
func (printer) Errorf(format string, args ...any) { fmt.Printf(format+"\n", args...) }

func ExampleCheck() {
	// In a test: toolgradetest.Check(t, c, metric).
	var t testing.TB = printer{}

	metric, err := match.New(match.Options{Threshold: toolgrade.Float(0.8)})
	if err != nil {
		panic(err)
	}
	c := &toolgrade.Case{
		ID:       "weather",
		Expected: []toolgrade.Call{{Name: "get_weather", Args: jsonvalue.MustFrom(map[string]any{"city": "Paris"})}},
		Called: []toolgrade.Call{
			{Name: "get_weather", Args: jsonvalue.MustFrom(map[string]any{"city": "Paris"})},
			{Name: "send_email", Args: jsonvalue.MustFrom(map[string]any{"to": "ana@example.com"})},
		},
	}
	toolgradetest.Check(t, c, metric)
	// Output:
	// case weather: tool_correctness scored 0.6667, below its threshold 0.8: unexpected send_email({"to":"ana@example.com"}) (called #1)
}
