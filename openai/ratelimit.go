package openai

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Servers say how much of their rate limits is left in every reply, as
// OpenAI does (and Azure OpenAI, Groq, OpenRouter, ...):
//
//	x-ratelimit-limit-requests      the limit (a bucket of so many requests)
//	x-ratelimit-remaining-requests  what is left of it
//	x-ratelimit-reset-requests      the time until it is whole again ("1s", "6m0s", "20ms", or seconds)
//
// and the same three for -tokens. A [Client] keeps to them: it holds a
// chat completion back until the limits as last told, less what it sent
// since, allow it, so that it rarely meets a 429. A limit is taken to
// refill evenly (a token bucket, as OpenAI's limits behave): from one
// reply, the time it takes to refill from empty is at least reset·limit/
// (limit−remaining). Replies without the headers change nothing.

// paceMargin widens the gap the client leaves between requests beyond
// what the limits say, so that the time a request takes to reach the
// server (the headers speak of the moment it arrived; the client counts
// from when it sent it) does not make the next one early.
const paceMargin = 1.05

// limitKinds are the limits read from the headers, in the order of a
// cost: requests, then tokens.
var limitKinds = [2]string{"requests", "tokens"}

// admissionLog is how many recent admissions a serverLimits remembers: a
// reply to an older one tells too little to go by.
const admissionLog = 64

// serverLimits paces requests by the servers' rate-limit headers. It is
// safe for concurrent use.
type serverLimits struct {
	mu    sync.Mutex
	now   func() time.Time
	seq   uint64 // admissions so far
	log   [admissionLog]admission
	kinds [2]serverLimit
}

// A serverLimit is one limit as the replies told it.
type serverLimit struct {
	known bool          // a reply told it
	size  float64       // the limit (x-ratelimit-limit-*)
	whole time.Duration // how long it takes to refill from empty
	full  time.Time     // when it is whole again, counting what was sent since
}

// An admission is a request let through: its number, when, and its cost
// (one request, so many estimated tokens).
type admission struct {
	seq     uint64
	at      time.Time
	cost    [2]float64
	counted [2]bool // whether its cost was counted in each limit's full
}

// gap is the time a limit takes to refill by cost, with the margin.
func (l *serverLimit) gap(cost float64) time.Duration {
	return time.Duration(cost / l.size * float64(l.whole) * paceMargin)
}

// admit waits until the limits allow a request of cost (one request, so
// many estimated tokens), then counts it sent. sleep waits as
// Client.sleep does. A wait longer than maxRetryAfter is not made: the
// request goes, and the server's answer decides.
func (s *serverLimits) admit(ctx context.Context, cost [2]float64, sleep func(context.Context, time.Duration) error) (admission, error) {
	for {
		s.mu.Lock()
		now := s.now()
		wait := s.wait(now, cost)
		if wait <= 0 || wait > maxRetryAfter {
			s.seq++
			a := admission{seq: s.seq, at: now, cost: cost}
			for k := range s.kinds {
				a.counted[k] = s.kinds[k].take(a, k)
			}
			s.log[a.seq%admissionLog] = a
			s.mu.Unlock()
			return a, nil
		}
		s.mu.Unlock()
		if err := sleep(ctx, wait); err != nil {
			return admission{}, err
		}
	}
}

// take counts admission a's cost of kind k as sent, if the limit is
// known, and reports whether it did.
func (l *serverLimit) take(a admission, k int) bool {
	if !l.known {
		return false
	}
	if l.full.Before(a.at) {
		l.full = a.at
	}
	l.full = l.full.Add(l.gap(a.cost[k]))
	return true
}

// wait returns how long a request of cost must wait at now.
func (s *serverLimits) wait(now time.Time, cost [2]float64) time.Duration {
	var wait time.Duration
	for k := range s.kinds {
		l := &s.kinds[k]
		if !l.known {
			continue
		}
		// The bucket holds cost once full−now ≤ whole−gap(cost); a
		// request larger than the whole limit waits until it is whole.
		until := l.full.Sub(now)
		if cost[k] < l.size {
			until -= l.whole - l.gap(cost[k])
		}
		wait = max(wait, until)
	}
	return wait
}

// holds reports whether the limits hold a request of cost back now.
func (s *serverLimits) holds(cost [2]float64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wait(s.now(), cost) > 0
}

// observe reads the limits a reply to admission a told. From what the
// reply says, with what the client sent after a counted on top, the limit
// is whole again at some time; the later of that and what the client
// reckoned stands. (Replies to requests sent together come back in no
// particular order, and the client cannot know which the server counted
// first: the later reckoning is the safe one.) It reports whether the
// reply told any limit.
func (s *serverLimits) observe(a admission, snap *httpSnapshot) bool {
	// All of it under the lock: a 429 takes its admission back out of
	// the log and the limits, which other replies read.
	s.mu.Lock()
	defer s.mu.Unlock()
	h := snap.header
	// The headers speak of when the server took the request: about when
	// it was written out, which a new connection can put well after the
	// admission. A 429 comes back at once, so when it came is as late as
	// the server took it plus the way back: the safe side, for the retry
	// that waits on it.
	began := a.at
	if w := snap.wrote.Load(); w > began.UnixNano() {
		began = time.Unix(0, w)
	}
	if snap.status == http.StatusTooManyRequests {
		began = s.now()
		// The server did not count it: neither does the client now.
		if e := &s.log[a.seq%admissionLog]; e.seq == a.seq {
			for k := range s.kinds {
				if e.counted[k] {
					s.kinds[k].full = s.kinds[k].full.Add(-s.kinds[k].gap(e.cost[k]))
				}
			}
			*e = admission{seq: e.seq, at: e.at}
		}
	}
	told := false
	for k, kind := range limitKinds {
		size, ok1 := headerNumber(h, "X-Ratelimit-Limit-"+kind)
		left, ok2 := headerNumber(h, "X-Ratelimit-Remaining-"+kind)
		reset, ok3 := headerDuration(h, "X-Ratelimit-Reset-"+kind)
		if !ok1 || !ok2 || !ok3 || size <= 0 {
			continue
		}
		told = true
		if s.seq-a.seq >= admissionLog {
			continue // too much was sent since to count it again
		}
		l := &s.kinds[k]
		left = min(max(left, 0), size)
		if size != l.size {
			*l = serverLimit{} // another limit: learn it afresh
		}
		// Servers round what is left down to a whole number, so a reply
		// tells at least this of the time to refill from empty; the most
		// any reply told is the closest.
		if left < size && reset > 0 {
			l.whole = max(l.whole, time.Duration(float64(reset)*size/(size-left)))
		}
		l.size = size
		if l.whole <= 0 {
			continue // nothing yet says how fast it refills
		}
		said := serverLimit{known: true, size: size, whole: l.whole, full: began.Add(reset)}
		for q := a.seq + 1; q <= s.seq; q++ {
			said.take(s.log[q%admissionLog], k)
		}
		if !l.known || said.full.After(l.full) {
			l.known, l.full = true, said.full
		}
	}
	return told
}

// headerNumber reads a non-negative number header.
func headerNumber(h http.Header, name string) (float64, bool) {
	v := strings.TrimSpace(h.Get(name))
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseFloat(v, 64)
	return n, err == nil && n >= 0
}

// headerDuration reads a reset header: a Go-style duration ("1s",
// "6m0s", "20ms", "2m59.56s") or a number of seconds.
func headerDuration(h http.Header, name string) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get(name))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 || s*float64(time.Second) > float64(24*time.Hour) {
			return 0, false
		}
		return time.Duration(s * float64(time.Second)), true
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > 24*time.Hour {
		return 0, false
	}
	return d, true
}
