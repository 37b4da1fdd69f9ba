package trace

import "github.com/toolgrade/toolgrade/jsonvalue"

func init() {
	register(format{
		name:  "tau_bench",
		keys:  []string{"traj"},
		read:  readTauBench,
		trace: func(o jsonvalue.Object) level { return when(o.Has("traj"), decisive) },
	})
}

// readTauBench reads a τ-bench result record {"task_id", "reward", "info",
// "traj", "trial"}: the calls of traj, a list of OpenAI chat messages (see
// [readOpenAIChat]). The gold actions under info are not calls made in the
// trace. τ-bench reuses call ids within one trajectory; each tool message
// answers the most recent unanswered call with its id. A tool that raised
// is answered "Error: <message>" (τ-bench's env turns the exception into
// that text): such a call failed.
func readTauBench(b *builder, v any) error {
	b.failurePrefix = "Error: "
	info := get(v, "info")
	for _, at := range []string{"task", "reward_info"} {
		b.notCall(get(get(info, at), "actions"), "the task's gold actions, not calls made")
	}
	if l, ok := v.([]any); ok {
		return chatMessages(b, l, "")
	}
	traj, ok := get(v, "traj").([]any)
	if !ok {
		return wantError(`a τ-bench result record with "traj"`, v)
	}
	return chatMessages(b, traj, "traj")
}
