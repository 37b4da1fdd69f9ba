package serve_test

import (
	"context"
	"os"
	"strings"

	"github.com/toolgrade/toolgrade/serve"
)

// A host writes one request per line and reads one response per line, in
// order; a request that cannot be served is answered with an error naming
// its field, and the next is served as usual.
func ExampleServer_Serve() {
	requests := strings.Join([]string{
		`{"id":1,"op":"version"}`,
		`{"id":2,"op":"evaluate","config":{"profile":"default"},"cases":[{"tools_called":[{"name":"search","args":{"q":"go"}}],"expected_tools":[{"name":"search","args":{"q":"go"}}]}]}`,
		`{"id":3,"op":"extract","trace":[],"fromat":"openai_chat"}`,
	}, "\n")
	s := &serve.Server{Version: "v1.2.3"}
	if err := s.Serve(context.Background(), strings.NewReader(requests), os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// {"id":1,"result":{"version":"v1.2.3"}}
	// {"id":2,"results":[{"id":"case-0","success":true,"metrics":[{"name":"tool_correctness","profile":"default","score":1,"success":true,"threshold":1,"precision":1,"recall":1,"f1":1,"matches":[{"expected":0,"called":0,"score":1}],"missing":[],"unexpected":[],"reason":"all 1 expected calls matched","error":null}]}]}
	// {"id":3,"error":"fromat: unknown key for op extract; did you mean \"format\"?","field":"fromat"}
}
