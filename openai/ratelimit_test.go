package openai

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade/openai/openaitest"
)

func TestHeaderDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"1s", time.Second, true},
		{"6m0s", 6 * time.Minute, true},
		{"20ms", 20 * time.Millisecond, true},
		{"2m59.56s", 2*time.Minute + 59560*time.Millisecond, true},
		{"7.66", 7660 * time.Millisecond, true},
		{"0", 0, true},
		{" 3 ", 3 * time.Second, true},
		{"", 0, false},
		{"-1s", 0, false},
		{"-2", 0, false},
		{"soon", 0, false},
		{"1700000000", 0, false}, // a Unix time, not a wait
		{"25h", 0, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			h := http.Header{"X-Ratelimit-Reset-Requests": {tc.in}}
			got, ok := headerDuration(h, "X-Ratelimit-Reset-Requests")
			if ok != tc.ok || got != tc.want {
				t.Errorf("headerDuration(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// bucket is a server's token bucket on a fake clock.
type bucket struct {
	size   float64
	window time.Duration
	left   float64
	at     time.Time
}

// take admits a request at now, and returns the headers the reply carries.
func (b *bucket) take(now time.Time) (bool, http.Header) {
	b.left = min(b.size, b.left+b.size*float64(now.Sub(b.at))/float64(b.window))
	b.at = now
	ok := b.left >= 1
	if ok {
		b.left--
	}
	reset := time.Duration((b.size - b.left) / b.size * float64(b.window)).Round(time.Millisecond)
	return ok, http.Header{
		"X-Ratelimit-Limit-Requests":     {fmt.Sprint(b.size)},
		"X-Ratelimit-Remaining-Requests": {fmt.Sprint(int(b.left))},
		"X-Ratelimit-Reset-Requests":     {reset.String()},
	}
}

// The client's pace against a token bucket, on a fake clock: replies come
// back in order, latency after their request reached the server, with
// several requests in flight; after the first replies no request meets a
// full bucket, and the pace stays within the margin of the limit.
func TestServerLimitsPace(t *testing.T) {
	for _, tc := range []struct {
		name     string
		size     float64
		window   time.Duration
		inFlight int
		way      time.Duration // from the client to the server, and back
		latency  time.Duration // from the request's arrival to its reply's
		requests int
	}{
		{"5 a second, quick replies", 5, time.Second, 8, 0, 10 * time.Millisecond, 200},
		{"5 a second, slow replies", 5, time.Second, 8, 0, 3 * time.Second, 200},
		{"5 a second, far away", 5, time.Second, 8, 30 * time.Millisecond, time.Second, 200},
		{"500 a minute", 500, time.Minute, 8, 50 * time.Millisecond, 200 * time.Millisecond, 2000},
		{"one at a time", 3, time.Second, 1, 0, 50 * time.Millisecond, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			now := start
			s := &serverLimits{now: func() time.Time { return now }}
			srv := &bucket{size: tc.size, window: tc.window, left: tc.size, at: start}
			type reply struct {
				a      admission
				at     time.Time
				header http.Header
				ok     bool
				told   bool // sent after a reply told the limit
			}
			var pending []reply // in order of arrival
			toSend, done, limited, limitedLate := tc.requests, 0, 0, 0
			heard := false
			// deliver hands the client the replies that came by until.
			deliver := func(until time.Time) {
				for len(pending) > 0 && !pending[0].at.After(until) {
					r := pending[0]
					pending = pending[1:]
					now = r.at
					snap := &httpSnapshot{status: http.StatusOK, header: r.header}
					if !r.ok {
						snap.status = http.StatusTooManyRequests
						limited++
						if r.told {
							limitedLate++
						}
						toSend++ // sent again
					} else {
						done++
					}
					s.observe(r.a, snap)
					heard = true
				}
				if until.After(now) {
					now = until
				}
			}
			sleep := func(_ context.Context, d time.Duration) error {
				deliver(now.Add(d))
				return nil
			}
			for done < tc.requests {
				if len(pending) == tc.inFlight || toSend == 0 {
					deliver(pending[0].at)
					continue
				}
				a, err := s.admit(context.Background(), [2]float64{1, 0}, sleep)
				if err != nil {
					t.Fatal(err)
				}
				ok, h := srv.take(now.Add(tc.way))
				back := now.Add(tc.way + tc.latency + tc.way)
				if !ok {
					back = now.Add(2 * tc.way) // a 429 comes at once
				}
				pending = append(pending, reply{a, back, h, ok, heard})
				slices.SortStableFunc(pending, func(a, b reply) int { return a.at.Compare(b.at) })
				toSend--
			}
			elapsed := now.Sub(start)
			// What the limit allows, or the requests in flight if fewer.
			least := max(time.Duration((float64(tc.requests)-tc.size)/tc.size*float64(tc.window)),
				time.Duration(tc.requests/tc.inFlight)*(tc.latency+2*tc.way))
			t.Logf("%d requests in %v (%v at the least), %d 429s, %d after the first reply", tc.requests, elapsed, least, limited, limitedLate)
			if limitedLate > 0 {
				t.Errorf("%d requests met a full bucket after the first reply told the limit", limitedLate)
			}
			if limit := time.Duration(float64(least)*1.15) + 2*(tc.latency+2*tc.way); elapsed > limit {
				t.Errorf("took %v, want at most %v (115%% of the least, and the replies' latency)", elapsed, limit)
			}
		})
	}
}

// A client against a server that tells its limit only in its headers and
// 429s meets the 429s of its first requests, sent before any reply told
// it the limit, and no more.
func TestClientKeepsToServerLimits(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.RequestLimit, srv.RequestWindow = 4, 800*time.Millisecond
	const concurrency, requests = 8, 12
	c, err := NewClient(Options{BaseURL: srv.BaseURL(), Concurrency: concurrency})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range requests {
		wg.Go(func() {
			req := ChatRequest{Model: "m", Messages: []Message{{Role: "user", Content: fmt.Sprint("question ", i)}}}
			if _, err := c.Complete(context.Background(), req); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// Those sent before any reply meet the limit (4 here). On a loaded
	// machine a retry can reach the server a hair before the refill it was
	// timed for, so the bound leaves room for as many again; without the
	// client keeping to the limit, some 60 requests meet it.
	if n, most := srv.RateLimited(), 2*(concurrency-srv.RequestLimit); n > most {
		t.Errorf("%d requests met the limit, want at most %d (those sent before any reply, and as many retries timed at the refill)", n, most)
	}
}
