package trace

// readTauBench reads a τ-bench result record {"task_id", "reward", "info",
// "traj", "trial"}: the calls of traj, a list of OpenAI chat messages (see
// [readOpenAIChat]). The gold actions under info are not calls made in the
// trace. τ-bench reuses call ids within one trajectory; each tool message
// answers the most recent unanswered call with its id.
func readTauBench(b *builder, v any) error {
	if l, ok := v.([]any); ok {
		return chatMessages(b, l, "")
	}
	traj, ok := get(v, "traj").([]any)
	if !ok {
		return wantError(`a τ-bench result record with "traj"`, v)
	}
	return chatMessages(b, traj, "traj")
}
