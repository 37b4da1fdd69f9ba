package judge_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/jsonvalue"
	"github.com/toolgrade/toolgrade/judge"
	"github.com/toolgrade/toolgrade/openai"
	"github.com/toolgrade/toolgrade/openai/openaitest"
)

// manyCalls returns a case of n calls to get_weather, each on a city of
// its own.
func manyCalls(n int) *toolgrade.Case {
	c := weatherCase()
	c.Called = make([]toolgrade.Call, n)
	for i := range c.Called {
		c.Called[i] = toolgrade.Call{Name: "get_weather", Args: jsonvalue.Object{{Key: "city", Value: fmt.Sprintf("city %d", i)}}}
	}
	return c
}

// callOf returns the index of the call a prompt grades.
func callOf(r judge.Request) int {
	_, call, _ := strings.Cut(r.User, "Call to grade:\n#")
	var i int
	fmt.Sscan(call, &i)
	return i
}

// byCall answers the prompt about call i: "no" for every third call, a
// reason naming the call, and usage that tells calls apart.
func byCall(r judge.Request) (judge.Verdict, error) {
	i := callOf(r)
	v := judge.Verdict{Score: 1, Reason: fmt.Sprintf("call %d is fine", i), Usage: toolgrade.Usage{Requests: 1, PromptTokens: 100 + int64(i), CompletionTokens: 10}}
	if i%3 == 2 {
		v.Score, v.Reason = 0, fmt.Sprintf("call %d is wrong", i)
	}
	return v, nil
}

// oneAtATime is a judge that says it answers one prompt at a time: the
// metric then asks a case's prompts one after another, as it always did.
type oneAtATime struct{ *fakeJudge }

func (oneAtATime) Concurrency() int { return 1 }

// wavesJudge holds each prompt until wave of them are held, then answers
// them together, the last asked first, so that replies come in another
// order than the calls'. A prompt held longer than patience is answered
// alone and counted as stranded, and no later one is held: code that
// leaves the judge's slots idle fails the test instead of hanging it.
type wavesJudge struct {
	concurrency int // what Concurrency says; 0: no such method
	wave        int
	patience    time.Duration
	verdict     func(judge.Request) (judge.Verdict, error)

	mu             sync.Mutex
	held           []chan struct{}
	inFlight, most int
	asked          int
	stranded       int
}

func (w *wavesJudge) Judge(ctx context.Context, r judge.Request) (judge.Verdict, error) {
	w.mu.Lock()
	w.asked++
	w.inFlight++
	w.most = max(w.most, w.inFlight)
	release := make(chan struct{})
	if w.stranded == 0 {
		w.held = append(w.held, release)
		if len(w.held) == w.wave {
			held := w.held
			w.held = nil
			go func() {
				for k := len(held) - 1; k >= 0; k-- {
					close(held[k])
					time.Sleep(time.Millisecond) // so that the replies come in that order
				}
			}()
		}
	} else {
		close(release)
	}
	w.mu.Unlock()
	select {
	case <-release:
	case <-time.After(w.patience):
		w.mu.Lock()
		w.stranded++
		w.mu.Unlock()
	}
	w.mu.Lock()
	w.inFlight--
	w.mu.Unlock()
	return w.verdict(r)
}

// limitedWaves is a wavesJudge that says how many prompts it answers at
// once.
type limitedWaves struct{ *wavesJudge }

func (l limitedWaves) Concurrency() int { return l.concurrency }

// A case's calls are asked about at once, as many as the judge answers at
// once, and the result is the one asking them one after another gives,
// byte for byte, whatever order the replies come in.
func TestArgumentCorrectnessAsksAtOnce(t *testing.T) {
	tests := []struct {
		name              string
		concurrency, wave int // concurrency 0: the judge does not say
		calls             int
	}{
		{"as many as the judge answers at once", 4, 4, 12},
		{"eight for a judge that does not say", 0, 8, 16},
		{"every call when there are fewer", 8, 3, 3},
		{"one after another when the judge says one", 1, 1, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := manyCalls(tt.calls)
			serial := oneAtATime{&fakeJudge{verdict: byCall}}
			m, err := judge.NewArgumentCorrectness(serial, nil, judge.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := m.Grade(context.Background(), c)

			w := &wavesJudge{concurrency: tt.concurrency, wave: tt.wave, patience: 5 * time.Second, verdict: byCall}
			var j judge.Judge = w
			if tt.concurrency > 0 {
				j = limitedWaves{w}
			}
			m, err = judge.NewArgumentCorrectness(j, nil, judge.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := m.Grade(context.Background(), c)
			if w.asked != tt.calls || w.most != tt.wave || w.stranded != 0 {
				t.Errorf("%d prompts asked, at most %d at once, %d waited in vain for %d together; want %d asked, %d at once, none waiting in vain",
					w.asked, w.most, w.stranded, tt.wave, tt.calls, tt.wave)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("result differs from asking one after another (-want +got):\n%s", diff)
			}
			if want.Error != "" || !strings.Contains(want.Reason, "call #0 get_weather: yes: call 0 is fine; call #1") {
				t.Errorf("reference result: error %q reason %q", want.Error, want.Reason)
			}
		})
	}
}

// scripted answers each call's prompt as its function says; calls without
// one are answered yes.
// The index of each call asked goes to asked, if set.
type scripted struct {
	calls map[int]func(ctx context.Context) (judge.Verdict, error)
	asked chan int
}

func (s scripted) Concurrency() int { return 8 }

func (s scripted) Judge(ctx context.Context, r judge.Request) (judge.Verdict, error) {
	if s.asked != nil {
		s.asked <- callOf(r)
	}
	if f := s.calls[callOf(r)]; f != nil {
		return f(ctx)
	}
	return judge.Verdict{Score: 1, Reason: "fine", Usage: toolgrade.Usage{Requests: 1}}, nil
}

// A failure is the first failed call's in the order of the calls, with
// the usage of the calls up to it, as asking one after another reports
// it, though a later call failed first; the calls after it being asked
// are cancelled.
func TestArgumentCorrectnessFailsAsOneAfterAnother(t *testing.T) {
	c := manyCalls(8)
	fail := func(i int) (judge.Verdict, error) {
		return judge.Verdict{Usage: toolgrade.Usage{Requests: 1, PromptTokens: 7}}, fmt.Errorf("HTTP 500 on call %d", i)
	}
	serial := oneAtATime{&fakeJudge{verdict: func(r judge.Request) (judge.Verdict, error) {
		if i := callOf(r); i == 2 || i == 5 {
			return fail(i)
		}
		return judge.Verdict{Score: 1, Reason: "fine", Usage: toolgrade.Usage{Requests: 1}}, nil
	}}}
	m, _ := judge.NewArgumentCorrectness(serial, nil, judge.Options{})
	want := m.Grade(context.Background(), c)
	if want.Error != "argument judge, call #2 get_weather: HTTP 500 on call 2" {
		t.Fatalf("reference error %q", want.Error)
	}

	failed5 := make(chan struct{})
	var mu sync.Mutex
	cancelled := map[int]bool{}
	untilCancelled := func(i int) func(ctx context.Context) (judge.Verdict, error) {
		return func(ctx context.Context) (judge.Verdict, error) {
			select {
			case <-ctx.Done():
			case <-time.After(5 * time.Second):
				return judge.Verdict{}, errors.New("not cancelled")
			}
			mu.Lock()
			cancelled[i] = true
			mu.Unlock()
			return judge.Verdict{Usage: toolgrade.Usage{Requests: 1, PromptTokens: 1000}}, ctx.Err()
		}
	}
	asked := make(chan int, 8)
	j := scripted{asked: asked, calls: map[int]func(context.Context) (judge.Verdict, error){
		// Call 2 fails once call 5 has.
		2: func(context.Context) (judge.Verdict, error) {
			select {
			case <-failed5:
			case <-time.After(5 * time.Second): // call 5 not asked: the test fails
			}
			return fail(2)
		},
		3: untilCancelled(3),
		// Call 5 fails once every call is being asked.
		5: func(context.Context) (judge.Verdict, error) {
			for wait := 0; len(asked) < cap(asked) && wait < 5000; wait++ {
				time.Sleep(time.Millisecond)
			}
			defer close(failed5)
			return fail(5)
		},
		6: untilCancelled(6),
		7: untilCancelled(7),
	}}
	m, _ = judge.NewArgumentCorrectness(j, nil, judge.Options{})
	got := m.Grade(context.Background(), c)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("result differs from asking one after another (-want +got):\n%s", diff)
	}
	if !cancelled[3] || !cancelled[6] || !cancelled[7] {
		t.Errorf("cancelled %v, want calls 3, 6 and 7 cancelled", cancelled)
	}
}

// A run cancelled while a case's prompts are being asked ends them all at
// once.
func TestArgumentCorrectnessCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	waiting := 0
	hang := func(ctx context.Context) (judge.Verdict, error) {
		mu.Lock()
		if waiting++; waiting == 8 {
			cancel() // every prompt the judge answers at once is being asked
		}
		mu.Unlock()
		select {
		case <-ctx.Done():
			return judge.Verdict{}, ctx.Err()
		case <-time.After(5 * time.Second):
			return judge.Verdict{}, errors.New("not cancelled")
		}
	}
	calls := map[int]func(context.Context) (judge.Verdict, error){}
	for i := range 20 {
		calls[i] = hang
	}
	m, _ := judge.NewArgumentCorrectness(scripted{calls: calls}, nil, judge.Options{})
	r := m.Grade(ctx, manyCalls(20))
	if r.Error != "argument judge, call #0 get_weather: context canceled" || waiting != 8 {
		t.Errorf("error %q after %d prompts asked; want call #0's cancellation after 8", r.Error, waiting)
	}
}

// A judge that panics on one prompt panics the metric's caller, where a
// run recovers it, instead of ending the program.
func TestArgumentCorrectnessPanicReachesTheCaller(t *testing.T) {
	asked := make(chan int, 8)
	j := scripted{asked: asked, calls: map[int]func(context.Context) (judge.Verdict, error){
		3: func(context.Context) (judge.Verdict, error) { panic("judge broke") },
	}}
	m, _ := judge.NewArgumentCorrectness(j, nil, judge.Options{})
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "judge broke") {
			t.Errorf("recovered %v, want the judge's panic", p)
		}
	}()
	m.Grade(context.Background(), manyCalls(8))
	t.Error("no panic")
}

// Over the wire, one case of 16 calls keeps the client's 8 requests in
// flight (the fake API answers only 8 together), in two waves instead of
// 16 requests one after another; a second grading is answered by the
// reply cache, with the same result.
func TestArgumentCorrectnessFillsTheClient(t *testing.T) {
	const concurrency, calls = 8, 16
	srv := openaitest.NewServer(t)
	srv.Together = concurrency
	srv.Reply = func(r *openaitest.ChatRequest) openaitest.Reply {
		_, call, _ := strings.Cut(r.User, "Call to grade:\n")
		return openaitest.Reply{Content: fmt.Sprintf(`{"score": 1, "reason": "%s is right"}`, strings.Fields(call)[0])}
	}
	cache, err := openai.OpenCache(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	client, err := openai.NewClient(openai.Options{BaseURL: srv.BaseURL(), Concurrency: concurrency, Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	j, err := openai.NewJudge(client, openai.JudgeOptions{Model: "judge-1"})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := judge.NewArgumentCorrectness(j, nil, judge.Options{})
	c := manyCalls(calls)
	first := m.Grade(context.Background(), c)
	if first.Error != "" || first.Score != 1 || !strings.HasPrefix(first.Reason, "call #0 get_weather: yes: #0 is right; call #1 get_weather: yes: #1 is right;") {
		t.Fatalf("error %q score %v reason %q", first.Error, first.Score, first.Reason)
	}
	requests := srv.Hits("POST /v1/chat/completions")
	if requests != calls || srv.MostInFlight() != concurrency || srv.Stranded() != 0 {
		t.Errorf("%d requests, at most %d in flight, %d stranded waiting for %d together; want %d requests, %d in flight, none stranded",
			requests, srv.MostInFlight(), srv.Stranded(), concurrency, calls, concurrency)
	}
	again := m.Grade(context.Background(), c)
	if n := srv.Hits("POST /v1/chat/completions"); n != calls {
		t.Errorf("%d requests after grading again, want the cache to answer all", n-calls)
	}
	if toolgrade.DetailOf[toolgrade.Usage](&again) != (toolgrade.Usage{CachedRequests: calls}) {
		t.Errorf("usage of the cached grading %+v, want %d cached requests", toolgrade.DetailOf[toolgrade.Usage](&again), calls)
	}
	first.SetDetail(toolgrade.Usage{CachedRequests: calls})
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("cached result differs (-first +again):\n%s", diff)
	}
}
