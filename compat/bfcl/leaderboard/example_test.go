package leaderboard_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/compat/bfcl/leaderboard"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// Grade a model's result file against a BFCL data folder and print BFCL's
// score table.
func Example() {
	dir, err := os.MkdirTemp("", "bfcl-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	files := map[string]string{
		"BFCL_v4_simple_python.json": `{"id": "simple_python_0", "question": [[{"role": "user", "content": "5!?"}]], "function": [{"name": "math.factorial", "parameters": {"type": "dict", "properties": {"number": {"type": "integer"}}, "required": ["number"]}}]}
{"id": "simple_python_1", "question": [[{"role": "user", "content": "6!?"}]], "function": [{"name": "math.factorial", "parameters": {"type": "dict", "properties": {"number": {"type": "integer"}}, "required": ["number"]}}]}
`,
		"possible_answer/BFCL_v4_simple_python.json": `{"id": "simple_python_0", "ground_truth": [{"math.factorial": {"number": [5]}}]}
{"id": "simple_python_1", "ground_truth": [{"math.factorial": {"number": [6]}}]}
`,
		"result.json": `{"id": "simple_python_0", "result": [{"math.factorial": "{\"number\": 5}"}]}
{"id": "simple_python_1", "result": [{"math.factorial": {"number": "6"}}]}
`,
	}
	for name, text := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}

	data, err := leaderboard.OpenData(dir)
	if err != nil {
		log.Fatal(err)
	}
	results, err := leaderboard.ReadResults(filepath.Join(dir, "result.json"))
	if err != nil {
		log.Fatal(err)
	}
	scores, err := data.Grade(context.Background(), results.Entries)
	if err != nil {
		log.Fatal(err)
	}
	for _, g := range scores.Entries {
		fmt.Println(g.ID, g.Result.Reason)
	}
	fmt.Println()
	scores.WriteTable(os.Stdout)
	// Output:
	// simple_python_0 valid
	// simple_python_1 type_error:simple: parameter "number": expected type integer, got str ("6")
	//
	// Category              Accuracy  Correct    Total
	// simple_python           50.00%        1        2
	//
	// Summary               Accuracy  Entries  Computed as
	// Non-Live Simple AST        N/A        2  mean of simple_python, simple_java, simple_javascript
	// Non-Live AST Summary       N/A        2  mean of Simple AST, multiple, parallel, parallel_multiple
	// Non-Live Overall           N/A        2  mean of the above and irrelevance
	// Live AST Summary           N/A        0  weighted by entries: live_simple, live_multiple, live_parallel, live_parallel_multiple
	// Live Overall               N/A        0  weighted: the above, live_irrelevance, live_relevance
}

// A question entry sends its single turn and its function docs; the
// model's answer becomes a line of a result file.
func ExampleHarness_Prompt() {
	entry, err := jsonvalue.ParseString(`{"id": "simple_python_1", "question": [[{"role": "user", "content": "Factorial of 5?"}]], "function": [{"name": "math.factorial", "parameters": {"type": "dict", "properties": {"number": {"type": "integer"}}}}]}`)
	if err != nil {
		log.Fatal(err)
	}
	c := &toolgrade.Case{ID: "simple_python_1", Raw: entry.(jsonvalue.Object)}
	var h leaderboard.Harness
	msgs, tools, ok, err := h.Prompt(c, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ok, jsonvalue.Format(msgs), tools[0].Name)

	a := leaderboard.Answer{
		ID:      c.ID,
		Calls:   []toolgrade.Call{{Name: "math.factorial", Args: jsonvalue.Object{{Key: "number", Value: jsonvalue.MustFrom(5)}}}},
		Usage:   toolgrade.Usage{PromptTokens: 52, CompletionTokens: 9},
		Latency: 1200 * time.Millisecond,
	}
	fmt.Println(string(a.AppendJSON(nil)))
	// Output:
	// true [{"role":"user","content":"Factorial of 5?"}] math.factorial
	// {"id":"simple_python_1","result":[{"math.factorial":{"number":5}}],"input_token_count":52,"output_token_count":9,"latency":1.2}
}
