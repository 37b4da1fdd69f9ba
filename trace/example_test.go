package trace_test

import (
	"fmt"

	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

func ExampleRead() {
	// An Anthropic request body: the format is detected from its content.
	data := []byte(`{"model": "claude-sonnet-4-6", "messages": [
		{"role": "user", "content": "Weather in Paris?"},
		{"role": "assistant", "content": [
			{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]},
		{"role": "user", "content": [
			{"type": "tool_result", "tool_use_id": "toolu_1", "content": "rain"}]}]}`)
	tr, err := trace.Read(data, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tr.Format)
	for _, c := range tr.Calls {
		fmt.Println(c, c.ID, c.Output)
	}
	// Output:
	// anthropic_messages
	// get_weather({"city":"Paris"}) toolu_1 rain
}

func ExampleRead_text() {
	// A Hermes transcript; the Python-dict payload is read too.
	tr, _ := trace.Read([]byte("<|im_start|>assistant\n<tool_call>\n{'name': 'get_stock', 'arguments': {'symbol': 'TSLA'}}\n</tool_call><|im_end|>"), "")
	fmt.Println(tr.Format, tr.Calls[0])
	// Output:
	// hermes get_stock({"symbol":"TSLA"})
}

func ExampleExtract() {
	// A trajectory already decoded, as a case's "trajectory" field is.
	v, _ := jsonvalue.ParseString(`[
		{"role": "assistant", "tool_calls": [
			{"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{\"id\": 7"}}]}]`)
	tr, _ := trace.Extract(v, "")
	c := tr.Calls[0]
	fmt.Println(tr.Format, c.Name, c.Invalid, c.ArgsRaw)
	// Output:
	// openai_chat lookup true {"id": 7
}

func ExampleTrace_AppendJSON() {
	tr, _ := trace.Read([]byte(`get_weather(city='Paris', days=3)`), "")
	fmt.Println(string(tr.AppendJSON(nil)))
	// Output:
	// {"format":"pythonic","calls":[{"name":"get_weather","args":{"city":"Paris","days":3},"id":null,"output":null}]}
}
