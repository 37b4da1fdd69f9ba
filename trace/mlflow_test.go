package trace_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgrade/toolgrade/trace"
)

// mlflowSpan writes an MLflow 3 span (its attributes JSON text, as
// MLflow stores them) with the given type, inputs and outputs (JSON).
func mlflowSpan(name, typ string, start int, inputs, outputs, status string) string {
	attrs := `"mlflow.traceRequestId":"\"tr-1\"","mlflow.spanType":` + quoteJSON(`"`+typ+`"`)
	if inputs != "" {
		attrs += `,"mlflow.spanInputs":` + quoteJSON(inputs)
	}
	if outputs != "" {
		attrs += `,"mlflow.spanOutputs":` + quoteJSON(outputs)
	}
	return `{"name":"` + name + `","span_id":"s` + name + `","start_time_unix_nano":"` + string(rune('0'+start)) + `",
		"status":{"code":"` + status + `","message":""},"events":[],"attributes":{` + attrs + `}}`
}

func TestMLflow(t *testing.T) {
	runFormatTests(t, []formatTest{{
		name: "spans alone, in start order: a LangChain model span, its tool, a tool the model never called",
		input: `[` + mlflowSpan("lookup", "TOOL", 3, `{"id": 7}`, `"seven"`, "STATUS_CODE_OK") + `,
			` + mlflowSpan("ChatOpenAI", "CHAT_MODEL", 1, `[[{"type": "human", "content": "what is 7?"}]]`,
			`{"generations": [[{"text": "", "message": {"type": "ai", "content": "", "tool_calls": [{"name": "lookup", "args": {"id": 7}, "id": "c1"}]}}]]}`, "STATUS_CODE_OK") + `,
			` + mlflowSpan("audit_log", "TOOL", 5, `{"entry": "x"}`, "", "STATUS_CODE_ERROR") + `]`,
		format: "mlflow",
		calls: `[{"name":"lookup","args":{"id":7},"id":"c1","output":"seven"},
			{"name":"audit_log","args":{"entry":"x"},"id":null,"output":null,"status":"error"}]`,
		skipped: []string{},
	}, {
		name:   "a trace's data alone; a tool whose input is text",
		input:  `{"spans":[` + mlflowSpan("shout", "TOOL", 1, `"hello"`, `"HELLO"`, "OK") + `]}`,
		format: "mlflow",
		calls:  `[{"name":"shout","args":"hello","id":null,"output":"HELLO"}]`,
	}})
}

// TestMLflowUnreadInputsAreMissed: a model span's inputs in a shape the
// reader does not take are left to the audit, which reports the call in
// them rather than reading the trace short.
func TestMLflowUnreadInputsAreMissed(t *testing.T) {
	input := `{"info":{"trace_id":"tr-1"},"data":{"spans":[` +
		mlflowSpan("gen", "LLM", 1, `{"contents": [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}]}`, "", "OK") + `]}}`
	tr, err := trace.Read([]byte(input), "")
	if !errors.Is(err, trace.ErrMissed) || len(tr.Missed) != 1 || !strings.Contains(tr.Missed[0].Kind, `functionCall "f"`) {
		t.Errorf("error %v, missed %v; want the functionCall missed", err, tr.Missed)
	}
}

func FuzzMLflow(f *testing.F) {
	seedDir(f, filepath.Join("testdata", "mlflow"))
	fuzzFormat(f, "mlflow",
		`{"info":{},"data":{"spans":[{"name":"t","attributes":{"mlflow.spanType":"\"TOOL\"","mlflow.spanInputs":"{","mlflow.spanOutputs":"1"},"status_code":"ERROR"}]}}`)
}
