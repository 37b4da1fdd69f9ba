package trace_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/trace"
)

// A sessionTest is a small trace of an agent's session format and what
// must be read from it, detected and forced: each call as "name args id
// output status turn" (args and output as JSON, id "-" for none, status
// ok, error or "-" for none), and the items skipped as "where: kind".
type sessionTest struct {
	name, format, input string
	calls               []string
	skipped             []string
}

func runSessionTests(t *testing.T, tests []sessionTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, force := range []string{"", tt.format} {
				tr, err := trace.Read([]byte(tt.input), force)
				if err != nil {
					t.Fatalf("Read(format %q): %v", force, err)
				}
				if tr.Format != tt.format {
					t.Errorf("Read(format %q): format %q, want %q", force, tr.Format, tt.format)
				}
				if diff := cmp.Diff(tt.calls, sessionCalls(tr)); diff != "" {
					t.Errorf("Read(format %q) calls (-want +got):\n%s", force, diff)
				}
				var skipped []string
				for _, s := range tr.Skipped {
					skipped = append(skipped, s.String())
				}
				if diff := cmp.Diff(tt.skipped, skipped); diff != "" {
					t.Errorf("Read(format %q) skipped (-want +got):\n%s", force, diff)
				}
			}
		})
	}
}

func sessionCalls(tr trace.Trace) []string {
	var lines []string
	for _, c := range tr.Calls {
		id := c.ID
		if id == "" {
			id = "-"
		}
		args := string(jsonvalue.Append(nil, c.Args))
		if c.Invalid {
			args = "raw:" + c.ArgsRaw
		}
		status := c.Status.String()
		if status == "" {
			status = "-"
		}
		lines = append(lines, c.Name+" "+args+" "+id+" "+string(jsonvalue.Append(nil, c.Output))+" "+status+" "+strconv.Itoa(c.Turn))
	}
	return lines
}

func TestPi(t *testing.T) {
	const header = `{"type":"session","version":3,"id":"0190","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}` + "\n"
	runSessionTests(t, []sessionTest{
		{"calls, results, a failure, turns", "pi", header +
			`{"type":"model_change","id":"a1","parentId":null,"timestamp":"t","provider":"anthropic","modelId":"m"}` + "\n" +
			`{"type":"message","id":"a2","parentId":"a1","timestamp":"t","message":{"role":"user","content":"list files","timestamp":1}}` + "\n" +
			`{"type":"message","id":"a3","parentId":"a2","timestamp":"t","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}},{"type":"toolCall","id":"c2","name":"read","arguments":{"path":"x"}}],"stopReason":"toolUse"}}` + "\n" +
			`{"type":"message","id":"a4","parentId":"a3","timestamp":"t","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"a b"}],"isError":false}}` + "\n" +
			`{"type":"message","id":"a5","parentId":"a4","timestamp":"t","message":{"role":"toolResult","toolCallId":"c2","toolName":"read","content":[{"type":"text","text":"no such file"}],"isError":true}}` + "\n" +
			`{"type":"compaction","id":"a6","parentId":"a5","timestamp":"t","summary":"s","firstKeptEntryId":"a2","tokensBefore":9}` + "\n" +
			`{"type":"message","id":"a7","parentId":"a6","timestamp":"t","message":{"role":"bashExecution","command":"git status","output":"clean","exitCode":0}}` + "\n" +
			`{"type":"message","id":"a8","parentId":"a7","timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"again"}]}}` + "\n" +
			`{"type":"message","id":"a9","parentId":"a8","timestamp":"t","message":{"role":"assistant","content":[{"type":"toolCall","id":"c3","name":"bash","arguments":{"command":"ls"}}],"stopReason":"aborted"}}` + "\n",
			[]string{
				`bash {"command":"ls"} c1 [{"type":"text","text":"a b"}] ok 1`,
				`read {"path":"x"} c2 {"content":[{"type":"text","text":"no such file"}],"is_error":true} error 1`,
				`bash {"command":"ls"} c3 null - 2`,
			}, nil},
		{"every branch of a tree is read", "pi", header +
			`{"type":"message","id":"b1","parentId":null,"timestamp":"t","message":{"role":"user","content":"go"}}` + "\n" +
			`{"type":"message","id":"b2","parentId":"b1","timestamp":"t","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"f","arguments":{}}]}}` + "\n" +
			`{"type":"message","id":"b3","parentId":"b2","timestamp":"t","message":{"role":"toolResult","toolCallId":"c1","toolName":"f","content":[],"isError":false}}` + "\n" +
			`{"type":"branch_summary","id":"b4","parentId":"b1","timestamp":"t","fromId":"b3","summary":"tried f"}` + "\n" +
			`{"type":"message","id":"b5","parentId":"b4","timestamp":"t","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"g","arguments":{"a":1}}]}}` + "\n" +
			`{"type":"label","id":"b6","parentId":"b5","timestamp":"t","targetId":"b5","label":"x"}` + "\n",
			[]string{`f {} c1 [] ok 1`, `g {"a":1} c2 null - 1`}, nil},
		{"unknown entries, roles and blocks are skipped", "pi", header +
			`{"type":"message","id":"d1","parentId":null,"timestamp":"t","message":{"role":"assistant","content":[{"type":"hologram"},{"type":"toolCall","id":"c1","name":"f","arguments":{}}]}}` + "\n" +
			`{"type":"message","id":"d2","parentId":"d1","timestamp":"t","message":{"role":"critic","content":"x"}}` + "\n" +
			`{"type":"rewind","id":"d3","parentId":"d2","timestamp":"t"}` + "\n" +
			`{"type":"message","id":"d4","parentId":"d3","timestamp":"t","message":{"role":"toolResult","toolCallId":"zz","toolName":"f","content":[],"isError":false}}` + "\n",
			[]string{`f {} c1 null - 0`},
			[]string{
				`line 2 message.content[0]: content block of type "hologram"`,
				`line 3 message: message with role "critic"`,
				`line 4: entry of type "rewind"`,
				`line 5 message: tool result for unknown call id "zz"`,
			}},
	})
}

func TestOpenCode(t *testing.T) {
	part := func(msg, typ, rest string) string {
		return `{"id":"prt_` + msg + typ + `","sessionID":"ses_1","messageID":"msg_` + msg + `","type":"` + typ + `"` + rest + `}`
	}
	tool := func(msg, call, name, state string) string {
		return part(msg, "tool", `,"callID":"`+call+`","tool":"`+name+`","state":`+state)
	}
	user := func(msg, parts string) string {
		return `{"info":{"id":"msg_` + msg + `","sessionID":"ses_1","role":"user","time":{"created":1}},"parts":[` + parts + `]}`
	}
	assistant := func(msg, parts string) string {
		return `{"info":{"id":"msg_` + msg + `","sessionID":"ses_1","role":"assistant","parentID":"msg_u1"},"parts":[` + parts + `]}`
	}
	export := `{"info":{"id":"ses_1","projectID":"p","directory":"/d","title":"t","version":"1.1.49","time":{"created":1}},"messages":[` +
		user("u1", part("u1", "text", `,"text":"fix it"`)) + `,` +
		assistant("a1", part("a1", "step-start", "")+`,`+
			tool("a1", "c1", "read", `{"status":"completed","input":{"filePath":"x"},"output":"data","title":"x","metadata":{},"time":{"start":1,"end":2}}`)+`,`+
			tool("a1", "c2", "bash", `{"status":"completed","input":{"command":"false"},"output":"","title":"t","metadata":{"exit":1},"time":{"start":1,"end":2}}`)+`,`+
			tool("a1", "c3", "edit", `{"status":"error","input":{"filePath":"x"},"error":"no match","time":{"start":1,"end":2}}`)+`,`+
			part("a1", "step-finish", `,"reason":"tool-calls","cost":0,"tokens":{}`)) + `,` +
		user("u2", part("u2", "text", `,"text":"Called the Read tool","synthetic":true`)) + `,` +
		user("u3", part("u3", "text", `,"text":"and test"`)+`,`+part("u3", "file", `,"mime":"text/plain","url":"file:///x"`)) + `,` +
		assistant("a2", part("a2", "hologram", "")+`,`+tool("a2", "c4", "bash", `{"status":"running","input":{"command":"go test"},"time":{"start":1}}`)) +
		`],"todos":[]}`
	runSessionTests(t, []sessionTest{
		{"export", "opencode", export,
			[]string{
				`read {"filePath":"x"} c1 "data" ok 1`,
				`bash {"command":"false"} c2 "" error 1`,
				`edit {"filePath":"x"} c3 {"content":"no match","is_error":true} error 1`,
				`bash {"command":"go test"} c4 null - 2`,
			},
			[]string{`messages[4].parts[0]: part of type "hologram"`}},
		{"run events show a part as it runs and ends", "opencode",
			`{"type":"step_start","timestamp":1,"sessionID":"ses_1","part":` + part("a1", "step-start", "") + `}` + "\n" +
				`{"type":"tool_running","timestamp":2,"sessionID":"ses_1","part":` + tool("a1", "c1", "bash", `{"status":"running","input":{"command":"ls"},"time":{"start":1}}`) + `}` + "\n" +
				`{"type":"tool_use","timestamp":3,"sessionID":"ses_1","part":` + tool("a1", "c1", "bash", `{"status":"completed","input":{"command":"ls -a"},"output":"x","title":"t","metadata":{"exit":0},"time":{"start":1,"end":2}}`) + `}` + "\n" +
				`{"type":"error","timestamp":4,"sessionID":"ses_1","error":{"name":"APIError","data":{"message":"m"}}}` + "\n",
			[]string{`bash {"command":"ls -a"} c1 "x" ok 0`}, nil},
		{"a command the user ran himself is no call", "opencode",
			`[` + user("u1", part("u1", "text", `,"text":"The following tool was executed by the user","synthetic":true`)) + `,` +
				`{"info":{"id":"msg_a1","sessionID":"ses_1","role":"assistant","parentID":"msg_u1"},"parts":[` +
				tool("a1", "c1", "bash", `{"status":"completed","input":{"command":"ls"},"output":"x","title":"ls","metadata":{"exit":0},"time":{"start":1,"end":2}}`) + `]},` +
				user("u2", part("u2", "text", `,"text":"now you"`)) + `,` +
				`{"info":{"id":"msg_a2","sessionID":"ses_1","role":"assistant","parentID":"msg_u2"},"parts":[` +
				tool("a2", "c2", "bash", `{"status":"completed","input":{"command":"pwd"},"output":"/","title":"pwd","metadata":{"exit":0},"time":{"start":1,"end":2}}`) + `]}]`,
			[]string{`bash {"command":"pwd"} c2 "/" ok 1`}, nil},
		{"a storage file of one part", "opencode",
			tool("a1", "c9", "glob", `{"status":"pending","input":{},"raw":""}`),
			[]string{`glob {} c9 null - 0`}, nil},
	})
}

func TestOpenHandsV1(t *testing.T) {
	ev := func(kind, source, rest string) string {
		return `{"id":"` + kind + source + `","timestamp":"t","source":"` + source + `","kind":"` + kind + `"` + rest + "}\n"
	}
	action := func(eid, call, args string) string {
		return `{"id":"` + eid + `","timestamp":"t","source":"agent","kind":"ActionEvent","thought":[],"action":{"command":"ls","kind":"TerminalAction"},` +
			`"tool_name":"terminal","tool_call_id":"` + call + `","tool_call":{"id":"` + call + `","name":"terminal","arguments":` + args + `,"origin":"completion"},"llm_response_id":"r"}` + "\n"
	}
	observation := func(call, action, rest string) string {
		return `{"id":"o` + call + `","timestamp":"t","source":"environment","kind":"ObservationEvent","tool_name":"terminal","tool_call_id":"` + call + `","action_id":"` + action + `",` +
			`"observation":{"content":[{"type":"text","text":"out"}],"kind":"TerminalObservation"` + rest + `}}` + "\n"
	}
	runSessionTests(t, []sessionTest{
		{"calls, results and failures", "openhands_v1",
			ev("SystemPromptEvent", "agent", `,"system_prompt":{"type":"text","text":"s"},"tools":[{"name":"terminal","parameters":{"type":"object","properties":{}}}]`) +
				ev("MessageEvent", "user", `,"llm_message":{"role":"user","content":[{"type":"text","text":"go"}]}`) +
				action("a1", "c1", `"{\"command\": \"ls\"}"`) +
				observation("c1", "a1", `,"is_error":false,"exit_code":0`) +
				action("a2", "c2", `"{\"command\": \"false\"}"`) +
				observation("c2", "a2", `,"is_error":false,"exit_code":1`) +
				action("a3", "c3", `"{\"command\": \"rm -rf /\"}"`) +
				`{"id":"r3","timestamp":"t","source":"environment","kind":"UserRejectObservation","tool_name":"terminal","tool_call_id":"c3","action_id":"a3","rejection_reason":"no","rejection_source":"user"}` + "\n" +
				action("a4", "c4", `"{bad"`) +
				`{"id":"e4","timestamp":"t","source":"agent","kind":"AgentErrorEvent","tool_name":"terminal","tool_call_id":"c4","error":"invalid arguments"}` + "\n" +
				ev("ConversationStateUpdateEvent", "environment", `,"key":"execution_status","value":"finished"`),
			[]string{
				`terminal {"command":"ls"} c1 [{"type":"text","text":"out"}] ok 1`,
				`terminal {"command":"false"} c2 {"content":[{"type":"text","text":"out"}],"is_error":true} error 1`,
				`terminal {"command":"rm -rf /"} c3 {"content":"no","is_error":true} error 1`,
				`terminal raw:{bad c4 {"content":"invalid arguments","is_error":true} error 1`,
			}, nil},
		{"an observation found by its action's id", "openhands_v1",
			action("a1", "", `"{}"`) + strings.Replace(observation("", "a1", ""), `"tool_call_id":"",`, "", 1),
			[]string{`terminal {} - [{"type":"text","text":"out"}] ok 0`}, nil},
		{"ACP tool calls shown as they progress", "openhands_v1",
			`{"id":"1","timestamp":"t","source":"agent","kind":"ACPToolCallEvent","tool_call_id":"t1","title":"Read x","status":"in_progress","tool_kind":"read","raw_input":{"path":"x"}}` + "\n" +
				`{"id":"2","timestamp":"t","source":"agent","kind":"ACPToolCallEvent","tool_call_id":"t1","title":"Read x","status":"completed","tool_kind":"read","raw_input":{"path":"x"},"raw_output":"data"}` + "\n" +
				`{"id":"3","timestamp":"t","source":"agent","kind":"ACPToolCallEvent","tool_call_id":"t2","title":"ls","status":"failed","tool_kind":"execute","raw_input":{"command":"ls"},"is_error":true}` + "\n",
			[]string{`Read x {"path":"x"} t1 "data" ok 0`, `ls {"command":"ls"} t2 {"content":null,"is_error":true} error 0`}, nil},
		{"a server page and an unknown kind", "openhands_v1",
			`{"items":[` + strings.TrimSpace(action("a1", "c1", `"{}"`)) + `,{"id":"x","timestamp":"t","source":"agent","kind":"TeleportEvent"}],"next_page_id":null}`,
			[]string{`terminal {} c1 null - 0`}, []string{`items[1]: event of kind "TeleportEvent"`}},
	})
}

func TestMiniSWEAgent(t *testing.T) {
	msg := func(role, content string, rest ...string) string {
		s := `{"role":"` + role + `","content":` + strconv.Quote(content)
		for _, r := range rest {
			s += "," + r
		}
		return s + "}"
	}
	list := func(msgs ...string) string { return "[" + strings.Join(msgs, ",") + "]" }
	runSessionTests(t, []sessionTest{
		{"text-based, version 1: fenced bash, a format error, a failure", "mini_swe_agent", list(
			msg("system", "Reply with one ```bash block, e.g.\n```bash\nls\n```"),
			msg("user", "Fix the bug"),
			msg("assistant", "THOUGHT: look\n\n```bash\nls -la\n```"),
			msg("user", "<returncode>0</returncode>\n<output>\na b\n</output>"),
			msg("assistant", "Two:\n```bash\nls\n```\n```bash\npwd\n```"),
			msg("user", "Please always provide EXACTLY ONE action in triple backticks, found 2 actions."),
			msg("assistant", "```bash\npython t.py\n```"),
			msg("user", "<returncode>1</returncode>\n<output>\nTraceback\n</output>"),
		),
			[]string{
				`bash {"command":"ls -la"} - "<returncode>0</returncode>\n<output>\na b\n</output>" ok 1`,
				`bash {"command":"python t.py"} - "<returncode>1</returncode>\n<output>\nTraceback\n</output>" error 1`,
			},
			[]string{`[4]: assistant message with 2 commands, not one (a format error: the agent ran none)`}},
		{"text-based, version 2: actions and observations in extra, the user's own command and words", "mini_swe_agent", list(
			msg("user", "Fix it"),
			msg("assistant", "```mswea_bash_command\nmake\n```", `"extra":{"actions":[{"command":"make"}],"cost":0.1}`),
			msg("user", "<returncode>2</returncode>", `"extra":{"raw_output":"","returncode":2}`),
			msg("user", "User command: \n```bash\ngit stash\n```", `"extra":{"actions":[{"command":"git stash"}]}`),
			msg("user", "<returncode>0</returncode>", `"extra":{"raw_output":"","returncode":0}`),
			msg("user", "Interrupted by user: try make test", `"extra":{"interrupt_type":"UserInterruption"}`),
			msg("assistant", "<mswea_bash_command>make test</mswea_bash_command>"),
			msg("user", "<returncode>0</returncode>\n<output>\nok\n</output>", `"extra":{"returncode":0}`),
			msg("exit", "diff", `"extra":{"exit_status":"Submitted","submission":"diff"}`),
		),
			[]string{
				`bash {"command":"make"} - "<returncode>2</returncode>" error 1`,
				`bash {"command":"make test"} - "<returncode>0</returncode>\n<output>\nok\n</output>" ok 2`,
			}, nil},
		{"a run's own action regex", "mini_swe_agent",
			`{"info":{"config":{"model":{"action_regex":"<cmd>(.*?)</cmd>"}}},"trajectory_format":"mini-swe-agent-1.1","messages":` + list(
				msg("user", "go"),
				msg("assistant", "<cmd>ls</cmd>"),
				msg("user", "<returncode>0</returncode>"),
			) + `}`,
			[]string{`bash {"command":"ls"} - "<returncode>0</returncode>" ok 1`}, nil},
		{"tool calling, with the Responses API too", "mini_swe_agent",
			`{"info":{},"trajectory_format":"mini-swe-agent-1.1","messages":` + list(
				msg("user", "go"),
				`{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}],"extra":{"actions":[{"command":"ls","tool_call_id":"c1"}],"response":{"choices":[{"message":{"tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]}}]}}}`,
				`{"role":"tool","tool_call_id":"c1","content":"<returncode>127</returncode>","extra":{"returncode":127}}`,
				`{"id":"resp_1","object":"response","output":[{"type":"function_call","call_id":"c2","name":"bash","arguments":"{\"command\":\"pwd\"}"}],"extra":{"actions":[{"command":"pwd","tool_call_id":"c2"}]}}`,
				`{"type":"function_call_output","call_id":"c2","output":"<returncode>0</returncode>","extra":{"returncode":0}}`,
			) + `}`,
			[]string{
				`bash {"command":"ls"} c1 "<returncode>127</returncode>" error 1`,
				`bash {"command":"pwd"} c2 "<returncode>0</returncode>" ok 1`,
			}, nil},
	})
}

func TestCodexExecJSON(t *testing.T) {
	item := func(event, body string) string { return `{"type":"item.` + event + `","item":{` + body + "}}\n" }
	runSessionTests(t, []sessionTest{
		{"items shown as they start and complete, two turns, threads", "codex_exec_json",
			`{"type":"thread.started","thread_id":"t1"}` + "\n" + `{"type":"turn.started"}` + "\n" +
				item("started", `"id":"item_0","type":"command_execution","command":"ls","aggregated_output":"","status":"in_progress"`) +
				`{"type":"error","message":"Re-connecting... 1/5"}` + "\n" +
				item("completed", `"id":"item_0","type":"command_execution","command":"ls","aggregated_output":"a\n","exit_code":0,"status":"completed"`) +
				item("completed", `"id":"item_1","type":"command_execution","command":"rm x","aggregated_output":"","exit_code":null,"status":"declined"`) +
				item("started", `"id":"item_2","type":"todo_list","items":[{"text":"a","completed":false}]`) +
				item("completed", `"id":"item_3","type":"file_change","changes":[{"path":"a.go","kind":"update"}],"status":"failed"`) +
				`{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1}}` + "\n" +
				`{"type":"turn.started"}` + "\n" +
				item("started", `"id":"item_4","type":"mcp_tool_call","server":"gh","tool":"search","arguments":{"q":"x"},"result":null,"error":null,"status":"in_progress"`) +
				item("completed", `"id":"item_4","type":"mcp_tool_call","server":"gh","tool":"search","arguments":{"q":"x"},"result":{"content":[],"structured_content":null},"error":null,"status":"completed"`) +
				item("completed", `"id":"item_5","type":"web_search","query":"q","action":{"type":"search","query":"q"}`) +
				`{"type":"request_user_input","id":"turn","call_id":"call_9","questions":[{"id":"q1","question":"which?"}]}` + "\n" +
				`{"type":"turn.failed","error":{"message":"stopped"}}` + "\n" +
				`{"type":"thread.started","thread_id":"t2"}` + "\n" + `{"type":"turn.started"}` + "\n" +
				item("started", `"id":"item_0","type":"command_execution","command":"make","aggregated_output":"","status":"in_progress"`),
			[]string{
				`shell {"command":"ls"} item_0 "a\n" ok 1`,
				`shell {"command":"rm x"} item_1 "" error 1`,
				`apply_patch {"changes":[{"path":"a.go","kind":"update"}]} item_3 "failed" error 1`,
				`gh__search {"q":"x"} item_4 {"content":[],"structured_content":null} ok 2`,
				`web_search {"type":"search","query":"q"} item_5 null - 2`,
				`request_user_input {"questions":[{"id":"q1","question":"which?"}]} call_9 null - 2`,
				`shell {"command":"make"} item_0 null - 3`,
			}, nil},
		{"a failed MCP call, an unknown item shown twice, an unknown event", "codex_exec_json",
			`{"type":"thread.started","thread_id":"t"}` + "\n" +
				item("started", `"id":"item_0","type":"hologram","x":1`) +
				item("completed", `"id":"item_0","type":"hologram","x":2`) +
				item("completed", `"id":"item_1","type":"mcp_tool_call","server":"s","tool":"t","arguments":null,"result":null,"error":{"message":"timeout"},"status":"failed"`) +
				`{"type":"thread.teleported"}` + "\n",
			[]string{`s__t null item_1 {"content":{"message":"timeout"},"is_error":true} error 0`},
			[]string{`line 2 item: item of type "hologram"`, `line 5: event of type "thread.teleported"`}},
	})
}

func TestClaudeAgentSDK(t *testing.T) {
	wrap := func(dir, msg string) string {
		return `{"id":"m","timestamp":"2026-01-01T00:00:00Z","direction":"` + dir + `","message":` + msg + "}\n"
	}
	assistant := func(id, name, input string) string {
		return `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":` + input + `}]},"parent_tool_use_id":null,"session_id":"s"}`
	}
	result := func(id, content string) string {
		return `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":` + content + `}]},"parent_tool_use_id":null,"session_id":"s"}`
	}
	mcp := `{"type":"control_request","request_id":"r2","request":{"subtype":"mcp_message","server_name":"calc","message":{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}}}`
	runSessionTests(t, []sessionTest{
		{"wrapped, both directions, control traffic", "claude_agent_sdk",
			wrap("sent", `{"type":"control_request","request_id":"r0","request":{"subtype":"initialize","hooks":null,"agents":{"a":{"name":"x","input":{"q":1}}}}}`) +
				wrap("sent", `{"type":"user","message":{"role":"user","content":"add"},"parent_tool_use_id":null,"session_id":""}`) +
				wrap("received", assistant("t1", "mcp__calc__add", `{"a":1}`)) +
				wrap("received", `{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"mcp__calc__add","input":{"a":1},"tool_use_id":"t1"}}`) +
				wrap("sent", `{"type":"control_response","response":{"subtype":"success","request_id":"r1","response":{"behavior":"allow","updatedInput":{"a":1}}}}`) +
				wrap("received", mcp) +
				wrap("received", result("t1", `"1"`)) +
				wrap("received", `{"type":"result","subtype":"success","session_id":"s","permission_denials":[]}`),
			[]string{`mcp__calc__add {"a":1} t1 "1" ok 1`}, nil},
		{"bare lines; an MCP run whose call the recording lacks", "claude_agent_sdk",
			`{"type":"control_response","response":{"subtype":"success","request_id":"r0"}}` + "\n" + mcp + "\n" +
				`{"type":"control_request","request_id":"r3","request":{"subtype":"hook_callback","callback_id":"h","input":{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"x","tool_use_id":"t9"},"tool_use_id":"t9"}}` + "\n" +
				assistant("t9", "Bash", `{"command":"ls"}`) + "\n",
			[]string{`mcp__calc__add {"a":1} - null - 0`, `Bash {"command":"ls"} t9 null - 0`}, nil},
		{"a wrapper around no message", "claude_agent_sdk",
			wrap("received", `"oops"`) + wrap("received", assistant("t1", "Read", `{}`)),
			[]string{`Read {} t1 null - 0`}, []string{`line 1: recorded string, not a message`}},
	})
}

func TestClaudeCodeAgentProgress(t *testing.T) {
	progress := func(msgType, content string) string {
		return `{"type":"progress","parentUuid":"p","isSidechain":false,"sessionId":"s","uuid":"u","parentToolUseID":"task1","toolUseID":"agent_msg_1",` +
			`"data":{"type":"agent_progress","agentId":"a1","prompt":"look","message":{"type":"` + msgType + `","message":{"role":"` + msgType + `","content":` + content + `},"uuid":"n"}}}` + "\n"
	}
	runSessionTests(t, []sessionTest{
		{"a sub-agent's calls in agent_progress records", "claude_code",
			`{"type":"user","uuid":"1","sessionId":"s","message":{"role":"user","content":"review"}}` + "\n" +
				`{"type":"assistant","uuid":"2","sessionId":"s","message":{"role":"assistant","content":[{"type":"tool_use","id":"task1","name":"Task","input":{"prompt":"look"}}]}}` + "\n" +
				progress("user", `[{"type":"text","text":"look"}]`) +
				progress("assistant", `[{"type":"tool_use","id":"g1","name":"Grep","input":{"pattern":"x"}}]`) +
				progress("user", `[{"type":"tool_result","tool_use_id":"g1","content":"none"}]`) +
				`{"type":"progress","sessionId":"s","uuid":"h","data":{"type":"hook_progress","hookEvent":"PostToolUse","hookName":"PostToolUse:Grep"}}` + "\n" +
				`{"type":"user","uuid":"3","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"task1","content":"done"}]}}` + "\n",
			[]string{`Task {"prompt":"look"} task1 "done" ok 1`, `Grep {"pattern":"x"} g1 "none" ok 1`}, nil},
	})
}

func TestSmolagents(t *testing.T) {
	action := func(n, calls, rest string) string {
		return `{"step_number":` + n + `,"timing":{"start_time":1,"end_time":2,"duration":1},"tool_calls":` + calls + `,"model_output":null` + rest + `}`
	}
	runSessionTests(t, []sessionTest{
		{"a run result's steps; older flat calls; JSON-text arguments", "smolagents",
			`{"output":"4","state":"success","steps":[{"task":"2+2?","task_images":null},` +
				action("1", `[{"name":"add","arguments":{"a":2,"b":2},"id":"c1"}]`, `,"observations":"4","error":null`) + `,` +
				action("2", `[{"id":"c2","type":"function","function":{"name":"final_answer","arguments":"{\"answer\": \"4\"}"}}]`, `,"observations":null,"action_output":"4","is_final_answer":true,"error":null`) + `,` +
				`{"task":"and 3+3?","task_images":null},` +
				action("3", `[]`, `,"observations":null,"error":{"type":"AgentParsingError","message":"no call"}`) + `,` +
				`{"output":"4"},{"mystery":1}],"token_usage":null}`,
			[]string{`add {"a":2,"b":2} c1 "4" ok 1`, `final_answer {"answer":"4"} c2 "4" ok 1`},
			[]string{`steps[6]: step with keys "mystery"`}},
		{"a step whose tool raised records only its error", "smolagents",
			`[{"task":"t","task_images":null},` +
				action("1", `[]`, `,"observations":null,"error":{"type":"AgentToolExecutionError","message":"Error executing tool 'add' with arguments {'a': 1, 'b': None}: TypeError: bad\nPlease try again or use another tool"}`) + `]`,
			[]string{`add {"a":1,"b":null} - {"content":{"type":"AgentToolExecutionError","message":"Error executing tool 'add' with arguments {'a': 1, 'b': None}: TypeError: bad\nPlease try again or use another tool"},"is_error":true} error 1`},
			nil},
	})
}

// smolagentsMessage is a chat message as smolagents writes its memory
// (ChatMessage.dict()), its content one text part.
func smolagentsMessage(role, text string) string {
	t, _ := json.Marshal(text)
	return `{"role":"` + role + `","content":[{"type":"text","text":` + string(t) + `}],"tool_calls":null,"raw":null,"token_usage":null}`
}

func TestSmolagentsRuns(t *testing.T) {
	m := smolagentsMessage
	run := func(msgs ...string) string {
		return `{"model_id":"m","agent_action_type":"tool-calling","question":"q","answer":"a","true_answer":"a","source":"s","intermediate_steps":[` + strings.Join(msgs, ",") + `],"start_time":1,"end_time":"2","token_counts":{}}` + "\n"
	}
	system := m("system", "You have tools.\nAction:\n{\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}")
	retry := "\nNow let's retry: take care not to repeat previous errors! If you have retried several times, try a completely different approach.\n"
	runSessionTests(t, []sessionTest{
		{"records: parallel calls, Python literals, errors with and without a call id", "smolagents",
			run(system, m("user", "New task:\nq"),
				m("assistant", "Tool call c1: calling 'f' with arguments: {'a': True}"),
				m("tool-call", "Calling tools:\n[{'id': 'c1', 'type': 'function', 'function': {'name': 'f', 'arguments': {'a': True, 'b': None, 'n': -1.5, 's': \"it's\", 'l': [1, (2, 3)]}}}, {'id': 'c2', 'type': 'function', 'function': {'name': 'g', 'arguments': {}}}]"),
				m("tool-response", "Observation:\nf done\ng done"),
				m("tool-response", "Error:\nError executing tool 'h' with arguments {'x': False}: ValueError: no\nPlease try again or use another tool"+retry),
				m("tool-response", "Error:\nError while parsing tool call from model output: bad"+retry),
				m("tool-call", "Calling tools:\n[{'id': 'c3', 'type': 'function', 'function': {'name': 'python_interpreter', 'arguments': 'print(1)'}}]"),
				m("tool-response", "Observation:\nExecution logs:\n1"),
				m("tool-response", "Call id: c3\nError:\nCode execution failed"+retry)) +
				run(system, m("user", "New task:\nq2"), m("assistant", "plan"), m("user", "Now proceed and carry out this plan."),
					m("tool-response", "Error:\nUnknown tool k, should be one of: f, g."+retry),
					m("tool-call", "Calling tools:\n[{'id': 'c4', 'type': 'function', 'function': {'name': 'final_answer', 'arguments': {'answer': 2}}}]"),
					m("tool-response", "Observation:\n2")),
			[]string{
				`f {"a":true,"b":null,"n":-1.5,"s":"it's","l":[1,[2,3]]} c1 "f done\ng done" ok 1`,
				`g {} c2 "f done\ng done" ok 1`,
				`h {"x":false} - "Error executing tool 'h' with arguments {'x': False}: ValueError: no\nPlease try again or use another tool" error 1`,
				`python_interpreter {"code":"print(1)"} c3 "Code execution failed" error 1`,
				`final_answer {"answer":2} c4 "2" ok 2`,
			},
			[]string{`line 2 intermediate_steps[4]: failed call smolagents did not record (Unknown tool k, should be one of: f, g.)`}},
		{"a list of messages alone; an older observation with its call id; what is not smolagents'", "smolagents",
			`[` + strings.Join([]string{m("user", "New task:\nq"),
				m("tool-call", "Calling tools:\n[{'id': 'c1', 'type': 'function', 'function': {'name': 'f', 'arguments': {'a': 'b'}}}]"),
				m("tool-response", "Call id: c1\nObservation:\nok"),
				m("tool-call", "Calling tools:\n[{'id': 'c2', 'type': 'function', 'function': {'name': 'f', 'arguments': {'a': 'c'}}}]"),
				m("tool-response", "Error:\nError executing tool 'f' with arguments c: TypeError: no"),
				m("tool-call", "Calling tools:\nf(a=1)"),
				m("critic", "hm"),
				m("tool-response", "hm")}, ",") + `]`,
			[]string{`f {"a":"b"} c1 "ok" ok 1`, `f {"a":"c"} c2 null - 1`},
			[]string{
				`[4]: failed call whose arguments cannot be told from its error (Error executing tool 'f' with arguments ...)`,
				`[5]: tool calls that are no Python list of calls`,
				`[6]: message with role "critic"`,
				`[7]: tool response that is neither an observation nor an error`,
			}},
	})
}

// TestSessionFormatsOnForeignInput forces each session format on traces
// of other shapes: it must find nothing of its format (ErrNotThisFormat)
// or report what it skipped, never return an empty list quietly.
func TestSessionFormatsOnForeignInput(t *testing.T) {
	foreign := []struct{ name, input string }{
		{"object", `{"foo": 1, "bar": [1, 2]}`},
		{"chat messages", `[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]`},
		{"json lines", "{\"a\": 1}\n{\"b\": 2}\n"},
		{"events", "{\"type\":\"message_start\",\"message\":{}}\n{\"type\":\"ping\"}\n"},
		{"gemini", `{"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]}}]}`},
	}
	for _, format := range []string{"pi", "opencode", "openhands_v1", "mini_swe_agent", "codex_exec_json", "claude_agent_sdk", "smolagents"} {
		for _, f := range foreign {
			t.Run(format+"/"+f.name, func(t *testing.T) {
				tr, err := trace.Read([]byte(f.input), format)
				if err == nil && (len(tr.Calls) > 0 || len(tr.Skipped) == 0) {
					t.Errorf("%d calls, skipped %v, no error", len(tr.Calls), tr.Skipped)
				}
				if err != nil && !errors.Is(err, trace.ErrNotThisFormat) {
					t.Errorf("error %v, want ErrNotThisFormat", err)
				}
			})
		}
	}
}
